package unitcheck

import (
	"strings"
)

// setting is one assignment of a unit file: `Key=Value` in a section.
type setting struct {
	section, key, value string
}

// parseUnit reads the assignments of a unit file or drop-in, in order:
// sections, `Key=Value` lines, comments (# and ;) and lines continued
// with a backslash, as systemd.syntax(7) describes them. Lines end at
// "\n" or "\r\n". The settings' strings are parts of text.
func parseUnit(text string) []setting {
	var out []setting
	section := ""
	var cont strings.Builder
	for line := range strings.Lines(text) {
		line = strings.TrimSuffix(line, "\n")
		line = strings.TrimSuffix(line, "\r")
		if cont.Len() == 0 {
			trimmed := strings.TrimSpace(line)
			if trimmed == "" || trimmed[0] == '#' || trimmed[0] == ';' {
				continue
			}
			if trimmed[0] == '[' && strings.HasSuffix(trimmed, "]") {
				section = trimmed[1 : len(trimmed)-1]
				continue
			}
		}
		if s, ok := strings.CutSuffix(line, "\\"); ok {
			cont.WriteString(s)
			cont.WriteByte(' ')
			continue
		}
		full := line
		if cont.Len() > 0 {
			cont.WriteString(line)
			full = cont.String()
			cont.Reset()
		}
		key, value, ok := strings.Cut(full, "=")
		if !ok {
			continue
		}
		out = append(out, setting{section: section, key: strings.TrimSpace(key), value: strings.TrimSpace(value)})
	}
	return out
}

// unitList returns the unit names of a list setting (Requires=, Wants=,
// ...) across all its assignments: space-separated, and an empty
// assignment resets the list.
func unitList(settings []setting, section, key string) []string {
	var out []string
	for _, s := range settings {
		if s.section != section || s.key != key {
			continue
		}
		if s.value == "" {
			out = nil
			continue
		}
		out = append(out, strings.Fields(s.value)...)
	}
	return out
}

// lastValue returns the value of the last assignment of a setting.
func lastValue(settings []setting, section, key string) (string, bool) {
	v, found := "", false
	for _, s := range settings {
		if s.section == section && s.key == key {
			v, found = s.value, true
		}
	}
	return v, found
}
