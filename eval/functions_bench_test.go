package eval_test

import (
	"testing"
	"testing/fstest"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/options"
)

// BenchmarkFunctionCalls evaluates 1000 calls of a module's recursive
// function (n: a count down, each call a step of the chain) and a sortOn
// of 1000 elements by a function's key (sorted), each in an evaluation.
func BenchmarkFunctionCalls(b *testing.B) {
	src := []byte(`option "n" { type = int }
option "sorted" { type = listOf(int) }
function "count" {
  params = [n]
  result = n == 0 ? 0 : 1 + count(n - 1)
}
function "key" {
  params = [x]
  result = [x % 7, x]
}
config {
  n      = count(1000)
  sorted = sortOn(range(1000), fn.key)
}
`)
	fsys := fstest.MapFS{"main.hcl": &fstest.MapFile{Data: src}}
	for _, opt := range []string{"n", "sorted"} {
		b.Run(opt, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ev, diags := eval.New(eval.Config{FS: fsys, Files: []string{"main.hcl"}})
				if diags.HasErrors() {
					b.Fatal(diags)
				}
				if _, diags := ev.Get(options.Path{opt}); diags.HasErrors() {
					b.Fatal(diags)
				}
			}
		})
	}
}
