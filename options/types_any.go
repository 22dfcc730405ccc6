package options

import (
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/internal/ctyelems"
)

// Anything is the type anything: any value. Attribute sets merge
// recursively, key by key, with properties applied at every level (an
// attribute under a false mkIf is absent, priorities are compared per
// attribute); any other values (lists too) must all be equal.
type Anything struct{}

// Description returns "anything".
func (Anything) Description() string     { return "anything" }
func (Anything) descriptionClass() class { return classNoun }
func (Anything) check(cty.Value) bool    { return true }

// Merge merges attribute sets recursively and requires other values to be
// equal; definitions of different kinds (an attribute set and a string)
// conflict.
func (t Anything) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	var kinds []string
	for _, d := range defs {
		if !d.Value.IsKnown() {
			return cty.DynamicVal, nil
		}
		k := kindOf(d.Value)
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	switch {
	case len(kinds) > 1:
		return cty.DynamicVal, hcl.Diagnostics{conflictError(loc, t, defs,
			"they are values of different kinds ("+strings.Join(kinds, ", ")+")")}
	case len(kinds) == 1 && kinds[0] == "attribute set":
		return mergeByKey(loc, t, t, defs)
	}
	return mergeEqual(loc, t, defs)
}

// kindOf names the kind of a known value, as anything compares them.
func kindOf(v cty.Value) string {
	ty := v.Type()
	switch {
	case isAttrSet(v):
		return "attribute set"
	case isList(v):
		return "list"
	case v.IsNull():
		return "null"
	case ty == cty.String:
		return "string"
	case ty == cty.Number:
		return "number"
	case ty == cty.Bool:
		return "boolean"
	}
	return ty.FriendlyName()
}

// Attrs is the type attrs: any attribute set, taken as it is. Definitions
// merge shallowly: a key set by several definitions takes the value of the
// last one in definition order, silently, as in NixOS.
type Attrs struct{}

// Description returns "attribute set".
func (Attrs) Description() string { return "attribute set" }

// Attrs has no descriptionClass, as in NixOS: "list of (attribute set)".
func (Attrs) descriptionClass() class { return classNone }
func (Attrs) check(v cty.Value) bool  { return isAttrSet(v) }

// Merge unions the definitions' attributes, later ones winning.
func (t Attrs) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	groups, unknown, diags := attrsByKey(loc, t, defs)
	out := make(map[string]cty.Value, len(groups))
	for _, g := range groups {
		v, ds := plain(loc, t, g.defs[len(g.defs)-1])
		diags = append(diags, ds...)
		out[g.key] = v
	}
	if len(out) == 0 {
		return unknownOr(cty.EmptyObjectVal, diags, unknown), diags
	}
	return unknownOr(ctyelems.ObjectVal(out), diags, unknown), diags
}
