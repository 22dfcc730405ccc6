package hclfmt

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{
			name: "aligned equals",
			in:   "option \"a\" {\n  type = str\n  default = \"x\"\n  description = \"d\"\n}\n",
			want: "option \"a\" {\n  type        = str\n  default     = \"x\"\n  description = \"d\"\n}\n",
		},
		{
			name: "indentation by nesting, tabs and odd spaces",
			in:   "config {\n\ta = {\n        b = 1\n   }\n}\n",
			want: "config {\n  a = {\n    b = 1\n  }\n}\n",
		},
		{
			name: "spaces around operators and in calls",
			in:   "a = upper( \"x\" )\nb = 1+2\nc = [1,2]\n",
			want: "a = upper(\"x\")\nb = 1 + 2\nc = [1, 2]\n",
		},
		{
			name: "trailing white space",
			in:   "a = 1   \n# note   \nb = 2\t\n",
			want: "a = 1\n# note\nb = 2\n",
		},
		{
			name: "runs of blank lines, blank lines at the ends",
			in:   "\n\n\na = 1\n\n\n\nb = 2\n\n\n",
			want: "a = 1\n\nb = 2\n",
		},
		{
			name: "a missing final newline",
			in:   "a = 1",
			want: "a = 1\n",
		},
		{
			name: "CRLF",
			in:   "a = 1\r\nb = 2\r\n",
			want: "a = 1\nb = 2\n",
		},
		{
			name: "heredoc bodies are kept",
			in:   "a = <<-EOT\n   x   \n\n\n\n\tindented\nEOT\nb  = 1\n",
			want: "a = <<-EOT\n   x   \n\n\n\n\tindented\nEOT\nb = 1\n",
		},
		{
			name: "a closing bracket that opens again",
			in:   "x = merge([\n  for n in [\n    \"a\",\n    ] : {\n      (n) = 1\n    }\n]...)\n",
			want: "x = merge([\n  for n in [\n    \"a\",\n  ] : {\n    (n) = 1\n  }\n]...)\n",
		},
		{
			name: "a for expression's in and if keep their space before a parenthesis",
			in:   "a = [for x in (b) : x if (x)]\nc = {for k, v in(d) : k => v}\ne = [for x in f(b) : g(x)]\n",
			want: "a = [for x in (b) : x if (x)]\nc = { for k, v in (d) : k => v }\ne = [for x in f(b) : g(x)]\n",
		},
		{
			name: "empty",
			in:   "\n\n",
			want: "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, diags := Format([]byte(tt.in), "in.hcl")
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("Format (-want +got):\n%s", diff)
			}
			again, _ := Format(got, "in.hcl")
			if diff := cmp.Diff(string(got), string(again)); diff != "" {
				t.Errorf("Format is not idempotent (-first +second):\n%s", diff)
			}
		})
	}
}

func TestFormatSyntaxError(t *testing.T) {
	out, diags := Format([]byte("a = = 1\n"), "bad.hcl")
	if !diags.HasErrors() || out != nil {
		t.Fatalf("got %q, %v; want no output and an error", out, diags)
	}
	if diags[0].Subject == nil || diags[0].Subject.Filename != "bad.hcl" {
		t.Errorf("the error does not name bad.hcl: %v", diags[0].Subject)
	}
}

// TestRepositoryFiles formats every .hcl file of the repository: the
// result parses, and formatting it again changes nothing.
func TestRepositoryFiles(t *testing.T) {
	n := 0
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".hcl") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		once, diags := Format(src, p)
		if diags.HasErrors() {
			return nil // a file that is broken on purpose
		}
		n++
		twice, diags := Format(once, p)
		if diags.HasErrors() {
			t.Errorf("%s: the formatted file does not parse: %s", p, diags.Error())
			return nil
		}
		if diff := cmp.Diff(string(once), string(twice)); diff != "" {
			t.Errorf("%s: formatting is not idempotent (-first +second):\n%s", p, diff)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no .hcl files found")
	}
}
