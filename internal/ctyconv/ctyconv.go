// Package ctyconv converts cty values as go-cty's convert.Convert does,
// without making a conversion (two or three closures) for the two cases
// an evaluation meets most: a value to the dynamic type (the operands of
// == and !=), which convert.Convert returns as it is, and a tuple of
// strings, numbers or bools to a list of them (a function's list(string)
// parameter given a tuple literal or a for expression), whose elements
// convert.Convert copies one by one through cty's element iterator, a
// number value made for every index. Every other conversion is
// convert.Convert's. Like the rest of nodegen, it expects no marked
// values.
package ctyconv

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/nodegen/nodegen/internal/ctyelems"
)

// Convert returns convert.Convert(in, want).
func Convert(in cty.Value, want cty.Type) (cty.Value, error) {
	if want == cty.DynamicPseudoType {
		return in, nil
	}
	if want.IsListType() && in.Type().IsTupleType() && in.IsKnown() && !in.IsNull() {
		if l, ok := tupleToList(in, want.ElementType()); ok {
			return l, nil
		}
	}
	return convert.Convert(in, want)
}

// tupleToList is the list of the elements of the tuple in, when every
// element is of the primitive type ety.
func tupleToList(in cty.Value, ety cty.Type) (cty.Value, bool) {
	if !ety.IsPrimitiveType() {
		return cty.NilVal, false
	}
	etys := in.Type().TupleElementTypes()
	for _, t := range etys {
		if t != ety {
			return cty.NilVal, false
		}
	}
	if len(etys) == 0 {
		return cty.ListValEmpty(ety), true
	}
	elems := make([]cty.Value, 0, len(etys))
	for _, e := range ctyelems.Elems(in) {
		elems = append(elems, e)
	}
	return cty.ListVal(elems), true
}
