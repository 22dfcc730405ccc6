package ctyconv

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// TestConvert checks Convert against convert.Convert, value for value
// (cty.Value.RawEquals: types and refinements too) and error for error,
// on the conversions it does itself and on some it leaves to go-cty.
func TestConvert(t *testing.T) {
	str, num := cty.StringVal, cty.NumberIntVal
	strs := cty.TupleVal([]cty.Value{str("a"), str("b")})
	mixed := cty.TupleVal([]cty.Value{str("a"), num(1)})
	values := []cty.Value{
		str("a"), num(1), cty.True, cty.NullVal(cty.String), cty.UnknownVal(cty.String), cty.DynamicVal,
		cty.NullVal(cty.DynamicPseudoType),
		strs, mixed, cty.EmptyTupleVal,
		cty.TupleVal([]cty.Value{num(1), num(2)}), cty.TupleVal([]cty.Value{cty.True}),
		cty.TupleVal([]cty.Value{str("a"), cty.UnknownVal(cty.String)}),
		cty.TupleVal([]cty.Value{str("a"), cty.NullVal(cty.String)}),
		cty.TupleVal([]cty.Value{str("a"), cty.DynamicVal}),
		cty.TupleVal([]cty.Value{strs}), cty.TupleVal([]cty.Value{cty.ListVal([]cty.Value{str("x")})}),
		cty.UnknownVal(strs.Type()), cty.NullVal(strs.Type()), cty.UnknownVal(cty.EmptyTuple),
		cty.ListVal([]cty.Value{str("a")}), cty.SetVal([]cty.Value{str("a")}),
		cty.ObjectVal(map[string]cty.Value{"a": str("x")}), cty.MapVal(map[string]cty.Value{"a": str("x")}),
	}
	wants := []cty.Type{
		cty.DynamicPseudoType, cty.String, cty.Number, cty.Bool,
		cty.List(cty.String), cty.List(cty.Number), cty.List(cty.Bool), cty.List(cty.DynamicPseudoType),
		cty.List(cty.List(cty.String)), cty.Set(cty.String), cty.Map(cty.String), cty.Tuple([]cty.Type{cty.String, cty.String}),
	}
	for _, in := range values {
		for _, want := range wants {
			got, gerr := Convert(in, want)
			exp, werr := convert.Convert(in, want)
			if (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
				t.Errorf("Convert(%#v, %#v): error %v, want %v", in, want, gerr, werr)
				continue
			}
			if gerr == nil && !got.RawEquals(exp) {
				t.Errorf("Convert(%#v, %#v) = %#v, want %#v", in, want, got, exp)
			}
		}
	}
}
