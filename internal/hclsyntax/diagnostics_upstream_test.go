package hclsyntax

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	hclupstream "github.com/hashicorp/hcl/v2/hclsyntax"
)

// nodegen: the parser's speed patches keep its diagnostics: for inputs
// where a patch touched how an error's subject is taken (Token.Range.Ptr
// instead of &tok.Range, which hcl mutates by recovering after it), the
// diagnostics are upstream's, to the byte.
func TestDiagnosticsAsUpstream(t *testing.T) {
	inputs := []string{
		"a = b[1 2 3]\n",
		"a = b[*x\n",
		"a = b[1\n",
		"a = [1, 2\n",
		"a = {b = 1\n",
		"a = f(1,\n",
		"a = \"${b\"\n",
		"block {\n",
	}
	type diag struct {
		Severity         hcl.DiagnosticSeverity
		Summary, Detail  string
		Subject, Context *hcl.Range
	}
	flat := func(ds hcl.Diagnostics) []diag {
		var out []diag
		for _, d := range ds {
			out = append(out, diag{d.Severity, d.Summary, d.Detail, d.Subject, d.Context})
		}
		return out
	}
	for _, in := range inputs {
		_, ours := ParseConfig([]byte(in), "x.hcl", hcl.InitialPos)
		_, theirs := hclupstream.ParseConfig([]byte(in), "x.hcl", hcl.InitialPos)
		if len(theirs) == 0 {
			t.Errorf("%q: upstream finds no error; the case tests nothing", in)
		}
		if diff := cmp.Diff(flat(theirs), flat(ours)); diff != "" {
			t.Errorf("%q: diagnostics differ from hcl's (-hcl +ours):\n%s", in, diff)
		}
	}
}
