package eval

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/lib"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// scope is what an expression can see: the instance whose options `config`
// reads, the module (for locals and file()), and bound variables (for
// iteration variables, `value` in apply).
type scope struct {
	inst   *instance
	mod    *module
	locals *localSet
	vars   *binding
	anon   map[*hclsyntax.AnonSymbolExpr]cty.Value
}

// binding is a variable bound in a scope, and the bindings of the scopes
// around it: a for expression's variables are bound for each element, so
// binding one shares the outer ones rather than copying them.
type binding struct {
	name  string
	value cty.Value
	outer *binding
}

// lookup returns the value of the variable name, as bound innermost;
// cty.NilVal if it is not bound.
func (b *binding) lookup(name string) cty.Value {
	for ; b != nil; b = b.outer {
		if b.name == name {
			return b.value
		}
	}
	return cty.NilVal
}

// with returns a child scope with the variable name bound to v, in one
// allocation.
func (sc *scope) with(name string, v cty.Value) *scope {
	n := &struct {
		sc scope
		b  binding
	}{sc: *sc}
	n.b = binding{name: name, value: v, outer: sc.vars}
	n.sc.vars = &n.b
	return &n.sc
}

// with2 returns a child scope with two variables bound, the second over
// the first if they have the same name, in one allocation.
func (sc *scope) with2(name1 string, v1 cty.Value, name2 string, v2 cty.Value) *scope {
	n := &struct {
		sc    scope
		first binding
		last  binding
	}{sc: *sc}
	n.first = binding{name: name1, value: v1, outer: sc.vars}
	n.last = binding{name: name2, value: v2, outer: &n.first}
	n.sc.vars = &n.last
	return &n.sc
}

func (sc *scope) withAnon(sym *hclsyntax.AnonSymbolExpr, v cty.Value) *scope {
	n := *sc
	n.anon = make(map[*hclsyntax.AnonSymbolExpr]cty.Value, len(sc.anon)+1)
	for k, v := range sc.anon {
		n.anon[k] = v
	}
	n.anon[sym] = v
	return &n
}

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
			Detail:   fmt.Sprintf("The %s must be true or false, not %s.", what, describeValue(v)),
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
		cv, err := convert.Convert(v, param.Type)
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
		return cty.TupleVal(elems), nil
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
			Detail:   fmt.Sprintf("Cannot include %s in a string template: %s.", describeValue(v), err),
			Subject:  rng.Ptr(),
			Context:  ctx.Ptr(),
		}
	}
	return str, nil
}

var rootNames = []string{"config", "root", "local", "options", "name", "format"}

func (sc *scope) traversal(e *hclsyntax.ScopeTraversalExpr) (cty.Value, hcl.Diagnostics) {
	tr := e.Traversal
	rootName := tr.RootName()
	rootRange := tr[0].SourceRange()
	var v cty.Value
	rest := tr[1:]
	switch {
	case sc.vars.lookup(rootName) != cty.NilVal:
		v = sc.vars.lookup(rootName)
	case (rootName == "config" || rootName == "options" || rootName == "root") && sc.inst.root == nil:
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
	case rootName == "root":
		v = sc.inst.ev.top.configRef()
	case rootName == "options":
		v = property.RefVal(&optionsRef{inst: sc.inst, n: sc.inst.root})
	case rootName == "format":
		return sc.formatValue(rootRange, rest)
	case rootName == "name":
		if sc.inst.name == cty.NilVal {
			return cty.DynamicVal, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "name is not defined here",
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
		for b := sc.vars; b != nil; b = b.outer {
			cands = append(cands, b.name)
		}
		if s := didYouMean(rootName, cands); s != "" {
			detail += fmt.Sprintf(" Did you mean %q?", s)
		} else {
			detail += " Expressions can read config, root, local, options, name and format."
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
	if v.Type().IsObjectType() && !v.IsNull() && !v.Type().HasAttribute(name) {
		detail := fmt.Sprintf("This object does not have an attribute named %q.", name)
		names := sortedKeys(v.Type().AttributeTypes())
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
		return v.GetAttr(name), diags
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
		return cty.TupleVal([]cty.Value{v}), diags
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
	return cty.TupleVal(out), diags
}

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
	params := lib.Params(e.Op.Impl)
	lv, err := convert.Convert(lhs, params[0].Type)
	if err != nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid operand",
			Detail:   fmt.Sprintf("Unsuitable value for left operand: %s.", err),
			Subject:  e.LHS.Range().Ptr(),
			Context:  e.SrcRange.Ptr(),
		})
	}
	rv, err := convert.Convert(rhs, params[1].Type)
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
	i, ok := wholeNumber(v)
	if !ok || i < math.MinInt32 || i > math.MaxInt32 {
		return 0, false
	}
	return i, true
}

