package hclsyntax

import (
	"runtime"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// nodegen: tests of the changes to heredoc parsing (README.md).

// TestHeredocAllocationLinear parses heredocs of 10,000 and 40,000 lines
// and wants four times the lines to take about four times the allocation,
// not sixteen: upstream's parser joined the lines pairwise, and took 77 GB for
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
				// Two collections empty the token pool (and its victim
				// cache), so that every parse allocates its tokens.
				runtime.GC()
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				_, diags := ParseConfig(src, "heredoc.hcl", hcl.InitialPos)
				runtime.ReadMemStats(&after)
				if diags.HasErrors() {
					t.Fatal(diags)
				}
				return after.TotalAlloc - before.TotalAlloc
			}
			// Other tests allocate at the same time and only ever add to
			// the count: take the least of three runs, and compare 10,000
			// lines with 40,000, where linear is 4 times and quadratic 16.
			least := func(lines int) uint64 {
				m := alloc(lines)
				for i := 0; i < 2; i++ {
					m = min(m, alloc(lines))
				}
				return m
			}
			small, large := least(10000), least(40000)
			if large > small*8 {
				t.Errorf("10,000 lines allocated %d bytes, 40,000 lines %d: want about four times as much", small, large)
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
