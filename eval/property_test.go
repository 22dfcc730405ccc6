package eval_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// TestPropertyUses feeds every special form, well and badly formed,
// through the four places that discharge properties: merging an option
// (a definition of x), splitting a definition over a namespace (of ns,
// read at ns.a), options.x.isDefined, and `nodegen option` (Explain of x,
// and of an option inside a submodule instance, whose definitions above
// the instance are walked by path). Each must give the same answer: the
// value 1, "undefined" (a false mkIf), or the same error message, with the
// option's path written PATH.
func TestPropertyUses(t *testing.T) {
	const undefined = "undefined"
	cases := []struct {
		form string // V stands for the value: 1, or an object holding it
		want string
		// isDefined, when not empty, is isDefined's answer where it must
		// differ: it evaluates conditions, never values, so an error
		// inside mkOverride or mkOrder (met when the value is read) is no
		// concern of it, as in NixOS.
		isDefined string
	}{
		{form: "V", want: "1"},
		{form: "mkIf(true, V)", want: "1"},
		{form: "mkIf(false, V)", want: undefined},
		{form: "mkIf(!true, V)", want: undefined},
		{form: "mkMerge([V])", want: "1"},
		{form: "mkMerge([mkIf(false, V), mkIf(true, V)])", want: "1"},
		{form: "mkMerge([mkIf(false, V)])", want: undefined},
		{form: "mkMerge([])", want: undefined},
		{form: "mkMerge([mkMerge([V])])", want: "1"},
		{form: "mkOverride(10, V)", want: "1"},
		{form: "mkForce(V)", want: "1"},
		{form: "mkDefault(V)", want: "1"},
		{form: "mkOptionDefault(V)", want: "1"},
		{form: "mkOrder(10, V)", want: "1"},
		{form: "mkBefore(V)", want: "1"},
		{form: "mkAfter(V)", want: "1"},
		{form: "mkIf(true, mkForce(mkBefore(V)))", want: "1"},
		{form: "mkIf(false, mkForce(V))", want: undefined},

		{form: "mkIf(1, V)", want: `mkIf called with a non-boolean condition: In a definition of option "PATH", the condition of mkIf is 1; it must be true or false.`},
		{form: "mkIf(null, V)", want: `mkIf called with a non-boolean condition: In a definition of option "PATH", the condition of mkIf is null; it must be true or false.`},
		{form: `mkIf("yes", V)`, want: `mkIf called with a non-boolean condition: In a definition of option "PATH", the condition of mkIf is "yes"; it must be true or false.`},
		{form: "mkMerge([mkIf(1, V)])", want: `mkIf called with a non-boolean condition: In a definition of option "PATH", the condition of mkIf is 1; it must be true or false.`},
		{form: "mkMerge(5)", want: `mkMerge called with a non-list argument: In a definition of option "PATH", mkMerge takes a list of definitions, but it was given 5.`},
		{form: `mkMerge("one")`, want: `mkMerge called with a non-list argument: In a definition of option "PATH", mkMerge takes a list of definitions, but it was given "one".`},
		{form: "mkMerge(null)", want: `mkMerge called with a non-list argument: In a definition of option "PATH", mkMerge takes a list of definitions, but it was given null.`},
		{form: "mkIf(true)", want: "Wrong number of arguments: mkIf takes 2 argument(s)."},
		{form: "mkMerge()", want: "Wrong number of arguments: mkMerge takes 1 argument(s)."},
		{form: "mkForce(V, V)", want: "Wrong number of arguments: mkForce takes 1 argument(s)."},
		{form: "mkBefore()", want: "Wrong number of arguments: mkBefore takes 1 argument(s)."},
		{form: `mkOverride("high", V)`, want: "Invalid priority: A priority or order must be a whole number."},
		{form: "mkOrder(1.5, V)", want: "Invalid priority: A priority or order must be a whole number."},
		{form: "mkForce(mkIf(true, V))", isDefined: "true", want: `mkIf cannot be used inside mkOverride: In this definition of option "PATH", mkIf is inside mkOverride. Properties nest in this order, as in NixOS: mkMerge and mkIf outside, then mkOverride (mkForce, mkDefault, mkOptionDefault), then mkOrder (mkBefore, mkAfter), each at most once. Move the mkIf outside the mkOverride, as in mkIf(c, mkForce(mkBefore(v))).`},
		{form: "mkBefore(mkForce(V))", isDefined: "true", want: `mkOverride cannot be used inside mkOrder: In this definition of option "PATH", mkOverride is inside mkOrder. Properties nest in this order, as in NixOS: mkMerge and mkIf outside, then mkOverride (mkForce, mkDefault, mkOptionDefault), then mkOrder (mkBefore, mkAfter), each at most once. Move the mkOverride outside the mkOrder, as in mkIf(c, mkForce(mkBefore(v))).`},
	}
	for _, c := range cases {
		t.Run(c.form, func(t *testing.T) {
			at := func(v string) string { return strings.ReplaceAll(c.form, "V", v) }
			uses := []struct {
				name, module, path string
				answer             func(*eval.Evaluator, options.Path) (string, hcl.Diagnostics)
			}{
				{"merge", "option \"x\" { type = int }\nconfig {\n  x = " + at("1") + "\n}\n", "x", getAnswer},
				{"split", "options \"ns\" {\n  option \"a\" { type = int }\n}\nconfig {\n  ns = " + at("{ a = 1 }") + "\n}\n", "ns.a", getAnswer},
				{"isDefined", "option \"x\" { type = int }\noption \"d\" { type = bool }\nconfig {\n  x = " + at("1") + "\n}\nconfig {\n  d = options.x.isDefined\n}\n", "d", isDefinedAnswer},
				{"explain", "option \"x\" { type = int }\nconfig {\n  x = " + at("1") + "\n}\n", "x", explainAnswer},
				{"explain inside an instance", "submodule \"s\" {\n  option \"v\" { type = int }\n  option \"w\" { type = int }\n}\noption \"sub\" { type = attrsOf(submodule.s) }\nconfig {\n  sub = { e = " + at("{ v = 1 }") + " }\n}\nconfig \"sub\" {\n  e = mkOverride(9999, { w = 0 })\n}\n", "sub.e.v", explainAnswer},
			}
			for _, u := range uses {
				ev, diags := eval.New(eval.Config{FS: fstest.MapFS{"main.hcl": {Data: []byte(u.module)}}, Files: []string{"main.hcl"}})
				got := ""
				if !diags.HasErrors() {
					p, err := options.ParsePath(u.path)
					if err != nil {
						t.Fatal(err)
					}
					got, diags = u.answer(ev, p)
				}
				if diags.HasErrors() {
					got = firstError(diags)
				}
				want := c.want
				if u.name == "isDefined" && c.isDefined != "" {
					want = c.isDefined
				} else if u.name == "isDefined" && !strings.Contains(want, ":") {
					want = fmt.Sprint(want == "1")
				}
				if got != want {
					t.Errorf("%s (of %s):\n got: %s\nwant: %s", u.name, u.module, got, want)
				}
			}
		})
	}
}

