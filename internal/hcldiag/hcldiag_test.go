package hcldiag_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/internal/hcldiag"
	"github.com/nodegen/nodegen/internal/parsediag"
)

// TestParse checks the rewritten errors of both readers of nodegen files:
// hcldiag.Parse (for hclfmt) and parsediag.Parse (for evaluation, with
// hclguard's checks and the heredocs' line endings), which must read the
// same.
func TestParse(t *testing.T) {
	parsers := []struct {
		name  string
		parse func([]byte, string) (*hcl.File, hcl.Diagnostics)
	}{
		{"upstream", hcldiag.Parse},
		{"nodegen", parsediag.Parse},
	}
	tests := []struct {
		name string
		src  string
		// want is each error as "summary @ line:col", in order.
		want []string
		// detail is a part of the last error's detail.
		detail string
	}{
		{name: "valid", src: "config \"a\" {\n  b = \"c\"\n}\n"},
		{
			name:   "unterminated string, more strings after it",
			src:    "config \"a\" {\n  b = \"c\n  d = \"e\"\n}\nconfig \"f\" {\n  g = \"h\"\n}\n",
			want:   []string{"Unterminated string @ 2:7"},
			detail: "no closing quote",
		},
		{
			name:   "an error before the string is kept",
			src:    "config \"a\" {\n  b = = 1\n}\nconfig \"f\" {\n  g = \"h\n}\n",
			want:   []string{"Invalid expression @ 2:7", "Unterminated string @ 5:7"},
			detail: "add the closing quote",
		},
		{
			name:   "unterminated heredoc",
			src:    "config \"a\" {\n  b = <<EOT\nline\n}\n",
			want:   []string{"Unterminated heredoc @ 2:7"},
			detail: "a line holding only EOT",
		},
		{
			name:   "unterminated indented heredoc, CRLF",
			src:    "config \"a\" {\r\n  b = <<-END\r\nline\r\n}\r\n",
			want:   []string{"Unterminated heredoc @ 2:7"},
			detail: "only END",
		},
		{
			name:   "quoted name in a config body",
			src:    "config \"boot.kernel.sysctl\" {\n  \"net.core.somaxconn\" = 4096\n}\n",
			want:   []string{"Invalid argument name @ 2:3"},
			detail: "  config \"boot.kernel\" {\n    sysctl = { \"net.core.somaxconn\" = 4096 }\n  }",
		},
		{
			name:   "quoted name in a top-level config",
			src:    "config {\n  \"a.b\" = 1\n}\n",
			want:   []string{"Invalid argument name @ 2:3"},
			detail: "in an object constructor",
		},
	}
	for _, p := range parsers {
		for _, tt := range tests {
			t.Run(p.name+"/"+tt.name, func(t *testing.T) {
				_, diags := p.parse([]byte(tt.src), "f.hcl")
				var got []string
				for _, d := range diags {
					pos := "?"
					if d.Subject != nil {
						pos = fmt.Sprintf("%d:%d", d.Subject.Start.Line, d.Subject.Start.Column)
					}
					got = append(got, d.Summary+" @ "+pos)
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Fatalf("errors (-want +got):\n%s", diff)
				}
				if tt.detail != "" && !strings.Contains(diags[len(diags)-1].Detail, tt.detail) {
					t.Errorf("detail %q does not contain %q", diags[len(diags)-1].Detail, tt.detail)
				}
			})
		}
	}
}
