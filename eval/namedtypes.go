package eval

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/options"
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

// lookupNamedType resolves types.NAME, referred to at rng: the type its
// type block gives, parsed once for the evaluation. A named type that
// names itself, directly or through others, has no meaning.
func (dc *declarer) lookupNamedType(name string, rng hcl.Range) (options.Type, hcl.Diagnostics) {
	t, ok := dc.NamedTypes[name]
	if !ok {
		return nil, syntax.UnknownName(dc.NamedTypes, "type", name, `: a type "NAME" block names one`, rng)
	}
	if ty, ok := dc.typeByName[t]; ok {
		if ty == nil {
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Type defined by itself",
				Detail:   fmt.Sprintf("The type %q (declared at %s) is defined in terms of itself.", name, options.ShowPos(t.Block.DefRange())),
				Subject:  rng.Ptr(),
			}}
		}
		return ty, nil
	}
	if dc.typeByName == nil {
		dc.typeByName = map[*syntax.NamedType]options.Type{}
	}
	dc.typeByName[t] = nil // being parsed
	ty, _, diags := dc.parseType(t.Mod, t.Expr)
	if diags.HasErrors() {
		delete(dc.typeByName, t)
		return nil, diags
	}
	dc.typeByName[t] = ty
	return ty, diags
}
