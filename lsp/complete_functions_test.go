package lsp

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval"
)

// TestFunctionItemsListModuleFunctions checks that completion offers the
// functions the modules declare, with their signatures, besides the
// library's and the functions that take a function, and that hover on a
// call of one shows its signature.
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

	// Hover on a call shows the signature.
	src := []byte("config { a = section(\"x\") }\n")
	f, diags := hclsyntax.ParseConfig(src, "host.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	sig, ok := functionAt(ev, f.Body.(*hclsyntax.Body), strings.Index(string(src), "section")+2)
	if !ok || sig != "section(name, keys...)" {
		t.Errorf("hover on the call: %q, %v", sig, ok)
	}
}
