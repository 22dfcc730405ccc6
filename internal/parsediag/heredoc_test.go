package parsediag

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestHeredocCRLF wants the text of a heredoc in a file with CRLF line
// endings to have "\n" line endings, as in the same file with LF endings,
// and everything else as the parser makes it.
func TestHeredocCRLF(t *testing.T) {
	for _, c := range []struct {
		src  string
		want string
	}{
		{"x = <<EOT\r\nfoo\r\nbar\r\nEOT\r\n", "foo\nbar\n"},
		{"x = <<-EOT\r\n    foo\r\n      bar\r\n\r\n    EOT\r\n", "foo\n  bar\n\n"},
		{"x = <<EOT\r\n${\"a\"}\r\nb%{if true} c%{endif}\r\nEOT\r\n", "a\nb c\n"},
		{"x = <<EOT\r\n%{for v in [1, 2]}${v}\r\n%{endfor}\r\nEOT\r\n", "1\n2\n\n"},
		{"x = <<EOT\r\n${\"a\\r\\nb\"}\r\nEOT\r\n", "a\r\nb\n"}, // escapes are kept
		{"x = \"a\\r\\nb\"\r\n", "a\r\nb"},
	} {
		f, diags := Parse([]byte(c.src), "crlf.hcl")
		if diags.HasErrors() {
			t.Errorf("%q: %v", c.src, diags)
			continue
		}
		attrs, _ := f.Body.JustAttributes()
		got, diags := attrs["x"].Expr.Value(nil)
		if diags.HasErrors() || !got.RawEquals(cty.StringVal(c.want)) {
			t.Errorf("%q: got %#v %v, want %q", c.src, got, diags, c.want)
		}
	}
}
