package eval

import (
	"fmt"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/internal/ctyconv"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/lib"
	"github.com/nodegen/nodegen/property"
)

// deep evaluates expr and forces the result completely.
func (sc *scope) deep(expr hclsyntax.Expression) (cty.Value, hcl.Diagnostics) {
	v, diags := sc.eval(expr)
	dv, d := property.Deep(v)
	for _, dd := range d {
		// An option without a value inside a namespace read whole is
		// needed here. (The diagnostic is memoised with the namespace:
		// a copy gets the subject.)
		if dd.Subject == nil {
			c := *dd
			c.Subject = expr.Range().Ptr()
			dd = &c
		}
		diags = append(diags, dd)
	}
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	return dv, diags
}

// evalString evaluates an expression that must give a string.
func (sc *scope) evalString(expr hclsyntax.Expression) (string, hcl.Diagnostics) {
	v, diags := sc.deep(expr)
	if diags.HasErrors() || !v.IsKnown() {
		return "", diags
	}
	str, d := asString(v, expr.Range(), "Invalid value", "A string is required here.")
	if d != nil {
		return "", append(diags, d)
	}
	return str, diags
}

// asString converts a known value to a string as HCL templates do; a null
// or a value with no string form is the diagnostic summary/detail at rng.
func asString(v cty.Value, rng hcl.Range, summary, detail string) (string, *hcl.Diagnostic) {
	s, err := convert.Convert(v, cty.String)
	if err != nil || s.IsNull() {
		return "", &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  summary,
			Detail:   detail,
			Subject:  rng.Ptr(),
		}
	}
	return s.AsString(), nil
}

// evalBool evaluates an expression that must give a bool; unknown (after an
// earlier error) gives false.
func (sc *scope) evalBool(expr hclsyntax.Expression, what string) (bool, bool, hcl.Diagnostics) {
	v, diags := sc.deep(expr)
	if diags.HasErrors() || !v.IsKnown() {
		return false, false, diags
	}
	if v.IsNull() || v.Type() != cty.Bool {
		return false, false, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid " + what,
			Detail:   fmt.Sprintf("The %s must be true or false, not %s.", what, syntax.DescribeValue(v)),
			Subject:  expr.Range().Ptr(),
		})
	}
	return v.True(), true, diags
}

