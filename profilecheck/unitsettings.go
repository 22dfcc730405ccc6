package profilecheck

import (
	"strings"

	"github.com/nodegen/nodegen/internal/unitfile"
)

// unitList returns the unit names of a list setting (Requires=, Wants=,
// ...) across all its assignments: space-separated, and an empty
// assignment resets the list.
func unitList(settings []unitfile.Setting, section, key string) []string {
	var out []string
	for _, s := range settings {
		if s.Section != section || s.Key != key {
			continue
		}
		if s.Value == "" {
			out = nil
			continue
		}
		out = append(out, strings.Fields(s.Value)...)
	}
	return out
}

// lastValue returns the value of the last assignment of a setting.
func lastValue(settings []unitfile.Setting, section, key string) (string, bool) {
	v, found := "", false
	for _, s := range settings {
		if s.Section == section && s.Key == key {
			v, found = s.Value, true
		}
	}
	return v, found
}