// keyPath reads an object key written as a bare traversal: `a` is one key,
// `a.b` the path a, b. ok is false for any other expression.
func keyPath(e hclsyntax.Expression) ([]string, bool) {
	t, ok := e.(*hclsyntax.ScopeTraversalExpr)
	if !ok {
		return nil, false
	}
	out := []string{t.Traversal.RootName()}
	for _, s := range t.Traversal[1:] {
		a, ok := s.(hcl.TraverseAttr)
		if !ok {
			return nil, false
		}
		out = append(out, a.Name)
	}
	return out, true
}

// objNode builds an object whose keys may be paths.
type objNode struct {
	val   cty.Value // a leaf
	rng   hcl.Range
	attrs map[string]*objNode
}

// insert sets the attribute at path to v, written at rng; leaf is the
// node to use for it, if it is a leaf.
func (n *objNode) insert(path []string, v cty.Value, rng hcl.Range, leaf *objNode) *hcl.Diagnostic {
	cur := n
	for i, k := range path {
		next := cur.attrs[k]
		last := i == len(path)-1
		switch {
		case next == nil && last:
			*leaf = objNode{val: v, rng: rng}
			cur.attrs[k] = leaf
			return nil
		case next == nil:
			next = &objNode{attrs: map[string]*objNode{}, rng: rng}
			cur.attrs[k] = next
		case last || next.attrs == nil:
			return &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate object attribute",
				Detail:   fmt.Sprintf("The attribute %q is already set at %s.", k, options.ShowPos(next.rng)),
				Subject:  rng.Ptr(),
			}
		}
		cur = next
	}
	return nil
}

func (n *objNode) value() cty.Value {
	if n.attrs == nil {
		return n.val
	}
	if len(n.attrs) == 0 {
		return cty.EmptyObjectVal
	}
	m := make(map[string]cty.Value, len(n.attrs))
	for k, c := range n.attrs {
		if c.attrs != nil {
			m[k] = property.ForcedVal(c.value(), c.rng)
		} else {
			m[k] = c.val
		}
	}
	return cty.ObjectVal(m)
}

func (sc *scope) object(e *hclsyntax.ObjectConsExpr) (cty.Value, hcl.Diagnostics) {
	if d := sc.inst.ev.charge(int64(len(e.Items))*allocationPerElement, e.SrcRange); d != nil {
		return cty.DynamicVal, hcl.Diagnostics{d}
	}
	if plainObjects {
		if v, ok := sc.plainObject(e); ok {
			return v, nil
		}
	}
	var diags hcl.Diagnostics
	root := &objNode{attrs: make(map[string]*objNode, len(e.Items))}
	// the leaves, one per item, in one allocation
	leaves := make([]objNode, len(e.Items))
	for i, item := range e.Items {
		var path []string
		var one [1]string // the path of a plain key, not allocated
		kx := item.KeyExpr
		if k, ok := kx.(*hclsyntax.ObjectConsKeyExpr); ok && !k.ForceNonLiteral {
			if kw := hcl.ExprAsKeyword(k.Wrapped); kw != "" {
				one[0] = kw
				path = one[:]
			} else if p, ok := keyPath(k.Wrapped); ok {
				path = p
			} else {
				kx = k.Wrapped
			}
		} else if ok {
			kx = k.Wrapped
		}
		if path == nil {
			kv, d := sc.deep(kx)
			diags = append(diags, d...)
			if d.HasErrors() || !kv.IsKnown() {
				continue
			}
			ks, err := convert.Convert(kv, cty.String)
			if err != nil || ks.IsNull() {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid object key",
					Detail:   fmt.Sprintf("An object key must be a string, not %s.", describeValue(kv)),
					Subject:  kx.Range().Ptr(),
				})
				continue
			}
			one[0] = ks.AsString()
			path = one[:]
		}
		rng := item.ValueExpr.Range()
		if d := root.insert(path, sc.inst.ev.thunk(item.ValueExpr, sc), rng, &leaves[i]); d != nil {
			diags = append(diags, d)
		}
	}
	return root.value(), diags
}