// eval evaluates an expression lazily: object attributes, tuple elements
// and the arguments of mkIf and co. become thunks; only the taken branch of
// a conditional is evaluated; && and || short-circuit; references to the
// configuration are resolved one step at a time. The result may be lazy.
func (sc *scope) eval(expr hclsyntax.Expression) (cty.Value, hcl.Diagnostics) {
	switch e := expr.(type) {
	case *hclsyntax.LiteralValueExpr:
		return e.Val, nil
	case *hclsyntax.ParenthesesExpr:
		return sc.eval(e.Expression)
	case *hclsyntax.TemplateWrapExpr:
		// "${x}" is x itself in HCL; a number or bool becomes a string
		// here, since option types do not convert and the quotes say a
		// string is meant.
		v, diags := sc.deep(e.Wrapped)
		if v.IsKnown() && !v.IsNull() && (v.Type() == cty.Number || v.Type() == cty.Bool) {
			s, _ := toString(v)
			v = cty.StringVal(s)
		}
		return v, diags
	case *hclsyntax.TemplateExpr:
		return sc.template(e)
	case *hclsyntax.TemplateJoinExpr:
		return sc.templateJoin(e)
	case *hclsyntax.ScopeTraversalExpr:
		return sc.traversal(e)
	case *hclsyntax.RelativeTraversalExpr:
		src, diags := sc.eval(e.Source)
		if diags.HasErrors() {
			return cty.DynamicVal, diags
		}
		v, d := sc.steps(src, e.Traversal, e.Source.Range())
		return v, append(diags, d...)
	case *hclsyntax.IndexExpr:
		return sc.index(e)
	case *hclsyntax.SplatExpr:
		return sc.splat(e)
	case *hclsyntax.AnonSymbolExpr:
		if v, ok := sc.anon[e]; ok {
			return v, nil
		}
		return cty.DynamicVal, nil
	case *hclsyntax.ConditionalExpr:
		c, ok, diags := sc.evalBool(e.Condition, "condition")
		if !ok {
			return cty.DynamicVal, diags
		}
		if c {
			v, d := sc.eval(e.TrueResult)
			return v, append(diags, d...)
		}
		v, d := sc.eval(e.FalseResult)
		return v, append(diags, d...)
	case *hclsyntax.BinaryOpExpr:
		return sc.binary(e)
	case *hclsyntax.UnaryOpExpr:
		v, diags := sc.deep(e.Val)
		if diags.HasErrors() {
			return cty.UnknownVal(e.Op.Type), diags
		}
		if r, ok := fastUnary(e.Op, v); ok {
			return r, diags
		}
		param := lib.Params(e.Op.Impl)[0]
		cv, err := ctyconv.Convert(v, param.Type)
		if err != nil {
			return cty.UnknownVal(e.Op.Type), append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid operand",
				Detail:   fmt.Sprintf("Unsuitable value for unary operand: %s.", err),
				Subject:  e.Val.Range().Ptr(),
				Context:  e.SrcRange.Ptr(),
			})
		}
		r, err := lib.Call(e.Op.Impl, []cty.Value{cv})
		if err != nil {
			return cty.UnknownVal(e.Op.Type), append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Operation failed",
				Detail:   fmt.Sprintf("Error during operation: %s.", err),
				Subject:  e.SrcRange.Ptr(),
			})
		}
		return r, diags
	case *hclsyntax.FunctionCallExpr:
		return sc.call(e)
	case *hclsyntax.ObjectConsExpr:
		return sc.object(e)
	case *hclsyntax.TupleConsExpr:
		if len(e.Exprs) == 0 {
			return cty.EmptyTupleVal, nil
		}
		if d := sc.inst.ev.checkElements(len(e.Exprs), e.SrcRange); d != nil {
			return cty.DynamicVal, hcl.Diagnostics{d}
		}
		elems := make([]cty.Value, len(e.Exprs))
		for i, x := range e.Exprs {
			elems[i] = sc.inst.ev.thunk(x, sc)
		}
		return ctyelems.TupleVal(elems), nil
	case *hclsyntax.ForExpr:
		return sc.forExpr(e)
	case *hclsyntax.ExprSyntaxError:
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid expression",
			Detail:   "This expression has a syntax error.",
			Subject:  e.Range().Ptr(),
		}}
	}
	return cty.DynamicVal, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Unsupported expression",
		Detail:   fmt.Sprintf("Expressions of this kind (%T) are not supported.", expr),
		Subject:  expr.Range().Ptr(),
	}}
}

func (sc *scope) evalInt(expr hclsyntax.Expression) (int, hcl.Diagnostics) {
	v, diags := sc.deep(expr)
	if diags.HasErrors() {
		return 0, diags
	}
	i, ok := ctyelems.Int64(v)
	if !ok {
		return 0, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid priority",
			Detail:   "A priority or order must be a whole number.",
			Subject:  expr.Range().Ptr(),
		})
	}
	return int(i), diags
}

// toString converts a known, non-null value for a string template as HCL
// does, with fast paths for strings, bools and whole numbers (go-cty's
// conversion formats every number through big.Float, a quarter of the
// evaluation time of a module set that interpolates ports).
func toString(v cty.Value) (string, error) {
	switch v.Type() {
	case cty.String:
		return v.AsString(), nil
	case cty.Bool:
		return strconv.FormatBool(v.True()), nil
	case cty.Number:
		if i, ok := ctyelems.Int64(v); ok {
			return strconv.FormatInt(i, 10), nil
		}
	}
	s, err := convert.Convert(v, cty.String)
	if err != nil {
		return "", err
	}
	return s.AsString(), nil
}
