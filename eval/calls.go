package eval

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/lib"
	"github.com/nodegen/nodegen/property"
)

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
	if f, ok := asFunc(lookupForced(sc.vars, e.Name)); ok {
		return sc.callUserExprs(f, e)
	}
	if f, ok := ev.userFuncs[e.Name]; ok {
		return sc.callUserExprs(f, e)
	}
	if h, ok := higherOrder[e.Name]; ok && (e.Name != "sort" || len(e.Args) == 2) {
		return sc.callHigherOrder(e, h)
	}
	fn, ok := ev.function(sc.mod, e.Name)
	if !ok {
		detail := fmt.Sprintf("There is no function named %q.", e.Name)
		if s := didYouMean(e.Name, ev.functionNames()); s != "" {
			detail += fmt.Sprintf(" Did you mean %q?", s)
		}
		if ev.Mods == nil {
			detail += " (The modules' functions cannot be called here: imports and disabled_modules are read while the modules are collected, before their function blocks are.)"
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
		if holdsFunc(a.Type()) {
			return cty.DynamicVal, append(diags, funcValueDiag(argExpr(i).Range(), fmt.Sprintf("an argument of the library function %s", e.Name)))
		}
		if d := ev.checkTree(a, argExpr(i).Range()); d != nil {
			return cty.DynamicVal, append(diags, d)
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

// function finds a function by name: the module's file() or the library.
func (ev *Evaluator) function(m *syntax.Module, name string) (function.Function, bool) {
	if name == "file" && m != nil {
		key := m.Src.Key()
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
	names := append(slices.Sorted(maps.Keys(ev.funcs)), "file", "try", "can")
	names = append(names, slices.Sorted(maps.Keys(ev.userFuncs))...)
	for n := range higherOrder {
		if _, dup := ev.funcs[n]; !dup {
			names = append(names, n)
		}
	}
	for _, f := range property.Forms {
		names = append(names, f.Name)
	}
	sort.Strings(names)
	return names
}
