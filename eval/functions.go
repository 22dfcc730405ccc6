package eval

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/lib"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// decodeFunction reads a function block.
func decodeFunction(b *hclsyntax.Block, m *syntax.Module) (*syntax.Function, hcl.Diagnostics) {
	if d := wantLabels(b, 1); d != nil {
		return nil, hcl.Diagnostics{d}
	}
	var diags hcl.Diagnostics
	f := &syntax.Function{Name: b.Labels[0], Block: b, Mod: m}
	if !hclsyntax.ValidIdentifier(f.Name) {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid function name",
			Detail:   fmt.Sprintf("%q is not a valid identifier: a function name is letters, digits, underscores and dashes, starting with a letter.", f.Name),
			Subject:  b.LabelRanges[0].Ptr(),
		}}
	}
	if _, ok := lib.Functions()[f.Name]; ok || isBuiltinForm(f.Name) {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Function name taken",
			Detail:   fmt.Sprintf("%q is the name of a built-in function; a module's function cannot replace it.", f.Name),
			Subject:  b.LabelRanges[0].Ptr(),
		}}
	}
	diags = append(diags, unsupportedBlocks(b.Body, "A function block takes the arguments params, variadic_param and result, not a %q block.")...)
	seen := map[string]bool{}
	param := func(expr hclsyntax.Expression) (string, bool) {
		name := hcl.ExprAsKeyword(expr)
		if name == "" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid parameter name",
				Detail:   "A parameter is a bare name, as in params = [a, b].",
				Subject:  expr.Range().Ptr(),
			})
			return "", false
		}
		// name is a submodule instance's name, which a function's body
		// never sees: a parameter may take it.
		if name != "name" && slices.Contains(rootNames, name) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid parameter name",
				Detail:   fmt.Sprintf("A parameter cannot be named %s, which expressions read for something else (%s).", name, strings.Join(slices.DeleteFunc(slices.Clone(rootNames), func(n string) bool { return n == "name" }), ", ")),
				Subject:  expr.Range().Ptr(),
			})
			return "", false
		}
		if seen[name] {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate parameter",
				Detail:   fmt.Sprintf("The parameter %q is named twice.", name),
				Subject:  expr.Range().Ptr(),
			})
			return "", false
		}
		seen[name] = true
		return name, true
	}
	for _, a := range syntax.SortedAttrs(b.Body.Attributes) {
		name := a.Name
		switch name {
		case "params":
			list, d := hcl.ExprList(a.Expr)
			if d.HasErrors() {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid params",
					Detail:   "params is a list of bare names, as in params = [a, b].",
					Subject:  a.Expr.Range().Ptr(),
				})
				continue
			}
			for _, e := range list {
				if p, ok := param(e.(hclsyntax.Expression)); ok {
					f.Params = append(f.Params, p)
				}
			}
		case "variadic_param":
			if p, ok := param(a.Expr); ok {
				f.Variadic = p
			}
		case "result":
			f.Result = a.Expr
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported argument",
				Detail:   fmt.Sprintf("A function block takes params, variadic_param and result, not %q.", name),
				Subject:  a.NameRange.Ptr(),
			})
		}
	}
	if b.Body.Attributes["params"] == nil {
		diags = append(diags, missingArg(b, "params"))
	}
	if f.Result == nil {
		diags = append(diags, missingArg(b, "result"))
	}
	if diags.HasErrors() {
		return nil, diags
	}
	f.FrameName = "function " + f.Signature()
	return f, diags
}

// isBuiltinForm reports whether name is called as a special form rather
// than a library function: try, can, file, mkIf and co., and the
// functions that take a function (see higherOrder).
func isBuiltinForm(name string) bool {
	if _, ok := property.FormNamed(name); ok {
		return true
	}
	_, ho := higherOrder[name]
	return ho || name == "try" || name == "can" || name == "file"
}

// funcRef is a function as a value (fn.NAME), which the functions that
// take a function (sort, sortOn, ...) and a module's functions take as an
// argument.
type funcRef struct{ f *syntax.Function }

// funcType is the capsule type of function values.
var funcType = cty.Capsule("function", reflect.TypeOf(funcRef{}))

func funcVal(f *syntax.Function) cty.Value { return cty.CapsuleVal(funcType, &funcRef{f: f}) }

