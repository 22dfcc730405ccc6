package eval_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/options"
)

// sharedChain is 40 locals, each an object of two references to the one
// before: a value of 41 nodes that is a tree of 2^40 (N9).
func sharedChain() string {
	var b strings.Builder
	b.WriteString("locals {\n  l0 = {}\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "  l%d = { a = local.l%d, b = local.l%d }\n", i, i-1, i-1)
	}
	b.WriteString("}\n")
	return b.String()
}

// TestSharedValues feeds each walker of whole values a value that shares
// itself (N9): each ends, by the limits of sizes (not the clock), in a
// located limit error or in a value, and no limit's error is reported
// twice (N20).
func TestSharedValues(t *testing.T) {
	dbl := "function \"dbl\" {\n  params = [o, n]\n  result = n == 0 ? o : dbl({ a = o, b = o }, n - 1)\n}\n"
	tests := []struct {
		name string
		typ  string // the option's type
		src  string
		want eval.Limit // 0: a value
	}{
		// the check that no function value hides in a call's arguments
		{"a library call's arguments", "anything", sharedChain() + "config { out = jsonencode(local.l40) }", eval.LimitElements},
		{"a module function's result", "anything", dbl + "config { out = jsonencode(dbl({}, 40)) }", eval.LimitElements},
		// cty's walks: Equals, conversion of arguments
		{"equality", "bool", sharedChain() + "config { out = local.l40 == local.l40 }", eval.LimitElements},
		{"contains", "bool", sharedChain() + "config { out = contains([local.l40], local.l40) }", eval.LimitElements},
		{"a conversion", "number", sharedChain() + "config { out = length(tomap(local.l40)) }", eval.LimitElements},
		{"flatten", "number", sharedChain() + "config { out = length(flatten([local.l40])) }", eval.LimitElements},
		{"yamlencode", "str", sharedChain() + "config { out = yamlencode(local.l40) }", eval.LimitElements},
		// a for expression looks at the top only
		{"a for expression", "number", sharedChain() + "config { out = length([for k, v in local.l40 : k]) }", 0},
		// anything's merge, attribute by attribute
		{"anything's merge", "anything", sharedChain() + "config { out = local.l40 }", eval.LimitAllocation},
		{"attrsOf's merge", "attrsOf(anything)", sharedChain() + "config { out = local.l40 }", eval.LimitAllocation},
		// the type walks (NeedsDeep, typeContains) of a value that is
		// only looked at: its length
		{"a value's type", "number", sharedChain() + "config { out = length(local.l40) }", 0},
		// anything's merge of a list: a value taken whole (plain:
		// normalize, findProperty; WhollyKnown), then written (JSON)
		{"a list of anything", "anything", sharedChain() + "config { out = [local.l40] }", 0},
		{"attrs", "attrs", sharedChain() + "config { out = { x = local.l40 } }", 0},
		{"a function's argument", "bool", sharedChain() + "config { out = can(local.l40) }", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "option \"out\" { type = " + tt.typ + " }\n" + tt.src
			fsys := fstest.MapFS{"main.hcl": &fstest.MapFile{Data: []byte(src)}}
			// An hour: the limits of sizes, not the clock, must end
			// each walk (one that only the clock would stop hangs the
			// test until its timeout).
			ev, diags := eval.New(eval.Config{FS: fsys, Files: []string{"main.hcl"}, Limits: eval.Limits{Time: time.Hour}})
			if !diags.HasErrors() {
				_, diags = ev.Get(options.Path{"out"})
			}
			diags = eval.Dedupe(diags)
			var limited []*hcl.Diagnostic
			for _, d := range diags {
				if eval.LimitOf(d) != 0 {
					limited = append(limited, d)
				}
			}
			if tt.want == 0 {
				if diags.HasErrors() {
					t.Fatalf("errors: %v", diags)
				}
				// Written out, the value is 2^40 values: an error.
				v, _ := ev.Get(options.Path{"out"})
				if _, err := eval.JSON(v); tt.typ != "bool" && tt.typ != "number" && (err == nil || !strings.Contains(err.Error(), "many times over")) {
					t.Errorf("JSON: %v, want an error that the value holds more than %d values", err, eval.MaxJSONValues)
				}
				return
			}
			if len(limited) != 1 || eval.LimitOf(limited[0]) != tt.want {
				t.Fatalf("limit errors %v, want one of limit %v; all: %v", limited, tt.want, diags)
			}
			if s := limited[0].Subject; s == nil || s.Filename != "main.hcl" || s.Start.Line == 0 {
				t.Errorf("the limit's error is not located: %v", limited[0])
			}
		})
	}
}

// sharedUses are what FuzzSharedValues does with a shared value: the
// walkers of whole values (merges, library calls, operators, conversions,
// encoders, for expressions, the output).
var sharedUses = []string{
	"V", "[V]", "{ x = V }", "jsonencode(V)", "yamlencode(V)", "V == V", "V != null",
	"contains([V], V)", "length(flatten([V]))", "keys(merge(V, {}))", "tomap(V)",
	"[for k, v in V : k]", "can(V.a)", "try(V.a.b, 1)", "lookup(V, \"a\", null)",
	"{ for k, v in V : k => v }", "setunion([V], [V])", "tostring(V)", "sha256(jsonencode(V))",
}

