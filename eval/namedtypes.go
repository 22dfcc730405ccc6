package eval

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/options"
)

// typeSyntax is a type block, which binds a type to a name once, as a
// NixOS module's `let t = types.either ...; in` does:
//
//	type "listen" { type = either(str, listOf(str)) }
//
// Any type expression then reads it as types.listen: in type =, in
// freeform =, inside listOf(...) and the other type functions. Type names
// are global to an evaluation, as submodule and format names are.
type typeSyntax struct {
	name  string
	block *hclsyntax.Block
	mod   *module
	expr  hclsyntax.Expression
}

func (t *typeSyntax) declBlock() *hclsyntax.Block { return t.block }

// decodeNamedType reads a type block.
func decodeNamedType(b *hclsyntax.Block, m *module) (*typeSyntax, hcl.Diagnostics) {
	if d := wantLabels(b, 1); d != nil {
		return nil, hcl.Diagnostics{d}
	}
	diags := unsupportedBlocks(b.Body, "A type block takes one argument, type, not a %q block.")
	t := &typeSyntax{name: b.Labels[0], block: b, mod: m}
	for _, a := range sortedAttrs(b.Body.Attributes) {
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
		t.expr = a.Expr
	}
	if t.expr == nil {
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
	t, ok := dc.namedTypes[name]
	if !ok {
		return nil, unknownName(dc.namedTypes, "type", name, `: a type "NAME" block names one`, rng)
	}
	if ty, ok := dc.typeByName[t]; ok {
		if ty == nil {
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Type defined by itself",
				Detail:   fmt.Sprintf("The type %q (declared at %s) is defined in terms of itself.", name, options.ShowPos(t.block.DefRange())),
				Subject:  rng.Ptr(),
			}}
		}
		return ty, nil
	}
	if dc.typeByName == nil {
		dc.typeByName = map[*typeSyntax]options.Type{}
	}
	dc.typeByName[t] = nil // being parsed
	ty, _, diags := dc.parseType(t.mod, t.expr)
	if diags.HasErrors() {
		delete(dc.typeByName, t)
		return nil, diags
	}
	dc.typeByName[t] = ty
	return ty, diags
}
