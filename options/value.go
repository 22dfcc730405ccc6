package options

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/property"
)

// isList reports whether a known value is a list in the NixOS sense: a
// tuple, list or set that is not null.
func isList(v cty.Value) bool {
	ty := v.Type()
	return !v.IsNull() && (ty.IsTupleType() || ty.IsListType() || ty.IsSetType())
}

// isAttrSet reports whether a known value is an attribute set in the NixOS
// sense: an object or map that is not null, or a configuration namespace.
func isAttrSet(v cty.Value) bool {
	if _, ok := property.AsRef(v); ok {
		return true
	}
	ty := v.Type()
	return !v.IsNull() && (ty.IsObjectType() || ty.IsMapType())
}

// attr is one attribute of an attribute set.
type attr struct {
	name  string
	value cty.Value
}

// attributes lists the attributes of an attribute set (see isAttrSet) in
// key order. The values are returned as they are (possibly thunks); for a
// namespace they are read one by one with rng as the reading location.
func attributes(v cty.Value, rng hcl.Range) ([]attr, hcl.Diagnostics) {
	if r, ok := property.AsRef(v); ok {
		keys, diags := r.Keys()
		out := make([]attr, 0, len(keys))
		for _, k := range keys {
			av, ok, d := r.Attr(k, rng)
			diags = append(diags, d...)
			if ok {
				out = append(out, attr{k, av})
			}
		}
		return out, diags
	}
	out := make([]attr, 0, v.LengthInt())
	for k, e := range ctyelems.Attrs(v) {
		out = append(out, attr{k, e})
	}
	return out, nil
}

// plain deep-forces a definition's value (property.Deep), turns its lists, sets
// and maps into tuples and objects, and rejects any property left inside
// it: the value of a type that takes values as they are.
func plain(loc Path, t Type, d Def) (cty.Value, hcl.Diagnostics) {
	v, diags := property.Deep(d.Value)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	v = normalize(v)
	if p := findProperty(v); p != nil {
		return cty.DynamicVal, append(diags, strayPropertyError(loc, t, p))
	}
	return v, diags
}

// normalize rebuilds lists and sets as tuples and maps as objects, at any
// depth, so that merged values have one shape whatever produced them.
func normalize(v cty.Value) cty.Value {
	if !v.IsKnown() || v.IsNull() || !typeContains(v.Type(), func(ty cty.Type) bool {
		return ty.IsListType() || ty.IsSetType() || ty.IsMapType()
	}) {
		return v
	}
	ty := v.Type()
	switch {
	case ty.IsTupleType() || ty.IsListType() || ty.IsSetType():
		elems := make([]cty.Value, 0, v.LengthInt())
		for _, e := range ctyelems.Elems(v) {
			elems = append(elems, normalize(e))
		}
		if len(elems) == 0 {
			return cty.EmptyTupleVal
		}
		return ctyelems.TupleVal(elems)
	case ty.IsObjectType() || ty.IsMapType():
		attrs := make(map[string]cty.Value, v.LengthInt())
		for k, e := range ctyelems.Attrs(v) {
			attrs[k] = normalize(e)
		}
		if len(attrs) == 0 {
			return cty.EmptyObjectVal
		}
		return ctyelems.ObjectVal(attrs)
	}
	return v
}

// typeContains reports whether ty or any type inside it satisfies pred,
// each distinct object and tuple type inside looked at once
// (property.TypeHolds: a type that shares its parts is a DAG).
func typeContains(ty cty.Type, pred func(cty.Type) bool) bool {
	return property.TypeHolds(ty, pred)
}

// findProperty returns the first property inside v, if any.
func findProperty(v cty.Value) *property.Property {
	if !v.IsKnown() || v.IsNull() || !typeContains(v.Type(), func(ty cty.Type) bool { return ty == property.PropertyType }) {
		return nil
	}
	if p, ok := property.AsProperty(v); ok {
		return p
	}
	ty := v.Type()
	if ty.IsObjectType() || ty.IsTupleType() || ty.IsCollectionType() {
		for _, e := range ctyelems.Elems(v) {
			if p := findProperty(e); p != nil {
				return p
			}
		}
	}
	return nil
}

// equalValues reports whether two known values, normalized (see
// normalize), are equal as NixOS compares them: null equals null whatever
// its cty type, tuples compare element by element, objects attribute by
// attribute, numbers by value.
func equalValues(a, b cty.Value) bool {
	if a.IsNull() || b.IsNull() {
		return a.IsNull() && b.IsNull()
	}
	at, bt := a.Type(), b.Type()
	switch {
	case at.IsTupleType() && bt.IsTupleType():
		if a.LengthInt() != b.LengthInt() {
			return false
		}
		for i, ae := range a.AsValueSlice() {
			if !equalValues(ae, b.Index(cty.NumberIntVal(int64(i)))) {
				return false
			}
		}
		return true
	case at.IsObjectType() && bt.IsObjectType():
		if len(at.AttributeTypes()) != len(bt.AttributeTypes()) {
			return false
		}
		for name := range at.AttributeTypes() {
			if !ctyelems.HasAttr(bt, name) || !equalValues(a.GetAttr(name), b.GetAttr(name)) {
				return false
			}
		}
		return true
	case at.IsPrimitiveType() && at.Equals(bt):
		return a.Equals(b).True()
	}
	return a.RawEquals(b)
}
