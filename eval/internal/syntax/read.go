package syntax

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// This file holds the read helpers over hcl expressions and blocks that
// loading and declaring share, and the errors they make.

// SortedAttrs returns attrs in source order.
func SortedAttrs(attrs hclsyntax.Attributes) []*hclsyntax.Attribute {
	return AppendSortedAttrs(make([]*hclsyntax.Attribute, 0, len(attrs)), attrs)
}

// AppendSortedAttrs appends attrs to dst in source order: with room in
// dst (an array of the caller's), SortedAttrs without an allocation.
func AppendSortedAttrs(dst []*hclsyntax.Attribute, attrs hclsyntax.Attributes) []*hclsyntax.Attribute {
	start := len(dst)
	for _, a := range attrs {
		dst = append(dst, a)
	}
	slices.SortFunc(dst[start:], func(a, b *hclsyntax.Attribute) int { return a.SrcRange.Start.Byte - b.SrcRange.Start.Byte })
	return dst
}

// ElemRange is the range of the i-th element of expr when it is a tuple
// written out, else the range of expr.
func ElemRange(expr hclsyntax.Expression, i int) hcl.Range {
	if t, ok := expr.(*hclsyntax.TupleConsExpr); ok && i < len(t.Exprs) {
		return t.Exprs[i].Range()
	}
	return expr.Range()
}

// ConstantValue is the value of an expression that is a constant, read
// off the syntax tree: a literal, a quoted string with nothing
// interpolated, or an empty list or object.
func ConstantValue(e hclsyntax.Expression) (cty.Value, bool) {
	switch e := e.(type) {
	case *hclsyntax.LiteralValueExpr:
		return e.Val, true
	case *hclsyntax.TemplateExpr:
		if len(e.Parts) == 1 {
			if lit, ok := e.Parts[0].(*hclsyntax.LiteralValueExpr); ok && lit.Val.Type() == cty.String {
				return lit.Val, true
			}
		}
	case *hclsyntax.TupleConsExpr:
		if len(e.Exprs) == 0 {
			return cty.EmptyTupleVal, true
		}
	case *hclsyntax.ObjectConsExpr:
		if len(e.Items) == 0 {
			return cty.EmptyObjectVal, true
		}
	}
	return cty.NilVal, false
}

// ConstValue evaluates an expression with no variables. A constant (see
// ConstantValue: every option's description is one) is read off the
// syntax tree; anything else goes through hclsyntax.
func ConstValue(e hclsyntax.Expression) (cty.Value, hcl.Diagnostics) {
	if v, ok := ConstantValue(e); ok {
		return v, nil
	}
	return e.Value(nil)
}

// OptionPath parses text as an option path; a bad or empty path is an
// error at rng, whose detail names the text after what ("The label ").
func OptionPath(text, what string, rng hcl.Range) ([]string, hcl.Diagnostics) {
	return OptionPathAfter(nil, text, what, rng)
}

// OptionPathAfter is OptionPath's path after prefix, in one new slice.
func OptionPathAfter(prefix []string, text, what string, rng hcl.Range) ([]string, hcl.Diagnostics) {
	p, err := options.ParsePathAfter(prefix, text)
	if err != nil || len(p) == len(prefix) {
		msg := "an empty path"
		if err != nil {
			msg = err.Error()
		}
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid option path",
			Detail:   fmt.Sprintf("%s%q is not an option path: %s.", what, text, msg),
			Subject:  rng.Ptr(),
		}}
	}
	return p, nil
}

// UnsupportedArg reports the argument attr of a block that takes the
// arguments args only, as takes says ("An option declaration takes
// type, default, ..."), suggesting the closest of args.
func UnsupportedArg(attr *hclsyntax.Attribute, takes string, args []string) *hcl.Diagnostic {
	detail := fmt.Sprintf("%s; not %q.", takes, attr.Name)
	if s := options.DidYouMean(attr.Name, args); s != "" {
		detail += fmt.Sprintf(" Did you mean %q?", s)
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unsupported argument",
		Detail:   detail,
		Subject:  attr.NameRange.Ptr(),
	}
}

// UnknownName is the error for a reference to an undeclared submodule,
// format, type or function (what), with the declared names as
// suggestions; how says how one is declared.
func UnknownName[T any](decls map[string]T, what, name, how string, rng hcl.Range) hcl.Diagnostics {
	detail := fmt.Sprintf("No %s %q is declared%s.", what, name, how)
	if s := options.DidYouMean(name, slices.Sorted(maps.Keys(decls))); s != "" {
		detail += fmt.Sprintf(" Did you mean %q?", s)
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Unknown " + what,
		Detail:   detail,
		Subject:  rng.Ptr(),
	}}
}

// DescribeValue names the kind of a value for messages.
func DescribeValue(v cty.Value) string {
	switch {
	case v.IsNull():
		return "null"
	case v.Type() == cty.String:
		return "a string"
	case v.Type() == cty.Number:
		return "a number"
	case v.Type() == cty.Bool:
		return "a bool"
	case v.Type().IsObjectType() || v.Type().IsMapType():
		return "an object"
	case v.Type().IsTupleType() || v.Type().IsListType() || v.Type().IsSetType():
		return "a list"
	case v.Type() == property.RefType:
		return "a configuration namespace"
	case v.Type() == property.PropertyType:
		return "a definition property"
	}
	return v.Type().FriendlyName()
}
