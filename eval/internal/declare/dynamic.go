package declare

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/options"
)

// This file expands the dynamic blocks that make option declarations
// (eval's dynamic.go reads them when a module is loaded, and says what
// they are): for_each and labels are read through Consts, over the
// module's locals, and each element makes a declaration whose
// expressions bind the iterator (syntax.OptionDecl.Vars).

// expandDecls returns the declarations decls of module m stands for, with
// their dynamic blocks expanded, in source order; prefix is the path the
// declarations are below and vars the iterators bound around them (nil
// and nil for a module's or a submodule's own declarations).
func (dc *declarer) expandDecls(m *syntax.Module, decls []*syntax.OptionDecl, prefix []string, vars *syntax.Binding) ([]*syntax.OptionDecl, hcl.Diagnostics) {
	if prefix == nil && vars == nil && !hasDynamic(decls) {
		return decls, nil
	}
	var out []*syntax.OptionDecl
	var diags hcl.Diagnostics
	for _, o := range decls {
		if o.Dyn == nil && prefix == nil && vars == nil {
			// A declaration of the module's own, beside a dynamic block:
			// itself, so that its decoded form is kept (keptOption).
			out = append(out, o)
			continue
		}
		full := options.Path(prefix).Join(o.Path)
		if o.Dyn == nil {
			out = append(out, &syntax.OptionDecl{Path: full, Block: o.Block, Attrs: o.Attrs, Vars: vars})
			continue
		}
		made, d := dc.expandDynamic(m, o.Dyn, full, vars)
		diags = append(diags, d...)
		out = append(out, made...)
	}
	return out, diags
}

// hasDynamic reports whether decls holds a dynamic block.
func hasDynamic(decls []*syntax.OptionDecl) bool {
	for _, o := range decls {
		if o.Dyn != nil {
			return true
		}
	}
	return false
}

// expandDynamic makes the declarations of one dynamic block below prefix:
// one block for each element of for_each.
func (dc *declarer) expandDynamic(m *syntax.Module, dyn *syntax.Dynamic, prefix []string, vars *syntax.Binding) ([]*syntax.OptionDecl, hcl.Diagnostics) {
	if dyn.ReadsConfig {
		return nil, nil // reported when the module was parsed
	}
	coll, diags := dc.consts.DeclValue(m, vars, dyn.ForEach.Expr)
	if diags.HasErrors() {
		return nil, diags
	}
	if !coll.IsWhollyKnown() {
		return nil, append(diags, notKnownDiag("for_each", dyn.ForEach.Expr.Range()))
	}
	ty := coll.Type()
	if coll.IsNull() || !(ty.IsMapType() || ty.IsObjectType() || ty.IsListType() || ty.IsTupleType() || ty.IsSetType()) {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid for_each",
			Detail:   fmt.Sprintf("for_each must be a map, an object, a list or a set, not %s.", syntax.DescribeValue(coll)),
			Subject:  dyn.ForEach.Expr.Range().Ptr(),
		})
	}
	if d := dc.consts.CheckElements(coll.LengthInt(), dyn.ForEach.Expr.Range()); d != nil {
		return nil, append(diags, d)
	}
	var out []*syntax.OptionDecl
	for it := coll.ElementIterator(); it.Next(); {
		k, v := it.Element() // a set's element is its own key
		each := &syntax.Binding{Name: dyn.Iterator, Value: ctyelems.ObjectVal(map[string]cty.Value{"key": k, "value": v}), Outer: vars}
		label, d := dc.dynamicLabel(m, each, dyn)
		diags = append(diags, d...)
		if label == nil {
			continue
		}
		full := options.Path(prefix).Join(label)
		if dyn.Kind == "option" {
			out = append(out, &syntax.OptionDecl{Path: full, Block: dyn.Made, Attrs: dyn.Content.Body.Attributes, Vars: each})
			continue
		}
		made, d := dc.expandDecls(m, dyn.Inner, full, each)
		diags = append(diags, d...)
		out = append(out, made...)
	}
	return out, diags
}

// dynamicLabel evaluates the labels of a dynamic block of module m for one
// element, with the iterators vars binds: one string, an option path.
func (dc *declarer) dynamicLabel(m *syntax.Module, vars *syntax.Binding, dyn *syntax.Dynamic) ([]string, hcl.Diagnostics) {
	expr := dyn.Labels.Expr
	v, diags := dc.consts.DeclValue(m, vars, expr)
	if diags.HasErrors() {
		return nil, diags
	}
	if !v.IsWhollyKnown() {
		return nil, append(diags, notKnownDiag("labels", expr.Range()))
	}
	ty := v.Type()
	if v.IsNull() || !(ty.IsListType() || ty.IsTupleType()) || v.LengthInt() != 1 {
		n := syntax.DescribeValue(v)
		if !v.IsNull() && (ty.IsListType() || ty.IsTupleType()) {
			n = fmt.Sprintf("%d", v.LengthInt())
		}
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Wrong number of labels",
			Detail:   fmt.Sprintf("An %s block takes one label, so labels must be a list of one string, not %s.", dyn.Kind, n),
			Subject:  expr.Range().Ptr(),
		})
	}
	l := v.Index(cty.Zero)
	rng := syntax.ElemRange(expr, 0)
	if l.IsNull() || l.Type() != cty.String {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid label",
			Detail:   fmt.Sprintf("The label of an %s block must be a string, not %s.", dyn.Kind, syntax.DescribeValue(l)),
			Subject:  rng.Ptr(),
		})
	}
	p, d := syntax.OptionPath(l.AsString(), "The label ", rng)
	return p, append(diags, d...)
}

// IteratorValue is the value of expr, an expression of declaration o,
// when o was made by a dynamic block and expr reads its iterators and no
// other variable: a constant of the declaration, as the literal that
// would be written by hand is (see syntax.ConstantValue).
func IteratorValue(consts Consts, o *Option, expr hclsyntax.Expression) (cty.Value, bool) {
	if o.Vars == nil {
		return cty.NilVal, false
	}
	vars := hclsyntax.Variables(expr)
	if len(vars) == 0 {
		return cty.NilVal, false
	}
	for _, tr := range vars {
		if o.Vars.Lookup(tr.RootName()) == cty.NilVal {
			return cty.NilVal, false
		}
	}
	v, diags := consts.DeclValue(o.Mod, o.Vars, expr)
	if diags.HasErrors() || !v.IsWhollyKnown() {
		return cty.NilVal, false
	}
	return v, true
}

// notKnownDiag reports that attribute what of a dynamic block, read when
// the options are declared, has no value: a part of it did not parse (as
// "${}"), which the parser has reported.
func notKnownDiag(what string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid " + what,
		Detail:   fmt.Sprintf("%s has no value: a part of it is not a valid expression.", what),
		Subject:  rng.Ptr(),
	}
}
