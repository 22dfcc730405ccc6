package hclsyntax

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// nodegen: tests of MaxNestingDepth (nesting.go).

// nested returns open n times, then middle, then close n times.
func nested(open, middle, close string, n int) string {
	return strings.Repeat(open, n) + middle + strings.Repeat(close, n)
}

// nestingCases are configuration files nesting n levels deep, one of each
// kind of nesting.
var nestingCases = []struct {
	name string
	file func(n int) string
}{
	{"parentheses", func(n int) string { return "x = " + nested("(", "1", ")", n) + "\n" }},
	{"lists", func(n int) string { return "x = " + nested("[", "1", "]", n) + "\n" }},
	{"objects", func(n int) string { return "x = " + nested("{a = ", "1", "}", n) + "\n" }},
	{"calls", func(n int) string { return "x = " + nested("f(", "1", ")", n) + "\n" }},
	{"templates", func(n int) string { return "x = " + nested(`"${`, "1", `}"`, n) + "\n" }},
	{"template if", func(n int) string { return "x = \"" + nested("%{if true}", "y", "%{endif}", n) + "\"\n" }},
	{"template for", func(n int) string { return "x = \"" + nested("%{for v in l}", "y", "%{endfor}", n) + "\"\n" }},
	{"heredoc directives", func(n int) string {
		return "x = <<EOT\n" + nested("%{if true}\n", "y\n", "%{endif}\n", n) + "EOT\n"
	}},
	{"for expressions", func(n int) string { return "x = " + nested("[for v in ", "l", " : v]", n) + "\n" }},
	{"conditionals", func(n int) string { return "x = " + strings.Repeat("c ? 1 : ", n) + "2\n" }},
	{"negation", func(n int) string { return "x = " + strings.Repeat("-", n) + "1\n" }},
	{"not", func(n int) string { return "x = " + strings.Repeat("!", n) + "true\n" }},
	{"operators", func(n int) string { return "x = 1" + strings.Repeat(" + 1", n) + "\n" }},
	{"index keys", func(n int) string { return "x = " + nested("a[", "0", "]", n) + "\n" }},
	{"indexes", func(n int) string { return "x = a" + strings.Repeat("[b]", n) + "\n" }},
	{"splats", func(n int) string { return "x = a" + strings.Repeat("[*]", n) + "\n" }},
	{"blocks", func(n int) string { return nested("b {\n", "x = 1\n", "}\n", n) }},
}

// TestNestingWithinLimit parses each kind of nesting at a depth well within
// MaxNestingDepth (some count two levels a step: an index key is an
// expression and an index) and far deeper than real configuration, without
// errors.
func TestNestingWithinLimit(t *testing.T) {
	for _, c := range nestingCases {
		t.Run(c.name, func(t *testing.T) {
			_, diags := ParseConfig([]byte(c.file(MaxNestingDepth/4)), "deep.hcl", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatalf("unexpected errors: %v", diags)
			}
		})
	}
}

// TestNestingTooDeep parses each kind of nesting 100,000 levels deep (which
// upstream's parser turned into a fatal stack overflow) and wants one error,
// "nesting too deep", at the first token past the limit.
func TestNestingTooDeep(t *testing.T) {
	for _, c := range nestingCases {
		t.Run(c.name, func(t *testing.T) {
			src := c.file(100000)
			_, diags := ParseConfig([]byte(src), "deep.hcl", hcl.InitialPos)
			if len(diags) != 1 || diags[0].Summary != nestingTooDeep {
				if len(diags) > 3 {
					diags = diags[:3]
				}
				t.Fatalf("want one %q error, got %v", nestingTooDeep, diags)
			}
			if s := diags[0].Subject; s == nil || s.Filename != "deep.hcl" || s.Start.Byte < MaxNestingDepth/2 || s.Start.Byte > len(src)/2 {
				t.Errorf("error at %v, want a place in the first half of the file", s)
			}
		})
	}
}

// TestNestingTooDeepStandalone checks the limit where expressions and
// templates are parsed on their own.
func TestNestingTooDeepStandalone(t *testing.T) {
	deep := nested("(", "1", ")", 100000)
	if _, diags := ParseExpression([]byte(deep), "expr", hcl.InitialPos); len(diags) != 1 || diags[0].Summary != nestingTooDeep {
		t.Errorf("ParseExpression: want one %q error, got %d: %.3v", nestingTooDeep, len(diags), diags)
	}
	tmpl := nested("%{if true}", "${"+deep+"}", "%{endif}", 10)
	if _, diags := ParseTemplate([]byte(tmpl), "tmpl", hcl.InitialPos); len(diags) != 1 || diags[0].Summary != nestingTooDeep {
		t.Errorf("ParseTemplate: want one %q error, got %d: %.3v", nestingTooDeep, len(diags), diags)
	}
	tmpl = nested("%{if true}", "x", "%{endif}", 100000)
	if _, diags := ParseTemplate([]byte(tmpl), "tmpl", hcl.InitialPos); len(diags) != 1 || diags[0].Summary != nestingTooDeep {
		t.Errorf("ParseTemplate of directives: want one %q error, got %d: %.3v", nestingTooDeep, len(diags), diags)
	}
}