// asFunc returns the function a value holds.
func asFunc(v cty.Value) (*syntax.Function, bool) {
	if !v.IsKnown() || v.IsNull() || !v.Type().Equals(funcType) {
		return nil, false
	}
	return v.EncapsulatedValue().(*funcRef).f, true
}

// fnValue resolves fn.NAME.
func (sc *scope) fnValue(rootRange hcl.Range, rest hcl.Traversal) (cty.Value, hcl.Diagnostics) {
	ev := sc.inst.ev
	attr, ok := hcl.TraverseAttr{}, false
	if len(rest) > 0 {
		attr, ok = rest[0].(hcl.TraverseAttr)
	}
	if !ok {
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid reference",
			Detail:   `fn must be followed by the name of a function a function block declares, as in fn.by_priority.`,
			Subject:  rootRange.Ptr(),
		}}
	}
	rng := hcl.RangeBetween(rootRange, attr.SrcRange)
	f, ok := ev.userFuncs[attr.Name]
	if !ok {
		return cty.DynamicVal, syntax.UnknownName(ev.userFuncs, "function", attr.Name, ` by a function block`, rng)
	}
	if len(rest) > 1 {
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unsupported attribute",
			Detail:   "A function has no attributes: call it, or pass it to a function such as sort.",
			Subject:  rest[1].SourceRange().Ptr(),
		}}
	}
	return funcVal(f), nil
}

// callSite is a call of a module's function: what the errors in its body
// name besides where they are.
type callSite struct {
	f   *syntax.Function
	rng hcl.Range
}

// callUserExprs calls f with the arguments of the call e, each a thunk in
// the caller's scope.
func (sc *scope) callUserExprs(f *syntax.Function, e *hclsyntax.FunctionCallExpr) (cty.Value, hcl.Diagnostics) {
	ev := sc.inst.ev
	args := make([]cty.Value, 0, len(e.Args))
	for i, a := range e.Args {
		if i == len(e.Args)-1 && e.ExpandFinal {
			v, diags := sc.eval(a)
			if diags.HasErrors() {
				return cty.DynamicVal, diags
			}
			v, diags = property.Shallow(v)
			if diags.HasErrors() {
				return cty.DynamicVal, diags
			}
			if !v.IsKnown() {
				return cty.DynamicVal, nil
			}
			if v.IsNull() || !(v.Type().IsTupleType() || v.Type().IsListType() || v.Type().IsSetType()) {
				return cty.DynamicVal, hcl.Diagnostics{{
					Severity: hcl.DiagError,
					Summary:  "Invalid expanding argument value",
					Detail:   "The expanding argument (indicated by ...) must be a list.",
					Subject:  a.Range().Ptr(),
				}}
			}
			for it := v.ElementIterator(); it.Next(); {
				_, el := it.Element()
				args = append(args, el)
			}
			continue
		}
		args = append(args, ev.thunk(a, sc))
	}
	return ev.callUser(f, args, e.Range())
}

// callUser calls a module's function: its result, evaluated in the scope
// of the module that declares it with the parameters bound to args (lazy
// values), forced shallowly. Errors in the body name the call at rng.
func (ev *Evaluator) callUser(f *syntax.Function, args []cty.Value, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	if len(args) < len(f.Params) || (f.Variadic == "" && len(args) > len(f.Params)) {
		want := fmt.Sprintf("%d", len(f.Params))
		if f.Variadic != "" {
			want = fmt.Sprintf("at least %d", len(f.Params))
		}
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Wrong number of arguments",
			Detail:   fmt.Sprintf("Function %s takes %s argument(s), not %d.", f.Signature(), want, len(args)),
			Subject:  rng.Ptr(),
		}}
	}
	if d := ev.checkDepth(rng); d != nil {
		return cty.DynamicVal, hcl.Diagnostics{d}
	}
	// The call's frame and its arguments' thunks count toward the
	// allocation limit as a collection's elements do, so that a
	// branching recursion's memory is bounded by it, not by the time
	// limit alone.
	if d := ev.charge(int64(1+len(args))*allocationPerElement, rng); d != nil {
		return cty.DynamicVal, hcl.Diagnostics{d}
	}
	ev.stats.Calls++
	// While the options are declared (a dynamic block's for_each), there
	// are no options yet: the body reads the module's locals as the
	// expressions read then do.
	var body scope
	if ev.top == nil {
		body = *ev.loadScope(f.Mod)
	} else {
		body = *ev.topScope(f.Mod)
	}
	body.site = &callSite{f: f, rng: rng}
	vars := body.vars
	for i, p := range f.Params {
		vars = &syntax.Binding{Name: p, Value: args[i], Outer: vars}
	}
	if f.Variadic != "" {
		rest := cty.EmptyTupleVal
		if extra := args[len(f.Params):]; len(extra) > 0 {
			rest = ctyelems.TupleVal(extra)
		}
		vars = &syntax.Binding{Name: f.Variadic, Value: rest, Outer: vars}
	}
	body.vars = vars
	ev.push(frame{what: f.FrameName, ref: rng})
	v, diags := body.eval(f.Result)
	if !diags.HasErrors() {
		var d hcl.Diagnostics
		v, d = property.Shallow(v)
		diags = append(diags, d...)
	}
	if !diags.HasErrors() {
		if d := ev.checkValue(v, rng); d != nil {
			diags = append(diags, d)
		}
	}
	if diags.HasErrors() {
		// With the call still on the chain, for --show-trace.
		diags = ev.noteCall(diags, body.site)
		ev.addTrace(diags)
		v = cty.DynamicVal
	}
	ev.pop()
	return v, diags
}

