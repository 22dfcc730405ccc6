package eval

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/internal/ctyelems"
)

func (sc *scope) template(e *hclsyntax.TemplateExpr) (cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	// Most strings are short: built on the stack, they are allocated once,
	// as the result.
	var stack [256]byte
	buf := stack[:0]
	known := true
	for _, part := range e.Parts {
		if lit, ok := part.(*hclsyntax.LiteralValueExpr); ok && lit.Val.Type() == cty.String {
			buf = append(buf, lit.Val.AsString()...)
			continue
		}
		v, d := sc.deep(part)
		diags = append(diags, d...)
		if d.HasErrors() || !v.IsKnown() {
			known = false
			continue
		}
		str, bad := interpolate(v, part.Range(), e.SrcRange, "The expression result")
		if bad != nil {
			diags = append(diags, bad)
			known = false
			continue
		}
		if d := sc.inst.ev.checkString(len(buf)+len(str), e.SrcRange); d != nil {
			return cty.UnknownVal(cty.String), append(diags, d)
		}
		buf = append(buf, str...)
	}
	if !known {
		return cty.UnknownVal(cty.String), diags
	}
	if d := sc.inst.ev.charge(int64(len(buf)), e.SrcRange); d != nil {
		return cty.UnknownVal(cty.String), append(diags, d)
	}
	return cty.StringVal(string(buf)), diags
}

func (sc *scope) templateJoin(e *hclsyntax.TemplateJoinExpr) (cty.Value, hcl.Diagnostics) {
	tuple, diags := sc.deep(e.Tuple)
	if diags.HasErrors() || !tuple.IsKnown() {
		return cty.UnknownVal(cty.String), diags
	}
	var buf []byte
	for _, v := range ctyelems.Elems(tuple) {
		str, bad := interpolate(v, e.Range(), e.Range(), "An iteration result")
		if bad != nil {
			return cty.UnknownVal(cty.String), append(diags, bad)
		}
		if d := sc.inst.ev.checkString(len(buf)+len(str), e.Range()); d != nil {
			return cty.UnknownVal(cty.String), append(diags, d)
		}
		buf = append(buf, str...)
	}
	if d := sc.inst.ev.charge(int64(len(buf)), e.Range()); d != nil {
		return cty.UnknownVal(cty.String), append(diags, d)
	}
	return cty.StringVal(string(buf)), diags
}

// interpolate turns a value put into a string template into its text; a
// null or a value with no string form is an error at rng. what names the
// value in the message.
func interpolate(v cty.Value, rng, ctx hcl.Range, what string) (string, *hcl.Diagnostic) {
	if v.IsNull() {
		return "", &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid template interpolation value",
			Detail:   what + " is null. Cannot include a null value in a string template.",
			Subject:  rng.Ptr(),
			Context:  ctx.Ptr(),
		}
	}
	str, err := toString(v)
	if err != nil {
		return "", &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid template interpolation value",
			Detail:   fmt.Sprintf("Cannot include %s in a string template: %s.", syntax.DescribeValue(v), err),
			Subject:  rng.Ptr(),
			Context:  ctx.Ptr(),
		}
	}
	return str, nil
}

// templateLen is the length of a template of string literals (see
// plainKey), which its evaluation charges for.
func templateLen(t *hclsyntax.TemplateExpr) int {
	n := 0
	for _, part := range t.Parts {
		n += len(part.(*hclsyntax.LiteralValueExpr).Val.AsString())
	}
	return n
}