// sharedTypes are the types of the option that takes the result.
var sharedTypes = []string{"anything", "attrs", "attrsOf(anything)", "listOf(anything)", "nullOr(anything)", "str", "bool"}

// FuzzSharedValues gives the walkers a value that shares itself (a chain
// of up to 60 objects of two or three references to the one before,
// built by locals or by a module's function) and checks that each ends,
// bounded by the limits of sizes alone (not the clock), without a panic.
func FuzzSharedValues(f *testing.F) {
	for use := range sharedUses {
		f.Add(uint8(40), uint8(use), uint8(0), false)
	}
	f.Add(uint8(60), uint8(0), uint8(2), true)
	f.Fuzz(func(t *testing.T, depth, use, typ uint8, viaFunction bool) {
		n := int(depth % 61)
		var b strings.Builder
		fmt.Fprintf(&b, "option \"out\" { type = %s }\n", sharedTypes[int(typ)%len(sharedTypes)])
		v := fmt.Sprintf("local.l%d", n)
		if viaFunction {
			b.WriteString("function \"dbl\" {\n  params = [o, n]\n  result = n == 0 ? o : dbl({ a = o, b = o, c = [o] }, n - 1)\n}\n")
			v = fmt.Sprintf("dbl({}, %d)", n)
		} else {
			b.WriteString("locals {\n  l0 = { x = 1 }\n")
			for i := 1; i <= n; i++ {
				fmt.Fprintf(&b, "  l%d = { a = local.l%d, b = local.l%d, c = [local.l%d] }\n", i, i-1, i-1, i-1)
			}
			b.WriteString("}\n")
		}
		fmt.Fprintf(&b, "config { out = %s }\n", strings.ReplaceAll(sharedUses[int(use)%len(sharedUses)], "V", v))
		fsys := fstest.MapFS{"main.hcl": &fstest.MapFile{Data: []byte(b.String())}}
		// No time limit: the limits of sizes must bound every walk of
		// the shared value, whatever the machine's speed (a walk that
		// only the clock would stop hangs the test, which its timeout
		// reports).
		limits := fuzzLimits
		limits.Time = time.Hour
		ev, diags := eval.New(eval.Config{FS: fsys, Files: []string{"main.hcl"}, Limits: limits})
		if !diags.HasErrors() {
			var out cty.Value
			out, diags = ev.Get(options.Path{"out"})
			if !diags.HasErrors() {
				// JSON refuses a value of too many values at all
				// depths with an error of its own: it ends either way.
				eval.JSON(out)
			}
		}
	})
}

// TestFunctionLimitErrorsOnce (N20): the depth error of a chain that
// foldl builds and the limit error of a branching recursion are each
// reported once; calls count toward the allocation limit. The branching
// recursion's one error is the allocation limit's, or the time limit's on
// a machine loaded enough that its second passes first: no test here
// depends on the machine's speed.
func TestFunctionLimitErrorsOnce(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		limits eval.Limits
		want   eval.Limit
		// or is a limit that may come first instead of want, on a
		// machine slow enough: the test is that one error is reported.
		or eval.Limit
	}{
		{"a chain foldl builds", `function "cons" {
  params = [acc, x]
  result = { next = acc, v = x }
}
function "depth" {
  params = [l]
  result = l == null ? 0 : 1 + depth(l.next)
}
locals {
  big = flatten([for i in range(20) : [for j in range(1000) : j]])
}
config { out = depth(foldl(local.big, null, fn.cons)) }
`, eval.Limits{Allocation: 4 << 30}, eval.LimitDepth, 0},
		{"a branching recursion", `function "f" {
  params = [n, s]
  result = n < 1 ? length(s) : f(n - 1, "${s}x") + f(n - 1, "${s}y")
}
config { out = f(40, "") }
`, eval.Limits{Time: time.Second}, eval.LimitAllocation, eval.LimitTime},
		// Each call's frame counts toward the allocation limit.
		{"fib(30)", `function "fib" {
  params = [n]
  result = n < 2 ? n : fib(n - 1) + fib(n - 2)
}
config { out = fib(30) }
`, eval.Limits{}, eval.LimitAllocation, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "option \"out\" { type = anything }\n" + tt.src
			fsys := fstest.MapFS{"main.hcl": &fstest.MapFile{Data: []byte(src)}}
			ev, diags := eval.New(eval.Config{FS: fsys, Files: []string{"main.hcl"}, Limits: tt.limits})
			if !diags.HasErrors() {
				_, diags = ev.Get(options.Path{"out"})
			}
			var got []string
			var limits []eval.Limit
			for _, d := range eval.Dedupe(diags) {
				if l := eval.LimitOf(d); l != 0 {
					got = append(got, d.Error())
					limits = append(limits, l)
				}
			}
			if len(got) != 1 || (limits[0] != tt.want && (tt.or == 0 || limits[0] != tt.or)) {
				t.Errorf("errors of limits %v, want one of %v: %q", limits, tt.want, got)
			}
		})
	}
}
