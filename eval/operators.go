package eval

import (
	"fmt"
	"math"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/internal/ctyconv"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/lib"
)

func (sc *scope) binary(e *hclsyntax.BinaryOpExpr) (cty.Value, hcl.Diagnostics) {
	if e.Op == hclsyntax.OpLogicalAnd || e.Op == hclsyntax.OpLogicalOr {
		l, ok, diags := sc.evalBool(e.LHS, "operand")
		if !ok {
			return cty.UnknownVal(cty.Bool), diags
		}
		if e.Op == hclsyntax.OpLogicalAnd && !l {
			return cty.False, diags
		}
		if e.Op == hclsyntax.OpLogicalOr && l {
			return cty.True, diags
		}
		r, ok, d := sc.evalBool(e.RHS, "operand")
		diags = append(diags, d...)
		if !ok {
			return cty.UnknownVal(cty.Bool), diags
		}
		return cty.BoolVal(r), diags
	}
	lhs, diags := sc.deep(e.LHS)
	rhs, d := sc.deep(e.RHS)
	diags = append(diags, d...)
	if diags.HasErrors() {
		return cty.UnknownVal(e.Op.Type), diags
	}
	if r, ok := fastBinary(e.Op, lhs, rhs); ok {
		return r, diags
	}
	// cty's operators walk their operands whole (Equals).
	if d := sc.inst.ev.checkTree(lhs, e.LHS.Range()); d != nil {
		return cty.UnknownVal(e.Op.Type), append(diags, d)
	}
	if d := sc.inst.ev.checkTree(rhs, e.RHS.Range()); d != nil {
		return cty.UnknownVal(e.Op.Type), append(diags, d)
	}
	params := lib.Params(e.Op.Impl)
	lv, err := ctyconv.Convert(lhs, params[0].Type)
	if err != nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid operand",
			Detail:   fmt.Sprintf("Unsuitable value for left operand: %s.", err),
			Subject:  e.LHS.Range().Ptr(),
			Context:  e.SrcRange.Ptr(),
		})
	}
	rv, err := ctyconv.Convert(rhs, params[1].Type)
	if err != nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid operand",
			Detail:   fmt.Sprintf("Unsuitable value for right operand: %s.", err),
			Subject:  e.RHS.Range().Ptr(),
			Context:  e.SrcRange.Ptr(),
		})
	}
	if diags.HasErrors() {
		return cty.UnknownVal(e.Op.Type), diags
	}
	r, err := lib.Call(e.Op.Impl, []cty.Value{lv, rv})
	if err != nil {
		return cty.UnknownVal(e.Op.Type), append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Operation failed",
			Detail:   fmt.Sprintf("Error during operation: %s.", err),
			Subject:  e.SrcRange.Ptr(),
		})
	}
	return r, diags
}

// fastUnary computes !b of a known bool as the operator's cty function
// does, without its call. ok is false for anything else.
func fastUnary(op *hclsyntax.Operation, v cty.Value) (cty.Value, bool) {
	if op != hclsyntax.OpLogicalNot || !v.IsKnown() || v.IsNull() || v.Type() != cty.Bool {
		return cty.NilVal, false
	}
	return cty.BoolVal(!v.True()), true
}

// fastBinary computes the arithmetic and comparisons of whole numbers that
// fit in 32 bits, the equality of strings, and the comparison of a known
// value with null, without cty's arbitrary precision and without the deep
// walk of cty.Value.Equals (x != null on a whole attribute set): the same
// results (cty's modulo truncates as Go's % does, x % 0 is x, and nulls
// of any type are equal), for a fraction of the work. ok is false for
// anything else.
func fastBinary(op *hclsyntax.Operation, l, r cty.Value) (cty.Value, bool) {
	if !l.IsKnown() || !r.IsKnown() {
		return cty.NilVal, false
	}
	if l.IsNull() || r.IsNull() {
		switch op {
		case hclsyntax.OpEqual:
			return cty.BoolVal(l.IsNull() && r.IsNull()), true
		case hclsyntax.OpNotEqual:
			return cty.BoolVal(!(l.IsNull() && r.IsNull())), true
		}
		return cty.NilVal, false
	}
	// Types are compared with primitive types only: comparing two object
	// types with == panics (their maps are not comparable).
	if l.Type() == cty.String && r.Type() == cty.String {
		switch op {
		case hclsyntax.OpEqual:
			return cty.BoolVal(l.AsString() == r.AsString()), true
		case hclsyntax.OpNotEqual:
			return cty.BoolVal(l.AsString() != r.AsString()), true
		}
		return cty.NilVal, false
	}
	if l.Type() != cty.Number || r.Type() != cty.Number {
		return cty.NilVal, false
	}
	a, ok := smallInt(l)
	if !ok {
		return cty.NilVal, false
	}
	b, ok := smallInt(r)
	if !ok {
		return cty.NilVal, false
	}
	switch op {
	case hclsyntax.OpAdd:
		return cty.NumberIntVal(a + b), true
	case hclsyntax.OpSubtract:
		return cty.NumberIntVal(a - b), true
	case hclsyntax.OpMultiply:
		return cty.NumberIntVal(a * b), true
	case hclsyntax.OpModulo:
		if b == 0 {
			return l, true
		}
		return cty.NumberIntVal(a % b), true
	case hclsyntax.OpEqual:
		return cty.BoolVal(a == b), true
	case hclsyntax.OpNotEqual:
		return cty.BoolVal(a != b), true
	case hclsyntax.OpLessThan:
		return cty.BoolVal(a < b), true
	case hclsyntax.OpLessThanOrEqual:
		return cty.BoolVal(a <= b), true
	case hclsyntax.OpGreaterThan:
		return cty.BoolVal(a > b), true
	case hclsyntax.OpGreaterThanOrEqual:
		return cty.BoolVal(a >= b), true
	}
	return cty.NilVal, false
}

// smallInt is v as an int64 when it is a whole number of at most 32 bits,
// so that the sum, difference and product of two cannot overflow.
func smallInt(v cty.Value) (int64, bool) {
	i, ok := ctyelems.Int64(v)
	if !ok || i < math.MinInt32 || i > math.MaxInt32 {
		return 0, false
	}
	return i, true
}
