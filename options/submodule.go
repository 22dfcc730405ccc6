package options

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Submodule is the type submodule.NAME: an attribute set of the options
// that the named submodules declare. Names has more than one element when
// one option is declared in several places with submodule types (see
// MergeTypes). The instance itself is the evaluator's business: Merge
// hands the definitions to Inst.
type Submodule struct {
	Names []string
	Inst  Instantiator
}

// Description returns "submodule". Like NixOS, the description has no
// class, so it is parenthesised inside others: "attribute set of
// (submodule)".
func (Submodule) Description() string     { return "submodule" }
func (Submodule) descriptionClass() class { return classNone }
func (Submodule) check(v cty.Value) bool  { return isAttrSet(v) }

// Merge checks that every definition is an attribute set (an object or a
// namespace) and returns Inst.Instantiate(Names, loc, defs): a property.Ref.
// Definitions are passed on unforced.
func (t Submodule) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	ok, diags := checkAll(loc, t, defs)
	if !ok {
		return cty.DynamicVal, diags
	}
	for _, d := range defs {
		if !d.Value.IsKnown() {
			return cty.DynamicVal, nil
		}
	}
	if t.Inst == nil {
		panic("options: Submodule.Merge without an Instantiator")
	}
	return t.Inst.Instantiate(t.Names, loc, defs)
}

// MergeTypes merges the types of two declarations of one option. Only
// submodule types merge: Submodule with Submodule (their Names
// concatenate, a's first; a's Instantiator is kept unless it is nil), and listOf, attrsOf
// and nullOr of types that merge. ok is false for any other pair, which
// makes the double declaration an error.
func MergeTypes(a, b Type) (merged Type, ok bool) {
	switch a := a.(type) {
	case Submodule:
		if b, isSub := b.(Submodule); isSub {
			names := make([]string, 0, len(a.Names)+len(b.Names))
			names = append(append(names, a.Names...), b.Names...)
			inst := a.Inst
			if inst == nil {
				inst = b.Inst
			}
			return Submodule{Names: names, Inst: inst}, true
		}
	case ListOf:
		if b, same := b.(ListOf); same {
			if e, ok := MergeTypes(a.Elem, b.Elem); ok {
				return ListOf{Elem: e}, true
			}
		}
	case AttrsOf:
		if b, same := b.(AttrsOf); same {
			if e, ok := MergeTypes(a.Elem, b.Elem); ok {
				return AttrsOf{Elem: e}, true
			}
		}
	case NullOr:
		if b, same := b.(NullOr); same {
			if e, ok := MergeTypes(a.Elem, b.Elem); ok {
				return NullOr{Elem: e}, true
			}
		}
	}
	return nil, false
}
