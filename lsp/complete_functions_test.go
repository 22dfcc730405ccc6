package lsp

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/eval"
)

// TestFunctionItemsListModuleFunctions checks that completion offers the
// functions the modules declare, with their signatures, besides the
// library's and the functions that take a function.
func TestFunctionItemsListModuleFunctions(t *testing.T) {
	fsys := fstest.MapFS{"main.hcl": {Data: []byte(`
function "section" {
  params         = [name]
  variadic_param = keys
  result         = name
}
`)}}
	ev, diags := eval.New(eval.Config{FS: fsys, Files: []string{"main.hcl"}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got := map[string]string{}
	for _, it := range functionItems(ev, func(string) *textEdit { return nil }) {
		got[it.Label] = it.Detail
	}
	want := map[string]string{
		"section": "section(name, keys...): a function block of the modules",
		"sortOn":  "sortOn(list, fn.key): sorted stably by the key the function gives each element",
		"upper":   "upper(str string)",
	}
	for name, detail := range want {
		if diff := cmp.Diff(detail, got[name]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}
