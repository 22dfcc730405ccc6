package eval

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/property"
)

var rootNames = []string{"config", "root", "local", "options", "name", "format", "fn", "hosts"}

func (sc *scope) traversal(e *hclsyntax.ScopeTraversalExpr) (cty.Value, hcl.Diagnostics) {
	tr := e.Traversal
	rootName := tr.RootName()
	rootRange := tr[0].SourceRange()
	var v cty.Value
	rest := tr[1:]
	switch {
	case sc.vars.Lookup(rootName) != cty.NilVal:
		v = sc.vars.Lookup(rootName)
	case (rootName == "config" || rootName == "options" || rootName == "root" || rootName == "hosts") && sc.inst.root == nil:
		// The scope of what is read while modules are loaded (loadScope):
		// configFree rejects these reads before they are evaluated; this
		// is what a read that escaped it meets.
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "No options yet",
			Detail:   fmt.Sprintf("%s cannot be read here: this expression is read while the modules are loaded, before any option is declared.", rootName),
			Subject:  rootRange.Ptr(),
		}}
	case rootName == "config":
		v = sc.inst.configRef()
	case rootName == "hosts":
		v = property.RefVal(&hostsRef{ev: sc.inst.ev})
	case rootName == "root":
		v = sc.inst.ev.top.configRef()
	case rootName == "options":
		v = property.RefVal(&optionsRef{inst: sc.inst, n: sc.inst.root})
	case rootName == "format":
		return sc.formatValue(rootRange, rest)
	case rootName == "fn":
		return sc.fnValue(rootRange, rest)
	case rootName == "name":
		if sc.inst.name == cty.NilVal {
			return cty.DynamicVal, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Name is not defined here",
				Detail:   "name is the attribute name of a submodule instance; it is defined only inside a submodule.",
				Subject:  rootRange.Ptr(),
			}}
		}
		v = sc.inst.name
	case rootName == "local":
		if len(rest) == 0 {
			return cty.DynamicVal, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid reference",
				Detail:   "local must be followed by the name of a local, as in local.cfg.",
				Subject:  rootRange.Ptr(),
			}}
		}
		attr, ok := rest[0].(hcl.TraverseAttr)
		if !ok {
			return cty.DynamicVal, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid reference",
				Detail:   "local must be followed by the name of a local, as in local.cfg.",
				Subject:  rest[0].SourceRange().Ptr(),
			}}
		}
		var t *thunk
		if sc.locals != nil {
			t, ok = sc.locals.get(attr.Name)
		}
		if t == nil {
			detail := fmt.Sprintf("No local named %q is declared in this module.", attr.Name)
			if sc.locals != nil {
				if s := didYouMean(attr.Name, sc.locals.names()); s != "" {
					detail += fmt.Sprintf(" Did you mean %q?", s)
				}
			}
			return cty.DynamicVal, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Undeclared local",
				Detail:   detail,
				Subject:  hcl.RangeBetween(rootRange, attr.SrcRange).Ptr(),
			}}
		}
		var diags hcl.Diagnostics
		v, diags = t.forceAt(hcl.RangeBetween(rootRange, attr.SrcRange))
		if diags.HasErrors() {
			return cty.DynamicVal, diags
		}
		rest = rest[1:]
		nv, d := sc.steps(v, rest, rootRange)
		return nv, append(diags, d...)
	default:
		detail := fmt.Sprintf("There is no variable named %q.", rootName)
		cands := append([]string(nil), rootNames...)
		for b := sc.vars; b != nil; b = b.Outer {
			cands = append(cands, b.Name)
		}
		if s := didYouMean(rootName, cands); s != "" {
			detail += fmt.Sprintf(" Did you mean %q?", s)
		} else {
			detail += " Expressions can read config, root, local, options, name, format and hosts."
		}
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unknown variable",
			Detail:   detail,
			Subject:  rootRange.Ptr(),
		}}
	}
	return sc.steps(v, rest, rootRange)
}

// steps applies attribute and index steps to v, lazily through references.
// start is where the traversal begins, so that each step's range covers
// the whole reference up to it.
func (sc *scope) steps(v cty.Value, tr hcl.Traversal, start hcl.Range) (cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	for _, step := range tr {
		var d hcl.Diagnostics
		switch s := step.(type) {
		case hcl.TraverseAttr:
			v, d = getAttr(v, s.Name, hcl.RangeBetween(start, s.SrcRange))
		case hcl.TraverseIndex:
			v, d = sc.indexValue(v, s.Key, hcl.RangeBetween(start, s.SrcRange))
		case hcl.TraverseSplat:
			d = hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Unsupported splat",
				Detail:   "Use the [*] splat operator.",
				Subject:  s.SrcRange.Ptr(),
			}}
		}
		diags = append(diags, d...)
		if d.HasErrors() {
			return cty.DynamicVal, diags
		}
	}
	return v, diags
}

