package eval

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval/internal/syntax"
)

// decodeNamedType reads a type block.
func decodeNamedType(b *hclsyntax.Block, m *syntax.Module) (*syntax.NamedType, hcl.Diagnostics) {
	if d := wantLabels(b, 1); d != nil {
		return nil, hcl.Diagnostics{d}
	}
	diags := unsupportedBlocks(b.Body, "A type block takes one argument, type, not a %q block.")
	t := &syntax.NamedType{Name: b.Labels[0], Block: b, Mod: m}
	for _, a := range syntax.SortedAttrs(b.Body.Attributes) {
		name := a.Name
		if name != "type" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported argument",
				Detail:   fmt.Sprintf("A type block takes one argument, type, not %q.", name),
				Subject:  a.NameRange.Ptr(),
			})
			continue
		}
		t.Expr = a.Expr
	}
	if t.Expr == nil {
		diags = append(diags, missingArg(b, "type"))
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return t, diags
}
