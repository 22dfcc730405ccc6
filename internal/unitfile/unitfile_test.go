package unitfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name, unit string
		want       []Setting
	}{
		{
			name: "sections, comments, white space",
			unit: "# comment\n[Unit]\n  Requires = a b  \n; other\n[Service]\nExecStart = /bin/x \n",
			want: []Setting{{"Unit", "Requires", "a b"}, {"Service", "ExecStart", "/bin/x"}},
		},
		{
			// systemd strips each line, so the indentation of a continued
			// line is dropped; the backslash becomes one space.
			name: "continued lines",
			unit: "[Unit]\nRequires=a b\\\n    c\nWants=x \\\n  y\n",
			want: []Setting{{"Unit", "Requires", "a b c"}, {"Unit", "Wants", "x  y"}},
		},
		{
			// systemd.syntax(7)'s own example.
			name: "comments inside a continued line are skipped",
			unit: "[Section C]\nKeyThree=value 3\\\n# this line is ignored\n; this line is ignored too\n       value 3 continued\n",
			want: []Setting{{"Section C", "KeyThree", "value 3 value 3 continued"}},
		},
		{
			name: "an escaped backslash does not continue",
			unit: "[Service]\nExecStart=/bin/echo a\\\\\nType=oneshot\n",
			want: []Setting{{"Service", "ExecStart", `/bin/echo a\\`}, {"Service", "Type", "oneshot"}},
		},
		{
			name: "an empty line ends a continuation",
			unit: "[Unit]\nDescription=a\\\n\nAfter=b\n",
			want: []Setting{{"Unit", "Description", "a"}, {"Unit", "After", "b"}},
		},
		{
			name: "a header after a continued line is part of the value",
			unit: "[Unit]\nDescription=a\\\n[Service]\nType=simple\n",
			want: []Setting{{"Unit", "Description", "a [Service]"}, {"Unit", "Type", "simple"}},
		},
		{
			name: "CRLF line ends, a continued last line",
			unit: "[Unit]\r\nWants=a\\\r\n b\r\n\r\n[Install]\r\nWantedBy=multi-user.target\\",
			want: []Setting{{"Unit", "Wants", "a b"}, {"Install", "WantedBy", "multi-user.target"}},
		},
		{
			name: "a line without =, an unclosed header, an empty file",
			unit: "[Unit]\nnonsense\n[Broken\nA=1\n\n",
			want: []Setting{{"Unit", "A", "1"}},
		},
		{
			name: "no length limit",
			unit: "[Service]\nExecStart=/bin/x " + strings.Repeat("y", 1<<21) + "\n",
			want: []Setting{{"Service", "ExecStart", "/bin/x " + strings.Repeat("y", 1<<21)}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Parse(tt.unit)); diff != "" {
				t.Errorf("Parse (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, reference(tt.unit)); diff != "" {
				t.Errorf("the test's reference reader disagrees (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseFixtureUnits reads every unit file and drop-in of the fixtures'
// profiles and compares Parse with reference, a reader written another way.
func TestParseFixtureUnits(t *testing.T) {
	dirs, err := filepath.Glob("../../fixtures/*/want/etc/systemd")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no fixture profiles: %v", err)
	}
	units, continued, longest := 0, 0, 0
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			text := string(data)
			units++
			if regexp.MustCompile(`(?m)\\$`).MatchString(text) {
				continued++
			}
			got := Parse(text)
			if diff := cmp.Diff(reference(text), got); diff != "" {
				t.Errorf("%s (-reference +Parse):\n%s", path, diff)
			}
			if strings.Contains(text, "=") && len(got) == 0 {
				t.Errorf("%s: no settings read", path)
			}
			for _, s := range got {
				longest = max(longest, len(s.Value))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if units < 100 || continued == 0 {
		t.Fatalf("read %d fixture units, %d with continued lines: the fixtures moved?", units, continued)
	}
	t.Logf("%d fixture units, %d with continued lines, longest value %d bytes", units, continued, longest)
}

// reference reads a unit as systemd.syntax(7) words it, by rewriting the
// text: comments out, lines stripped, each backslash-newline a space; then
// one logical line per line.
func reference(text string) []Setting {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "#") || strings.HasPrefix(l, ";") {
			continue
		}
		lines = append(lines, l)
	}
	joined := strings.Join(lines, "\n")
	// A backslash ending a line after an even run of backslashes.
	joined = regexp.MustCompile(`(^|[^\\])((?:\\\\)*)\\(\n|$)`).ReplaceAllString(joined, "$1$2 ")
	var out []Setting
	section := ""
	for _, l := range strings.Split(joined, "\n") {
		switch {
		case l == "":
		case l[0] == '[':
			if strings.HasSuffix(l, "]") {
				section = l[1 : len(l)-1]
			}
		default:
			if k, v, ok := strings.Cut(l, "="); ok {
				out = append(out, Setting{section, strings.TrimSpace(k), strings.TrimSpace(v)})
			}
		}
	}
	return out
}