// plainObjects says to build the objects of constructors whose keys are
// all plain with plainObject; the tests turn it off to check it against
// the general construction.
var plainObjects = true

// plainObject builds the object of a constructor whose keys are plain
// (see plainKey), none written twice, straight into the attribute map
// cty.ObjectVal takes, with no tree of objNodes; ok is false for any other
// constructor, which object builds in general. Its values are thunks, and
// its string keys are charged for in order, as there.
func (sc *scope) plainObject(e *hclsyntax.ObjectConsExpr) (v cty.Value, ok bool) {
	if len(e.Items) == 0 {
		return cty.EmptyObjectVal, true
	}
	var buf [16]string
	keys := buf[:0]
	attrs := make(map[string]cty.Value, len(e.Items))
	for _, item := range e.Items {
		k, ok := plainKey(item.KeyExpr)
		if !ok {
			return cty.NilVal, false
		}
		if _, dup := attrs[k]; dup {
			return cty.NilVal, false
		}
		attrs[k] = cty.NilVal
		keys = append(keys, k)
	}
	for _, item := range e.Items {
		// Once the charge fails, the evaluation is exhausted and object
		// charges nothing more: it makes the diagnostics.
		if t, ok := item.KeyExpr.(*hclsyntax.ObjectConsKeyExpr).Wrapped.(*hclsyntax.TemplateExpr); ok {
			if d := sc.inst.ev.charge(int64(templateLen(t)), t.SrcRange); d != nil {
				return cty.NilVal, false
			}
		}
	}
	for i, item := range e.Items {
		attrs[keys[i]] = sc.inst.ev.thunk(item.ValueExpr, sc)
	}
	return cty.ObjectVal(attrs), true
}

// plainKey reads an object key that is a name (a = 1) or a string with
// nothing interpolated ("a-b" = 1) as object reads it: a string key
// normalized as its value would be. ok is false for any other key (a
// path, a computed key).
func plainKey(kx hclsyntax.Expression) (string, bool) {
	k, ok := kx.(*hclsyntax.ObjectConsKeyExpr)
	if !ok {
		return "", false
	}
	if !k.ForceNonLiteral {
		if kw := hcl.ExprAsKeyword(k.Wrapped); kw != "" {
			return kw, true
		}
	}
	t, ok := k.Wrapped.(*hclsyntax.TemplateExpr)
	if !ok {
		return "", false
	}
	str := ""
	for _, part := range t.Parts {
		lit, ok := part.(*hclsyntax.LiteralValueExpr)
		if !ok || lit.Val.Type() != cty.String {
			return "", false
		}
		str += lit.Val.AsString()
	}
	return cty.NormalizeString(str), true
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
				Detail:   fmt.Sprintf("A for expression iterates over a list, a set or an object, not %s.", describeValue(coll)),
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
		return cty.TupleVal(tuple), diags
	}
	for _, k := range order {
		objAttrs[k] = cty.TupleVal(groups[k])
	}
	if len(objAttrs) == 0 {
		return cty.EmptyObjectVal, diags
	}
	return cty.ObjectVal(objAttrs), diags
}

