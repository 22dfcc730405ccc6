package lib

import (
	"math/big"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// TestJSONEncode checks that jsonencode gives go-cty's output byte for
// byte, and go-cty's errors.
func TestJSONEncode(t *testing.T) {
	str := cty.StringVal
	num := cty.NumberIntVal
	huge, _ := new(big.Float).SetString("123456789012345678901234567890")
	values := []cty.Value{
		str("plain"), str(""), str(`quote " and \ backslash`), str("<tag> & amp"),
		str("tab\tnew\nline\r\x01\x7f"), str("héllo ✓ \u2028"), str("bad \xff utf8"),
		num(0), num(-5), num(80), num(1 << 40), cty.NumberFloatVal(1.5), cty.NumberFloatVal(-0.25),
		cty.NumberVal(huge), cty.True, cty.False,
		cty.NullVal(cty.String), cty.NullVal(cty.DynamicPseudoType),
		cty.EmptyObjectVal, cty.EmptyTupleVal, cty.ListValEmpty(cty.String),
		cty.ObjectVal(map[string]cty.Value{
			"b": num(1), "a": cty.TupleVal([]cty.Value{str("x"), cty.True, cty.NullVal(cty.Number)}),
			"<k>": cty.MapVal(map[string]cty.Value{"z": str("1"), "y": str("2")}),
			"s":   cty.SetVal([]cty.Value{str("q"), str("p")}),
			"l":   cty.ListVal([]cty.Value{num(3), num(2)}),
		}),
		cty.UnknownVal(cty.String),
		cty.TupleVal([]cty.Value{cty.UnknownVal(cty.Number)}),
		cty.PositiveInfinity,
		cty.ObjectVal(map[string]cty.Value{"x": cty.NegativeInfinity}),
	}
	for _, v := range values {
		got, gerr := Call(JSONEncodeFunc, []cty.Value{v})
		want, werr := Call(stdlib.JSONEncodeFunc, []cty.Value{v})
		if (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
			t.Errorf("jsonencode(%#v): error %v, want %v", v, gerr, werr)
			continue
		}
		if gerr == nil && !got.RawEquals(want) {
			t.Errorf("jsonencode(%#v) = %#v, want %#v", v, got, want)
		}
	}
}