// noteCall adds the call site to the errors in the body of the function
// called there, once: an error in a recursive function names the
// innermost call (--show-trace shows them all).
func (ev *Evaluator) noteCall(diags hcl.Diagnostics, c *callSite) hcl.Diagnostics {
	if c == nil {
		return diags
	}
	body := c.f.Block.Range()
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Severity != hcl.DiagError || d.Subject == nil || ev.calledNote[d] || !within(*d.Subject, body) {
			out = append(out, d)
			continue
		}
		if ev.calledNote == nil {
			ev.calledNote = map[*hcl.Diagnostic]bool{}
		}
		note := fmt.Sprintf("\n\nIn function %s, called at %s.", c.f.Signature(), options.ShowPos(c.rng))
		if d == ev.exhausted {
			// The spent budget's error is one, which every later
			// charge returns and which thunks may have kept: it
			// names the call itself, so that it is reported once.
			d.Detail += note
			ev.calledNote[d] = true
			out = append(out, d)
			continue
		}
		n := *d
		n.Detail += note
		ev.calledNote[&n] = true
		ev.calledNote[d] = true
		out = append(out, &n)
	}
	return out
}

// within reports whether r lies inside outer.
func within(r, outer hcl.Range) bool {
	return r.Filename == outer.Filename && r.Start.Byte >= outer.Start.Byte && r.End.Byte <= outer.End.Byte
}

// registerFunctions registers the modules' functions, which are global to
// an evaluation as submodule types and formats are.
func (ev *Evaluator) registerFunctions(m *syntax.Module) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, f := range m.Functions {
		diags = append(diags, declareOnce(ev.userFuncs, "function", f.Name, f, f.Block)...)
	}
	return diags
}

// FunctionSignatures lists the functions the modules of the evaluation
// declare, by name, each as name(params), for listings and completion.
func (ev *Evaluator) FunctionSignatures() map[string]string {
	out := make(map[string]string, len(ev.userFuncs))
	for n, f := range ev.userFuncs {
		out[n] = f.Signature()
	}
	return out
}

// holdsFunc reports whether a value of type t holds a function value
// (fn.NAME), at the top or inside: each distinct object and tuple type
// inside is looked at once (property.TypeHolds), so a type that shares
// its parts (2^40 of them from 42 lines of locals) is walked in its size.
func holdsFunc(t cty.Type) bool {
	return property.TypeHolds(t, isFuncType)
}

func isFuncType(t cty.Type) bool { return t.IsCapsuleType() && t.Equals(funcType) }

// funcValueDiag is the error for a function value (fn.NAME) at rng where
// a value is needed: what says where.
func funcValueDiag(rng hcl.Range, what string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Function used as a value",
		Detail:   fmt.Sprintf("fn.NAME is a function, which only a call of a module's function or of a function that takes one (sort, sortOn, groupBy, partition, foldl) takes as an argument; it is not %s.", what),
		Subject:  rng.Ptr(),
	}
}