func getAttr(v cty.Value, name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	v, diags := property.Shallow(v)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	if r, ok := property.AsRef(v); ok {
		nv, _, d := r.Attr(name, rng)
		return nv, append(diags, d...)
	}
	if _, ok := property.AsProperty(v); ok {
		return cty.DynamicVal, append(diags, propertyUseDiag(rng))
	}
	if !v.IsKnown() {
		return cty.DynamicVal, diags
	}
	if v.Type().IsObjectType() && !v.IsNull() && !ctyelems.HasAttr(v.Type(), name) {
		detail := fmt.Sprintf("This object does not have an attribute named %q.", name)
		names := slices.Sorted(maps.Keys(v.Type().AttributeTypes()))
		if s := didYouMean(name, names); s != "" {
			detail += fmt.Sprintf(" Did you mean %q?", s)
		}
		return cty.DynamicVal, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsupported attribute",
			Detail:   detail,
			Subject:  rng.Ptr(),
		})
	}
	if v.Type().IsObjectType() && !v.IsNull() {
		return ctyelems.GetAttr(v, name), diags
	}
	nv, d := hclGetAttr(v, name, rng)
	return nv, append(diags, d...)
}

// hclGetAttr is hcl.GetAttr, in a function of its own so that only this
// path pays for rng escaping to the heap.
func hclGetAttr(v cty.Value, name string, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	return hcl.GetAttr(v, name, &rng)
}

func (sc *scope) indexValue(coll, key cty.Value, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	coll, diags := property.Shallow(coll)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	if r, ok := property.AsRef(coll); ok {
		if !key.IsKnown() {
			return cty.DynamicVal, diags
		}
		if key.IsNull() || key.Type() != cty.String {
			return cty.DynamicVal, append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid index",
				Detail:   "A configuration namespace is indexed by a string.",
				Subject:  rng.Ptr(),
			})
		}
		nv, _, d := r.Attr(key.AsString(), rng)
		return nv, append(diags, d...)
	}
	if _, ok := property.AsProperty(coll); ok {
		return cty.DynamicVal, append(diags, propertyUseDiag(rng))
	}
	nv, d := hcl.Index(coll, key, &rng)
	return nv, append(diags, d...)
}

func propertyUseDiag(rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid use of a definition property",
		Detail:   "mkIf, mkMerge, mkOverride and mkOrder make definitions; their result cannot be read like a value.",
		Subject:  rng.Ptr(),
	}
}

func (sc *scope) index(e *hclsyntax.IndexExpr) (cty.Value, hcl.Diagnostics) {
	coll, diags := sc.eval(e.Collection)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	key, d := sc.deep(e.Key)
	diags = append(diags, d...)
	if d.HasErrors() {
		return cty.DynamicVal, diags
	}
	v, d := sc.indexValue(coll, key, e.SrcRange)
	return v, append(diags, d...)
}

func (sc *scope) splat(e *hclsyntax.SplatExpr) (cty.Value, hcl.Diagnostics) {
	// The source is forced only as deep as its elements: list[*].port
	// reads port of each element and nothing else of it.
	src, diags := sc.eval(e.Source)
	if !diags.HasErrors() {
		var d hcl.Diagnostics
		src, d = property.Shallow(src)
		diags = append(diags, d...)
	}
	if diags.HasErrors() || !src.IsKnown() {
		return cty.DynamicVal, diags
	}
	if src.IsNull() {
		return cty.EmptyTupleVal, diags
	}
	ty := src.Type()
	if !(ty.IsListType() || ty.IsTupleType() || ty.IsSetType()) {
		v, d := sc.withAnon(e.Item, src).deep(e.Each)
		diags = append(diags, d...)
		return ctyelems.TupleVal([]cty.Value{v}), diags
	}
	var out []cty.Value
	for _, el := range ctyelems.Elems(src) {
		v, d := sc.withAnon(e.Item, el).deep(e.Each)
		diags = append(diags, d...)
		out = append(out, v)
	}
	if len(out) == 0 {
		return cty.EmptyTupleVal, diags
	}
	return ctyelems.TupleVal(out), diags
}
