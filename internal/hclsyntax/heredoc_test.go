package hclsyntax

import (
	"runtime"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// nodegen: tests of the changes to heredoc parsing (README.md).

// TestHeredocAllocationLinear parses heredocs of 10,000 and 20,000 lines
// and wants twice the lines to take about twice the allocation, not four
// times: upstream's parser joined the lines pairwise, and took 77 GB for
// 40,000 lines. Counting bytes rather than timing keeps the test
// deterministic.
func TestHeredocAllocationLinear(t *testing.T) {
	line := "a line of a long heredoc, with some text\n"
	for _, c := range []struct{ name, open, prefix, close string }{
		{"heredoc", "<<EOT", "", "EOT"},
		{"indented heredoc", "<<-EOT", "  ", "  EOT"},
		{"heredoc with interpolations", "<<EOT", "${x} ", "EOT"},
	} {
		t.Run(c.name, func(t *testing.T) {
			alloc := func(lines int) uint64 {
				src := []byte("x = " + c.open + "\n" + strings.Repeat(c.prefix+line, lines) + c.close + "\n")
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				_, diags := ParseConfig(src, "heredoc.hcl", hcl.InitialPos)
				runtime.ReadMemStats(&after)
				if diags.HasErrors() {
					t.Fatal(diags)
				}
				return after.TotalAlloc - before.TotalAlloc
			}
			small, large := alloc(10000), alloc(20000)
			if large > small*5/2 {
				t.Errorf("10,000 lines allocated %d bytes, 20,000 lines %d: want about twice as much", small, large)
			}
		})
	}
}

// TestHeredocCRLF wants the text of a heredoc in a file with CRLF line
// endings to have "\n" line endings, as in the same file with LF endings.
func TestHeredocCRLF(t *testing.T) {
	for _, c := range []struct {
		src  string
		want string
	}{
		{"x = <<EOT\r\nfoo\r\nbar\r\nEOT\r\n", "foo\nbar\n"},
		{"x = <<-EOT\r\n    foo\r\n      bar\r\n\r\n    EOT\r\n", "foo\n  bar\n\n"},
		{"x = <<EOT\r\n${\"a\"}\r\nb%{if true} c%{endif}\r\nEOT\r\n", "a\nb c\n"},
		{"x = \"a\\r\\nb\"\r\n", "a\r\nb"}, // escapes are kept
	} {
		f, diags := ParseConfig([]byte(c.src), "crlf.hcl", hcl.InitialPos)
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