// call evaluates a function call. mkIf and co. build properties lazily;
// try and can catch errors; everything else is a go-cty function with
// deeply forced arguments.
func (sc *scope) call(e *hclsyntax.FunctionCallExpr) (cty.Value, hcl.Diagnostics) {
	ev := sc.inst.ev
	rng := e.Range()
	argc := func(n int) *hcl.Diagnostic {
		if len(e.Args) == n && !e.ExpandFinal {
			return nil
		}
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Wrong number of arguments",
			Detail:   fmt.Sprintf("%s takes %d argument(s).", e.Name, n),
			Subject:  rng.Ptr(),
		}
	}
	if form, ok := property.FormNamed(e.Name); ok {
		return sc.specialForm(form, e)
	}
	switch e.Name {
	case "try":
		if len(e.Args) == 0 {
			return cty.DynamicVal, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Wrong number of arguments",
				Detail:   "try takes at least one argument.",
				Subject:  rng.Ptr(),
			}}
		}
		var last hcl.Diagnostics
		for _, a := range e.Args {
			v, d := sc.deep(a)
			if !d.HasErrors() && ctyelems.WhollyKnown(v) {
				return v, d
			}
			last = d
		}
		return cty.DynamicVal, append(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "No expression succeeded",
			Detail:   "Every argument of try failed; the last one failed with the errors that follow.",
			Subject:  rng.Ptr(),
		}}, last...)
	case "can":
		if d := argc(1); d != nil {
			return cty.DynamicVal, hcl.Diagnostics{d}
		}
		v, d := sc.deep(e.Args[0])
		return cty.BoolVal(!d.HasErrors() && ctyelems.WhollyKnown(v)), nil
	}
	fn, ok := ev.function(sc.mod, e.Name)
	if !ok {
		detail := fmt.Sprintf("There is no function named %q.", e.Name)
		if s := didYouMean(e.Name, ev.functionNames()); s != "" {
			detail += fmt.Sprintf(" Did you mean %q?", s)
		}
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Call to unknown function",
			Detail:   detail,
			Subject:  e.NameRange.Ptr(),
		}}
	}
	var diags hcl.Diagnostics
	var first cty.Value // the first argument, already forced by structure
	if structureFuncs[e.Name] && len(e.Args) == 1 && !e.ExpandFinal {
		v, done, d := sc.structure(e.Name, e.Args[0])
		if done {
			return v, d
		}
		first, diags = v, d
	}
	args := make([]cty.Value, 0, len(e.Args))
	// argExpr is the expression argument i comes from: the elements of
	// an expanded last argument all come from it.
	argExpr := func(i int) hclsyntax.Expression { return e.Args[min(i, len(e.Args)-1)] }
	for i, a := range e.Args {
		var v cty.Value
		var d hcl.Diagnostics
		if i == 0 && first != cty.NilVal {
			v = first
		} else {
			v, d = sc.deep(a)
		}
		diags = append(diags, d...)
		if i == len(e.Args)-1 && e.ExpandFinal && !d.HasErrors() {
			if !v.IsKnown() {
				return cty.DynamicVal, diags
			}
			if v.IsNull() || !(v.Type().IsTupleType() || v.Type().IsListType() || v.Type().IsSetType()) {
				return cty.DynamicVal, append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid expanding argument value",
					Detail:   "The expanding argument (indicated by ...) must be a list.",
					Subject:  a.Range().Ptr(),
				})
			}
			for _, el := range ctyelems.Elems(v) {
				args = append(args, el)
			}
			continue
		}
		args = append(args, v)
	}
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	params, vp := lib.ParamsAndVarParam(fn)
	if len(args) < len(params) || (vp == nil && len(args) > len(params)) {
		want := fmt.Sprintf("%d", len(params))
		if vp != nil {
			want = fmt.Sprintf("at least %d", len(params))
		}
		return cty.DynamicVal, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Wrong number of arguments",
			Detail:   fmt.Sprintf("Function %q takes %s argument(s), not %d.", e.Name, want, len(args)),
			Subject:  rng.Ptr(),
		})
	}
	for i, a := range args {
		if _, ok := property.AsProperty(a); ok {
			return cty.DynamicVal, append(diags, propertyUseDiag(argExpr(i).Range()))
		}
	}
	args, err := lib.CheckCall(fn, args, ev.limits.libLimits())
	if big := asTooLarge(err); big != nil {
		return cty.DynamicVal, append(diags, tooLarge(libLimit(big.Limit), rng, fmt.Sprintf("Call to function %q: %s.", e.Name, err)))
	}
	v := cty.DynamicVal
	if err == nil {
		v, err = callFunction(fn, args)
	}
	if err != nil {
		var te *lib.ThrowError
		if errors.As(err, &te) {
			return cty.DynamicVal, append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  te.Msg,
				Detail:   "Raised by throw.",
				Subject:  rng.Ptr(),
			})
		}
		subject := rng
		var ae function.ArgError
		if errors.As(err, &ae) && ae.Index < len(args) {
			subject = argExpr(ae.Index).Range()
		}
		d := &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Error in function call",
			Detail:   fmt.Sprintf("Call to function %q failed: %s.", e.Name, err),
			Subject:  subject.Ptr(),
			Context:  rng.Ptr(),
		}
		var bound *lib.BoundError
		if errors.As(err, &bound) {
			d.Extra = OverLimit{Limit: LimitFunctionBound}
		}
		return cty.DynamicVal, append(diags, d)
	}
	if d := ev.checkValue(v, rng); d != nil {
		return cty.DynamicVal, append(diags, d)
	}
	return v, diags
}

