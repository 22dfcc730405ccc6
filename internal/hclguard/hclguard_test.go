package hclguard

import (
	"runtime"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// nested returns open n times, then middle, then close n times.
func nested(open, middle, close string, n int) string {
	return strings.Repeat(open, n) + middle + strings.Repeat(close, n)
}

// nestingCases are configuration files nesting n levels deep, one of each
// kind of nesting, with and without brackets.
var nestingCases = []struct {
	name string
	file func(n int) string
	// invalid is whether the parser refuses the file however shallow.
	invalid bool
}{
	{name: "parentheses", file: func(n int) string { return "x = " + nested("(", "1", ")", n) + "\n" }},
	{name: "lists", file: func(n int) string { return "x = " + nested("[", "1", "]", n) + "\n" }},
	{name: "objects", file: func(n int) string { return "x = " + nested("{a = ", "1", "}", n) + "\n" }},
	{name: "calls", file: func(n int) string { return "x = " + nested("f(", "1", ")", n) + "\n" }},
	{name: "templates", file: func(n int) string { return "x = " + nested(`"${`, "1", `}"`, n) + "\n" }},
	{name: "heredoc templates", file: func(n int) string { return "x = " + nested("<<EOT\n${", "1", "}\nEOT\n", n) }},
	{name: "template if", file: func(n int) string { return "x = \"" + nested("%{if true}", "y", "%{endif}", n) + "\"\n" }},
	{name: "template for", file: func(n int) string { return "x = \"" + nested("%{for v in l}", "y", "%{endfor}", n) + "\"\n" }},
	{name: "template else", file: func(n int) string { return "x = \"" + nested("%{if c}a%{else}", "y", "%{endif}", n) + "\"\n" }},
	{name: "heredoc directives", file: func(n int) string {
		return "x = <<EOT\n" + nested("%{if true}\n", "y\n", "%{endif}\n", n) + "EOT\n"
	}},
	{name: "stripped directives", file: func(n int) string { return "x = \"" + nested("%{~if true~}", "y", "%{~endif~}", n) + "\"\n" }},
	{name: "for expressions", file: func(n int) string { return "x = " + nested("[for v in ", "l", " : v]", n) + "\n" }},
	{name: "conditionals", file: func(n int) string { return "x = " + strings.Repeat("c ? 1 : ", n) + "2\n" }},
	{name: "conditionals in the true branch", file: func(n int) string { return "x = " + nested("c ? ", "1", " : 2", n) + "\n" }},
	{name: "negation", file: func(n int) string { return "x = " + strings.Repeat("-", n) + "1\n" }},
	{name: "spaced negation", file: func(n int) string { return "x = " + strings.Repeat("- ", n) + "1\n" }},
	{name: "not", file: func(n int) string { return "x = " + strings.Repeat("!", n) + "true\n" }},
	{name: "operators", file: func(n int) string { return "x = 1" + strings.Repeat(" + 1", n) + "\n" }},
	{name: "operators across lines", file: func(n int) string { return "x = (1" + strings.Repeat(" +\n1", n) + ")\n" }},
	{name: "index keys", file: func(n int) string { return "x = " + nested("a[", "0", "]", n) + "\n" }},
	{name: "indexes", file: func(n int) string { return "x = a" + strings.Repeat("[b]", n) + "\n" }},
	{name: "attributes", file: func(n int) string { return "x = a" + strings.Repeat(".b", n) + "\n" }},
	{name: "splats", file: func(n int) string { return "x = a" + strings.Repeat("[*]", n) + "\n" }},
	{name: "attribute splats", file: func(n int) string { return "x = a" + strings.Repeat(".*", n) + "\n" }, invalid: true},
	{name: "blocks", file: func(n int) string { return nested("b {\n", "x = 1\n", "}\n", n) }},
}

// TestNestingWithinLimit checks each kind of nesting at a depth well within
// MaxNestingDepth (some count two levels a step: an index key is an index
// and a bracket) and far deeper than real configuration: no error, and
// upstream's parser parses it.
func TestNestingWithinLimit(t *testing.T) {
	for _, c := range nestingCases {
		t.Run(c.name, func(t *testing.T) {
			src := []byte(c.file(MaxNestingDepth / 4))
			if diags := Config(src, "deep.hcl", hcl.InitialPos); len(diags) > 0 {
				t.Fatalf("unexpected errors: %v", diags)
			}
			if _, diags := hclsyntax.ParseConfig(src, "deep.hcl", hcl.InitialPos); diags.HasErrors() != c.invalid {
				t.Fatalf("the parser's errors: %.3v", diags)
			}
		})
	}
}

// TestNestingTooDeep checks each kind of nesting 100,000 levels deep (which
// upstream's parser turns into a fatal stack overflow, or a tree that
// walking it overflows the stack with) and wants one error, "nesting too
// deep", at the first token past the limit.
func TestNestingTooDeep(t *testing.T) {
	for _, c := range nestingCases {
		t.Run(c.name, func(t *testing.T) {
			src := c.file(100000)
			diags := Config([]byte(src), "deep.hcl", hcl.InitialPos)
			wantTooDeep(t, diags)
			if s := diags[0].Subject; s == nil || s.Filename != "deep.hcl" || s.Start.Byte < MaxNestingDepth/2 || s.Start.Byte > len(src)/2 {
				t.Errorf("error at %v, want a place in the first half of the file", s)
			}
		})
	}
}

// TestNestingPlace wants the error at the token that opens level
// MaxNestingDepth+1.
func TestNestingPlace(t *testing.T) {
	src := nested("b {\n", "", "}\n", MaxNestingDepth+1)
	diags := Config([]byte(src), "deep.hcl", hcl.InitialPos)
	wantTooDeep(t, diags)
	if s := diags[0].Subject; s.Start.Line != MaxNestingDepth+1 || s.Start.Column != 3 {
		t.Errorf("error at %v, want line %d column 3", s, MaxNestingDepth+1)
	}
	src = "x = " + strings.Repeat("(", MaxNestingDepth) + "1" + strings.Repeat(")", MaxNestingDepth)
	if diags := Config([]byte(src), "deep.hcl", hcl.InitialPos); len(diags) > 0 {
		t.Errorf("%d levels: %v", MaxNestingDepth, diags)
	}
}

func wantTooDeep(t *testing.T, diags hcl.Diagnostics) {
	t.Helper()
	wantOne[NestingTooDeep](t, diags, "Nesting too deep")
}

// wantOne wants diags to be one error with the summary and an Extra of
// type X.
func wantOne[X any](t *testing.T, diags hcl.Diagnostics, summary string) {
	t.Helper()
	if len(diags) != 1 || diags[0].Summary != summary {
		t.Fatalf("want one %q error, got %.3v", summary, diags)
	}
	if _, ok := hcl.DiagnosticExtra[X](diags[0]); !ok {
		t.Errorf("the error's Extra is %#v, want a %T", diags[0].Extra, *new(X))
	}
}

// TestNestingTooDeepStandalone checks the limit where expressions and
// templates are parsed on their own.
func TestNestingTooDeepStandalone(t *testing.T) {
	deep := nested("(", "1", ")", 100000)
	wantTooDeep(t, Expression([]byte(deep), "expr", hcl.InitialPos))
	wantTooDeep(t, Expression([]byte(strings.Repeat("!", 100000)+"x"), "expr", hcl.InitialPos))
	wantTooDeep(t, Expression([]byte("1"+strings.Repeat("\n+ 1", 100000)), "expr", hcl.InitialPos))
	wantTooDeep(t, Template([]byte(nested("%{if true}", "${"+deep+"}", "%{endif}", 10)), "tmpl", hcl.InitialPos))
	wantTooDeep(t, Template([]byte(nested("%{if true}", "x", "%{endif}", 100000)), "tmpl", hcl.InitialPos))
	if diags := Template([]byte(nested("%{if true}", "${(1)}", "%{endif}", 10)), "tmpl", hcl.InitialPos); len(diags) > 0 {
		t.Errorf("a shallow template: %v", diags)
	}
}

// TestNestingSiblings wants levels that end to be given back: many
// siblings, chains ended by commas, newlines and equals signs, and
// directives that end, are shallow.
func TestNestingSiblings(t *testing.T) {
	for name, src := range map[string]string{
		"blocks":     strings.Repeat("b {\n  x = a.b.c + 1\n}\n", 5000),
		"list":       "x = [" + strings.Repeat("!a.b[0] + 1, ", 5000) + "]\n",
		"object":     "x = {\n" + strings.Repeat("a = -b.c * 2\n", 5000) + "}\n",
		"arguments":  "x = f(" + strings.Repeat("(a.b), ", 5000) + ")\n",
		"directives": "x = <<EOT\n" + strings.Repeat("%{if c}\na\n%{else}\nb\n%{endif}\n", 1000) + "EOT\n",
		"for":        "x = \"" + strings.Repeat("%{for v in l}${v}%{endfor}", 5000) + "\"\n",
		"templates":  "x = [" + strings.Repeat(`"${a ? b : c}", `, 5000) + "]\n",
	} {
		if diags := Config([]byte(src), "wide.hcl", hcl.InitialPos); len(diags) > 0 {
			t.Errorf("%s: %v", name, diags)
		}
	}
}

// heredoc is a configuration file with a heredoc of n lines of line.
func heredoc(n int, line string) string {
	return "x = <<EOT\n" + strings.Repeat(line+"\n", n) + "EOT\n"
}

// TestTemplateLiterals wants MaxTemplateLiterals lines of a heredoc, or
// escapes of a string, in a row to pass, and one more to be one error,
// "template too long", at the token past the limit.
func TestTemplateLiterals(t *testing.T) {
	for _, c := range []struct {
		name string
		file func(n int) string
	}{
		{"heredoc", func(n int) string { return heredoc(n, "a line") }},
		{"indented heredoc", func(n int) string { return "x = <<-EOT\n" + strings.Repeat("  a line\n", n) + "  EOT\n" }},
		{"escapes", func(n int) string { return "x = \"" + strings.Repeat("$${", n) + "\"\n" }},
		{"directive escapes", func(n int) string { return "x = \"" + strings.Repeat("%%{", n) + "\"\n" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			if diags := Config([]byte(c.file(MaxTemplateLiterals)), "t.hcl", hcl.InitialPos); len(diags) > 0 {
				t.Errorf("%d in a row: %v", MaxTemplateLiterals, diags)
			}
			diags := Config([]byte(c.file(MaxTemplateLiterals+1)), "t.hcl", hcl.InitialPos)
			wantTooLong(t, diags)
			if s := diags[0].Subject; c.name == "heredoc" && (s.Start.Line != MaxTemplateLiterals+2 || s.End.Line != s.Start.Line || s.End.Column != 7) {
				t.Errorf("error at %v, want line %d, columns 1 to 7", s, MaxTemplateLiterals+2)
			}
		})
	}
	// An interpolation ends the run: the parser joins literals only.
	src := "x = <<EOT\n" + strings.Repeat(strings.Repeat("a line\n", 1500)+"${x}\n", 3) + "EOT\n"
	if diags := Config([]byte(src), "t.hcl", hcl.InitialPos); len(diags) > 0 {
		t.Errorf("runs ended by interpolations: %v", diags)
	}
}

// TestTemplateWork wants long lines, in one template or in many, to be
// refused by MaxTemplateWork before they take the parser that much work.
func TestTemplateWork(t *testing.T) {
	long := strings.Repeat("x", 64<<10)
	// 200 lines of 64 KiB: joining them copies some 1.3 GB.
	wantTooLong(t, Config([]byte(heredoc(200, long)), "t.hcl", hcl.InitialPos))
	// 40 heredocs of 100 lines of 2 KiB, 10 MiB each.
	src := strings.Repeat(heredoc(100, long[:2<<10]), 40)
	diags := Config([]byte(src), "t.hcl", hcl.InitialPos)
	wantTooLong(t, diags)
	if s := diags[0].Subject; s.Start.Line < 100 {
		t.Errorf("error at %v, want a later heredoc's start", s)
	}
	// Many interpolations after the joined lines: every join shifts them.
	src = "x = <<EOT\n" + strings.Repeat("a\n", MaxTemplateLiterals) + strings.Repeat("${x}", 1<<16) + "\nEOT\n"
	wantTooLong(t, Config([]byte(src), "t.hcl", hcl.InitialPos))
}

func wantTooLong(t *testing.T, diags hcl.Diagnostics) {
	t.Helper()
	wantOne[TemplateTooLong](t, diags, "Template too long")
}

// TestTemplateWorstCase parses, with upstream's parser, templates as long
// as the limits let through, and wants them to allocate well under 1 GiB:
// the most lines in a row with the longest lines that MaxTemplateWork
// lets through, and the most escapes in a row in a string.
func TestTemplateWorstCase(t *testing.T) {
	if testing.Short() {
		t.Skip("parses a heredoc of 2000 long lines")
	}
	// Joining n lines of b bytes copies about b*n*n/2 bytes, and shifts
	// the n parts after them about n*n/2 times.
	b := 2*MaxTemplateWork/(MaxTemplateLiterals*MaxTemplateLiterals) - shiftCost - 1
	for name, src := range map[string]string{
		"heredoc": heredoc(MaxTemplateLiterals-1, strings.Repeat("x", b-2)),
		"escapes": "x = \"" + strings.Repeat("$${", MaxTemplateLiterals) + "\"\n",
	} {
		if diags := Config([]byte(src), "t.hcl", hcl.InitialPos); len(diags) > 0 {
			t.Fatalf("%s: %v", name, diags)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, diags := hclsyntax.ParseConfig([]byte(src), "t.hcl", hcl.InitialPos); diags.HasErrors() {
			t.Fatal(diags)
		}
		runtime.ReadMemStats(&after)
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s: %d bytes of source, %d MB allocated", name, len(src), alloc>>20)
		if alloc > 1<<30 {
			t.Errorf("%s: parsing allocated %d MB", name, alloc>>20)
		}
	}
}

// TestWithinLimitsIsABound checks the byte count that spares most files
// the lexing: wherever the check on the tokens finds a limit passed, near
// each limit and for each kind of nesting and template, withinLimits must
// not say the file is within them.
func TestWithinLimitsIsABound(t *testing.T) {
	var srcs []string
	for _, c := range nestingCases {
		// Some kinds count two levels a step: near half the limit too.
		for _, near := range []int{MaxNestingDepth / 2, MaxNestingDepth} {
			for n := near - 3; n <= near+3; n++ {
				srcs = append(srcs, c.file(n))
			}
		}
	}
	for n := MaxTemplateLiterals - 3; n <= MaxTemplateLiterals+3; n++ {
		srcs = append(srcs, heredoc(n, "a"), "x = \""+strings.Repeat("$${", n)+"\"\n",
			"x = \""+strings.Repeat("a%", n)+"\"\n", "x = <<EOT\r\n"+strings.Repeat("a\r\n", n)+"EOT\r\n")
	}
	srcs = append(srcs, heredoc(1000, strings.Repeat("x", 200)), heredoc(300, strings.Repeat("x", 4000)))
	refused, spared := 0, 0
	for _, src := range srcs {
		toks, _ := hclsyntax.LexConfig([]byte(src), "t.hcl", hcl.InitialPos)
		diags := check(toks, frameBody)
		within := withinLimits([]byte(src))
		if len(diags) > 0 {
			refused++
			if within {
				t.Errorf("withinLimits says yes to a file the check refuses (%s): %.60q", diags[0].Summary, src)
			}
		} else if within {
			spared++
		}
	}
	if refused == 0 || spared == 0 {
		t.Errorf("%d files refused, %d spared the lexing: want some of each", refused, spared)
	}
}
