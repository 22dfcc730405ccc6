// Package unitfile reads the assignments of a systemd unit file or drop-in
// the way systemd's own parser (conf-parser.c) does, as systemd.syntax(7)
// describes it. It is the one reader of unit files: the startup check
// (profilecheck) and switching (profile) both read units through it, so the
// two never disagree on what a unit says.
package unitfile

import "strings"

// Setting is one assignment of a unit file: `Key=Value` in a section, the
// key and value with the white space around them removed.
type Setting struct {
	Section, Key, Value string
}

// Parse returns the assignments of a unit file, in order. As in systemd:
// lines end at "\n" or "\r\n" and have no length limit here; a line whose
// first non-blank character is # or ; is a comment and is skipped even in
// the middle of a continued line; every line is stripped of surrounding
// white space; a line ending in an unescaped backslash continues on the
// next, the backslash becoming a space; an empty line ends a continuation;
// a line that is not a [Section] header and has no "=" is ignored. The
// strings of a setting that spans one line are parts of text.
func Parse(text string) []Setting {
	var out []Setting
	section := ""
	var cont strings.Builder // the continued lines so far, each backslash a space
	for line := range strings.Lines(text) {
		line = strings.TrimSuffix(line, "\n")
		line = strings.TrimSuffix(line, "\r")
		line = strings.TrimSpace(line)
		if line != "" && (line[0] == '#' || line[0] == ';') {
			continue
		}
		if endsInEscape(line) {
			cont.WriteString(line[:len(line)-1])
			cont.WriteByte(' ')
			continue
		}
		full := line
		if cont.Len() > 0 {
			cont.WriteString(line)
			full = cont.String()
			cont.Reset()
		}
		out = parseLine(out, &section, full)
	}
	if cont.Len() > 0 {
		// The file ends in a continued line: it counts as it is.
		out = parseLine(out, &section, cont.String())
	}
	return out
}

// parseLine reads one logical line: nothing, a [Section] header (which sets
// *section) or an assignment, appended to out.
func parseLine(out []Setting, section *string, line string) []Setting {
	if line == "" {
		return out
	}
	if line[0] == '[' {
		if strings.HasSuffix(line, "]") {
			*section = line[1 : len(line)-1]
		}
		return out
	}
	key, value, ok := strings.Cut(line, "=")
	if !ok {
		return out
	}
	return append(out, Setting{Section: *section, Key: strings.TrimSpace(key), Value: strings.TrimSpace(value)})
}

// endsInEscape reports whether s ends in a backslash that is not itself
// escaped (a line ending in \\ is not continued).
func endsInEscape(s string) bool {
	escaped := false
	for i := 0; i < len(s); i++ {
		if escaped {
			escaped = false
		} else if s[i] == '\\' {
			escaped = true
		}
	}
	return escaped
}