// specialForm evaluates a call of a special form (mkIf and co.): a
// property whose arguments are thunks. Only the number of mkOverride and
// mkOrder is evaluated now.
func (sc *scope) specialForm(form *property.Form, e *hclsyntax.FunctionCallExpr) (cty.Value, hcl.Diagnostics) {
	rng := e.Range()
	if len(e.Args) != form.Args || e.ExpandFinal {
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Wrong number of arguments",
			Detail:   fmt.Sprintf("%s takes %d argument(s).", e.Name, form.Args),
			Subject:  rng.Ptr(),
		}}
	}
	args := e.Args
	var n int
	var diags hcl.Diagnostics
	if form.Number {
		n, diags = sc.evalInt(args[0])
		if diags.HasErrors() {
			return cty.DynamicVal, diags
		}
		args = args[1:]
	}
	var thunks [2]cty.Value // a form has at most two arguments after its number
	for i, a := range args {
		thunks[i] = sc.inst.ev.thunk(a, sc)
	}
	return property.PropertyVal(form.Make(n, thunks[:len(args)], args[0].Range(), rng)), diags
}

// callFunction calls fn, turning a panic inside it into an error.
func callFunction(fn function.Function, args []cty.Value) (v cty.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = cty.DynamicVal, fmt.Errorf("internal error: %v", r)
		}
	}()
	return lib.Call(fn, args)
}

func (sc *scope) evalInt(expr hclsyntax.Expression) (int, hcl.Diagnostics) {
	v, diags := sc.deep(expr)
	if diags.HasErrors() {
		return 0, diags
	}
	if !v.IsKnown() || v.IsNull() || v.Type() != cty.Number {
		return 0, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid priority",
			Detail:   "A priority or order must be a whole number.",
			Subject:  expr.Range().Ptr(),
		})
	}
	bf := v.AsBigFloat()
	i, acc := bf.Int64()
	if acc != big.Exact {
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
		if i, ok := wholeNumber(v); ok {
			return strconv.FormatInt(i, 10), nil
		}
	}
	s, err := convert.Convert(v, cty.String)
	if err != nil {
		return "", err
	}
	return s.AsString(), nil
}