// firstError is the first error, "Summary: Detail", with the option paths
// of the cases written PATH.
func firstError(diags hcl.Diagnostics) string {
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			s := d.Summary + ": " + d.Detail
			for _, p := range []string{`"ns.a"`, `"ns"`, `"sub.e.v"`, `"sub.e"`, `"sub"`, `"x"`} {
				s = strings.ReplaceAll(s, p, `"PATH"`)
			}
			return s
		}
	}
	return ""
}

// getAnswer reads the option's value: "undefined" when it has none.
func getAnswer(ev *eval.Evaluator, p options.Path) (string, hcl.Diagnostics) {
	v, diags := ev.Get(p)
	var others hcl.Diagnostics
	for _, d := range diags {
		if !strings.Contains(d.Summary, "is used but not defined") {
			others = append(others, d)
		}
	}
	if others.HasErrors() {
		return "", others
	}
	if diags.HasErrors() {
		return "undefined", nil
	}
	return fmt.Sprint(eval.GoValue(v)), diags
}

// isDefinedAnswer reads options.x.isDefined, through the option d.
func isDefinedAnswer(ev *eval.Evaluator, p options.Path) (string, hcl.Diagnostics) {
	v, diags := ev.Get(p)
	if diags.HasErrors() {
		return "", diags
	}
	return fmt.Sprint(eval.GoValue(v)), diags
}

// explainAnswer is what `nodegen option` says: the value, or "undefined"
// when the option has none (and then its definitions are shown disabled).
func explainAnswer(ev *eval.Evaluator, p options.Path) (string, hcl.Diagnostics) {
	x, diags := ev.Explain(p)
	if diags.HasErrors() || x == nil {
		return "", diags
	}
	disabled := 0
	for _, d := range x.Definitions {
		if d.State == property.Disabled {
			disabled++
		}
	}
	switch {
	case x.Defined:
		return fmt.Sprint(eval.GoValue(x.Value)), diags
	case disabled > 0 || len(x.Definitions) == 0:
		return "undefined", diags
	}
	return "undefined, but no definition is shown disabled", diags
}
