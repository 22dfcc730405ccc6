package eval

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestFastBinary checks that the fast path of binary operators computes
// what the operators' cty functions compute, and that it declines what it
// does not handle.
func TestFastBinary(t *testing.T) {
	ops := map[string]*hclsyntax.Operation{
		"+": hclsyntax.OpAdd, "-": hclsyntax.OpSubtract, "*": hclsyntax.OpMultiply,
		"%": hclsyntax.OpModulo, "/": hclsyntax.OpDivide,
		"==": hclsyntax.OpEqual, "!=": hclsyntax.OpNotEqual,
		"<": hclsyntax.OpLessThan, "<=": hclsyntax.OpLessThanOrEqual,
		">": hclsyntax.OpGreaterThan, ">=": hclsyntax.OpGreaterThanOrEqual,
	}
	n := cty.NumberIntVal
	s := cty.StringVal
	pairs := [][2]cty.Value{
		{n(7), n(5)}, {n(-7), n(5)}, {n(7), n(-5)}, {n(-7), n(-5)}, {n(7), n(0)},
		{n(0), n(0)}, {n(10005), n(3)}, {n(1 << 31), n(2)}, {n(2147483647), n(2147483647)},
		{n(-2147483648), n(-1)}, {s("a"), s("a")}, {s("a"), s("b")},
		{cty.NullVal(cty.String), cty.NullVal(cty.Number)}, {cty.NullVal(cty.DynamicPseudoType), s("a")},
		{cty.EmptyObjectVal, cty.NullVal(cty.DynamicPseudoType)}, {cty.NullVal(cty.String), s("")},
		{cty.ObjectVal(map[string]cty.Value{"a": cty.ListVal([]cty.Value{s("x")})}), cty.NullVal(cty.EmptyObject)},
		{cty.NullVal(cty.List(cty.String)), cty.NullVal(cty.List(cty.String))},
	}
	for name, op := range ops {
		for _, p := range pairs {
			got, ok := fastBinary(op, p[0], p[1])
			if !ok {
				continue
			}
			want, err := op.Impl.Call([]cty.Value{p[0], p[1]})
			if err != nil {
				t.Errorf("%#v %s %#v: fast path gave %#v, cty failed: %v", p[0], name, p[1], got, err)
				continue
			}
			if !got.RawEquals(want) && !(got.Type() == cty.Number && got.Equals(want).True()) {
				t.Errorf("%#v %s %#v = %#v, cty says %#v", p[0], name, p[1], got, want)
			}
		}
	}
	declined := []struct {
		op   *hclsyntax.Operation
		l, r cty.Value
	}{
		{hclsyntax.OpDivide, n(6), n(3)},
		{hclsyntax.OpAdd, n(1 << 40), n(1)},
		{hclsyntax.OpAdd, cty.NumberFloatVal(1.5), n(1)},
		{hclsyntax.OpAdd, cty.UnknownVal(cty.Number), n(1)},
		{hclsyntax.OpAdd, cty.NullVal(cty.Number), n(1)},
		{hclsyntax.OpEqual, cty.NullVal(cty.String), cty.UnknownVal(cty.String)},
		{hclsyntax.OpLessThan, cty.NullVal(cty.Number), n(1)},
		{hclsyntax.OpEqual, n(1), s("1")},
		{hclsyntax.OpLessThan, s("a"), s("b")},
		{hclsyntax.OpEqual, cty.EmptyObjectVal, cty.EmptyObjectVal},
		{hclsyntax.OpEqual, cty.ListVal([]cty.Value{s("a")}), cty.TupleVal([]cty.Value{s("a")})},
	}
	for _, d := range declined {
		if v, ok := fastBinary(d.op, d.l, d.r); ok {
			t.Errorf("fastBinary(%#v, %#v) = %#v, want it to decline", d.l, d.r, v)
		}
	}
}

// TestFastUnary checks the fast path of ! against the operator's cty
// function.
func TestFastUnary(t *testing.T) {
	for _, v := range []cty.Value{cty.True, cty.False} {
		got, ok := fastUnary(hclsyntax.OpLogicalNot, v)
		want, err := hclsyntax.OpLogicalNot.Impl.Call([]cty.Value{v})
		if !ok || err != nil || !got.RawEquals(want) {
			t.Errorf("!%#v = %#v, %v; cty says %#v, %v", v, got, ok, want, err)
		}
	}
	for _, v := range []cty.Value{cty.UnknownVal(cty.Bool), cty.NullVal(cty.Bool), cty.StringVal("true"), cty.DynamicVal} {
		if got, ok := fastUnary(hclsyntax.OpLogicalNot, v); ok {
			t.Errorf("fastUnary(!%#v) = %#v, want it to decline", v, got)
		}
	}
	if got, ok := fastUnary(hclsyntax.OpNegate, cty.NumberIntVal(1)); ok {
		t.Errorf("fastUnary(-1) = %#v, want it to decline", got)
	}
}
