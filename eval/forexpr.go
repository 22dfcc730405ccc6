package eval

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/property"
)

func (sc *scope) forExpr(e *hclsyntax.ForExpr) (cty.Value, hcl.Diagnostics) {
	coll, diags := sc.eval(e.CollExpr)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	coll, d := property.Shallow(coll)
	diags = append(diags, d...)
	// An element's key is its name or its index; the key's value is made
	// only when the expression names it.
	type kv struct {
		name string
		i    int
		v    cty.Value
	}
	var items []kv
	byName := false
	if r, ok := property.AsRef(coll); ok {
		keys, d := r.Keys()
		diags = append(diags, d...)
		byName = true
		for _, k := range keys {
			v, _, d := r.Attr(k, e.CollExpr.Range())
			diags = append(diags, d...)
			items = append(items, kv{name: k, v: v})
		}
	} else {
		if !coll.IsKnown() {
			return cty.DynamicVal, diags
		}
		if coll.IsNull() || !coll.CanIterateElements() {
			return cty.DynamicVal, append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Iteration over non-iterable value",
				Detail:   fmt.Sprintf("A for expression iterates over a list, a set or an object, not %s.", syntax.DescribeValue(coll)),
				Subject:  e.CollExpr.Range().Ptr(),
			})
		}
		ty := coll.Type()
		switch {
		case ty.IsObjectType() || ty.IsMapType():
			byName = true
			for k, v := range ctyelems.Attrs(coll) {
				items = append(items, kv{name: k, v: v})
			}
		case ty.IsSetType():
			// a set's key is its element, as in HCL
			for _, v := range ctyelems.Elems(coll) {
				items = append(items, kv{v: v})
			}
		default:
			for i, v := range ctyelems.Elems(coll) {
				items = append(items, kv{i: i, v: v})
			}
		}
	}
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	if d := sc.inst.ev.checkElements(len(items), e.SrcRange); d != nil {
		return cty.DynamicVal, append(diags, d)
	}
	isObj := e.KeyExpr != nil
	var tuple []cty.Value
	objAttrs := map[string]cty.Value{}
	var groups map[string][]cty.Value
	var order []string
	for _, item := range items {
		var isc *scope
		switch {
		case e.KeyVar == "":
			isc = sc.with(e.ValVar, item.v)
		case byName:
			isc = sc.with2(e.ValVar, item.v, e.KeyVar, cty.StringVal(item.name))
		case coll.Type().IsSetType():
			isc = sc.with2(e.ValVar, item.v, e.KeyVar, item.v)
		default:
			isc = sc.with2(e.ValVar, item.v, e.KeyVar, ctyelems.Index(item.i))
		}
		if e.CondExpr != nil {
			ok, known, d := isc.evalBool(e.CondExpr, "for condition")
			diags = append(diags, d...)
			if !known || !ok {
				continue
			}
		}
		val := sc.inst.ev.thunk(e.ValExpr, isc)
		if !isObj {
			tuple = append(tuple, val)
			continue
		}
		k, d := isc.evalString(e.KeyExpr)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		if e.Group {
			if groups == nil {
				groups = map[string][]cty.Value{}
			}
			if _, ok := groups[k]; !ok {
				order = append(order, k)
			}
			groups[k] = append(groups[k], val)
			continue
		}
		if _, dup := objAttrs[k]; dup {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate object key",
				Detail:   fmt.Sprintf("Two elements produce the key %q. Add an ellipsis (...) after the value to group them.", k),
				Subject:  e.KeyExpr.Range().Ptr(),
			})
			continue
		}
		objAttrs[k] = val
	}
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	if !isObj {
		if len(tuple) == 0 {
			return cty.EmptyTupleVal, diags
		}
		return ctyelems.TupleVal(tuple), diags
	}
	for _, k := range order {
		objAttrs[k] = ctyelems.TupleVal(groups[k])
	}
	if len(objAttrs) == 0 {
		return cty.EmptyObjectVal, diags
	}
	return ctyelems.ObjectVal(objAttrs), diags
}
