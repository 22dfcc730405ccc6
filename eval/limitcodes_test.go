package eval_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/options"
)

// TestLimitCodes checks that an evaluation over each limit ends in an
// error that carries that limit's code (eval.LimitOf), whatever its
// wording.
func TestLimitCodes(t *testing.T) {
	const opt = "option \"a\" { type = anything }\n"
	tests := []struct {
		name   string
		files  map[string]string
		limits eval.Limits
		want   eval.Limit
	}{
		{"depth", map[string]string{"main.hcl": opt + "locals {\n  l0 = 1\n" + chain(50) + "}\nconfig { a = local.l50 }"}, eval.Limits{Depth: 10}, eval.LimitDepth},
		{"elements", map[string]string{"main.hcl": opt + "config { a = [for i in range(100) : i] }"}, eval.Limits{Elements: 10}, eval.LimitElements},
		{"elements, checked by a function", map[string]string{"main.hcl": opt + "config { a = setproduct(range(5), range(5)) }"}, eval.Limits{Elements: 10}, eval.LimitElements},
		{"string", map[string]string{"main.hcl": opt + "config { a = \"${join(\"\", [for i in range(20) : \"xxxxxxxxxx\"])}!\" }"}, eval.Limits{StringBytes: 100}, eval.LimitString},
		{"allocation", map[string]string{"main.hcl": opt + "config { a = [for i in range(100) : [for j in range(100) : j]] }"}, eval.Limits{Allocation: 10000}, eval.LimitAllocation},
		{"time", map[string]string{"main.hcl": opt + "config { a = [for i in range(300) : [for j in range(300) : j]] }"}, eval.Limits{Time: 1}, eval.LimitTime},
		{"files", map[string]string{"main.hcl": opt + "imports = [\"./b.hcl\"]\nconfig { a = 1 }", "b.hcl": "imports = [\"./c.hcl\"]\n", "c.hcl": ""}, eval.Limits{Files: 2}, eval.LimitFiles},
		{"nesting", map[string]string{"main.hcl": opt + "config { a = " + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + " }"}, eval.Limits{}, eval.LimitNesting},
		{"template", map[string]string{"main.hcl": opt + "config { a = <<EOT\n" + strings.Repeat("x\n", 3000) + "EOT\n}"}, eval.Limits{}, eval.LimitTemplate},
		{"a function's bound", map[string]string{"main.hcl": opt + "config { a = format(\"%99999999d\", 1) }"}, eval.Limits{}, eval.LimitFunctionBound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, src := range tt.files {
				fsys[name] = &fstest.MapFile{Data: []byte(src)}
			}
			ev, diags := eval.New(eval.Config{FS: fsys, Files: []string{"main.hcl"}, Limits: tt.limits})
			if !diags.HasErrors() {
				_, diags = ev.Get(options.Path{"a"})
			}
			var got []eval.Limit
			for _, d := range diags {
				if l := eval.LimitOf(d); l != 0 {
					got = append(got, l)
				}
			}
			if len(got) == 0 || got[0] != tt.want {
				t.Errorf("limits of the errors: %v, want %v first; errors: %v", got, tt.want, diags)
			}
		})
	}
}

// TestFunctionLimits checks that a module's function that recurses past
// a limit (the depth, the time, the allocation) ends in an error with that
// limit's code, located in the function's body, where it calls itself.
func TestFunctionLimits(t *testing.T) {
	const src = `option "a" { type = anything }
function "count" {
  params = [n]
  result = n == 0 ? 0 : 1 + count(n - 1)
}
function "build" {
  params = [n]
  result = n == 0 ? [] : concat([range(50)], build(n - 1))
}
config { a = %s }
`
	tests := []struct {
		name   string
		call   string
		limits eval.Limits
		want   eval.Limit
		line   int
	}{
		{"depth", "count(100)", eval.Limits{Depth: 50}, eval.LimitDepth, 4},
		{"time", "count(2000)", eval.Limits{Time: 1}, eval.LimitTime, 4},
		{"allocation", "build(200)", eval.Limits{Allocation: 20000}, eval.LimitAllocation, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"main.hcl": &fstest.MapFile{Data: []byte(strings.Replace(src, "%s", tt.call, 1))}}
			ev, diags := eval.New(eval.Config{FS: fsys, Files: []string{"main.hcl"}, Limits: tt.limits})
			if !diags.HasErrors() {
				_, diags = ev.Get(options.Path{"a"})
			}
			if len(diags) == 0 {
				t.Fatal("no error")
			}
			d := diags[0]
			if got := eval.LimitOf(d); got != tt.want {
				t.Errorf("limit %v, want %v: %v", got, tt.want, diags)
			}
			if d.Subject == nil || d.Subject.Filename != "main.hcl" || d.Subject.Start.Line != tt.line {
				t.Errorf("subject %v, want main.hcl line %d", d.Subject, tt.line)
			}
			if !strings.Contains(d.Detail, "In function ") {
				t.Errorf("the error does not name the call: %s", d.Detail)
			}
		})
	}
}