// wholeNumber returns a number that is a whole int64.
func wholeNumber(v cty.Value) (int64, bool) {
	bf := v.AsBigFloat()
	if !bf.IsInt() {
		return 0, false
	}
	i, acc := bf.Int64()
	return i, acc == big.Exact
}

// describeValue names the kind of a value for messages.
func describeValue(v cty.Value) string {
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

// function finds a function by name: the module's file() or the library.
func (ev *Evaluator) function(m *module, name string) (function.Function, bool) {
	if name == "file" && m != nil {
		key := m.src.key()
		if f, ok := ev.fileFuncs[key]; ok {
			return f, true
		}
		f := ev.fileFunc(m)
		ev.fileFuncs[key] = f
		return f, true
	}
	f, ok := ev.funcs[name]
	return f, ok
}

func (ev *Evaluator) functionNames() []string {
	names := append(sortedKeys(ev.funcs), "file", "try", "can")
	for _, f := range property.Forms {
		names = append(names, f.Name)
	}
	sort.Strings(names)
	return names
}

// localSet is the locals of one module (or one submodule body in one
// instance).
type localSet struct {
	attrs  map[string]*hclsyntax.Attribute
	thunks map[string]*thunk
	sc     *scope
	parent *localSet
}

func newLocalSet(attrs []*hclsyntax.Attribute, sc *scope, parent *localSet) *localSet {
	// Most submodule bodies have no locals: their sets have no maps.
	ls := &localSet{sc: sc, parent: parent}
	if len(attrs) > 0 {
		ls.attrs = make(map[string]*hclsyntax.Attribute, len(attrs))
	}
	for _, a := range attrs {
		// A name declared twice is an error (checkLocals); until it is
		// reported, the first declaration is the local, as everywhere
		// else that reads locals (configFree).
		if _, dup := ls.attrs[a.Name]; !dup {
			ls.attrs[a.Name] = a
		}
	}
	sc.locals = ls
	return ls
}

func (ls *localSet) get(name string) (*thunk, bool) {
	for s := ls; s != nil; s = s.parent {
		if t, ok := s.thunks[name]; ok {
			return t, true
		}
		if a, ok := s.attrs[name]; ok {
			t := s.sc.inst.ev.newThunk(a.Expr, s.sc, "local."+name)
			if s.thunks == nil {
				s.thunks = map[string]*thunk{}
			}
			s.thunks[name] = t
			return t, true
		}
	}
	return nil, false
}

func (ls *localSet) names() []string {
	seen := map[string]bool{}
	var out []string
	for s := ls; s != nil; s = s.parent {
		for n := range s.attrs {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// topScope is the scope of a top-level module's expressions.
func (ev *Evaluator) topScope(m *module) *scope {
	if ls, ok := ev.modLocals[m]; ok {
		return ls.sc
	}
	sc := &scope{inst: ev.top, mod: m}
	ev.modLocals[m] = newLocalSet(m.locals, sc, nil)
	return sc
}

// bodyScope is the scope of a submodule body's expressions in inst.
func (inst *instance) bodyScope(body *submoduleSyntax) *scope {
	if ls, ok := inst.bodyLocals[body]; ok {
		return ls.sc
	}
	sc := &scope{inst: inst, mod: body.mod}
	parent := inst.ev.topScope(body.mod).locals
	inst.bodyLocals[body] = newLocalSet(body.locals, sc, parent)
	return sc
}

// declScope is the scope of an option declaration's default and apply,
// with the iterators of the dynamic blocks that made it.
func (inst *instance) declScope(o *optionDecl) *scope {
	sc := inst.ev.topScope(o.mod)
	if o.body != nil && inst.st != nil {
		sc = inst.bodyScope(o.body)
	}
	if o.vars != nil {
		withVars := *sc
		withVars.vars = o.vars
		sc = &withVars
	}
	return sc
}
