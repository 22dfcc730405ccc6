package lib

import (
	"fmt"
	"slices"
	"sync"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/nodegen/nodegen/internal/ctyconv"
)

// natives holds, by function, the specifications of the functions this
// package makes and of the stand-ins for go-cty's (standins.go): Call runs
// them itself. It is filled while the package is initialised (native,
// standIn) and only read afterwards.
var natives = map[function.Function]*function.Spec{}

// native makes the function spec describes and records spec in natives.
// Only the initialisation of package-level variables calls it.
func native(spec *function.Spec) function.Function {
	f := function.New(spec)
	natives[f] = spec
	return f
}

// foreignParams holds the parameters of the functions made elsewhere that
// every evaluation calls (go-cty's stdlib functions of Functions, HCL's
// operators), which function.Function.Params and VarParam copy on every
// call. It is made once, on first use (after the package's init functions
// have filled natives), and only read afterwards: a function made for one
// evaluation (its file()) is not kept, so what a fleet's build holds does
// not grow with its hosts.
var foreignParams = sync.OnceValue(func() map[function.Function]foreignParam {
	m := map[function.Function]foreignParam{}
	add := func(f function.Function) {
		if _, ok := natives[f]; !ok {
			m[f] = foreignParam{params: f.Params(), vp: f.VarParam()}
		}
	}
	for _, f := range Functions() {
		add(f)
	}
	for _, op := range []*hclsyntax.Operation{
		hclsyntax.OpLogicalOr, hclsyntax.OpLogicalAnd, hclsyntax.OpLogicalNot,
		hclsyntax.OpEqual, hclsyntax.OpNotEqual,
		hclsyntax.OpGreaterThan, hclsyntax.OpGreaterThanOrEqual,
		hclsyntax.OpLessThan, hclsyntax.OpLessThanOrEqual,
		hclsyntax.OpAdd, hclsyntax.OpSubtract, hclsyntax.OpMultiply,
		hclsyntax.OpDivide, hclsyntax.OpModulo, hclsyntax.OpNegate,
	} {
		add(op.Impl)
	}
	return m
})

type foreignParam struct {
	params []function.Parameter
	vp     *function.Parameter
}

// foreign returns the parameters of a function made elsewhere.
func foreign(f function.Function) ([]function.Parameter, *function.Parameter) {
	if p, ok := foreignParams()[f]; ok {
		return p.params, p.vp
	}
	return f.Params(), f.VarParam()
}

// Call calls f as an HCL function call expression does: each argument is
// first converted to the type of its parameter (so that a tuple is accepted
// where a list of strings is expected), and a conversion that fails is a
// function.ArgError for that argument. The stdlib functions rely on this
// conversion; function.Function.Call alone does not do it.
//
// A function of this package or one with a stand-in (natives) is run from
// its specification,
// with the rules of function.Function.Call (null and unknown arguments,
// dynamic types, refinements) except marks: nodegen never marks a value,
// and function.Function.Call walks every argument deeply on every call to
// look for marks (cty.Value.ContainsMarked) and rebuilds it without them
// (cty.Value.UnmarkDeep), which for the encoders and systemdunit, whose
// arguments are whole configurations, was a sixth of the evaluation of a
// Kubernetes host. Any other function goes through function.Function.Call,
// go-cty's public API.
func Call(f function.Function, args []cty.Value) (v cty.Value, err error) {
	spec, ok := natives[f]
	if !ok {
		return callChecked(f, args)
	}
	if !arityOK(spec.Params, spec.VarParam, len(args)) {
		return f.Call(args) // says how many arguments it wants
	}
	conv, err := convertArgs(spec.Params, spec.VarParam, args)
	if err != nil {
		return cty.NilVal, err
	}
	unknown := false
	for i, v := range conv {
		p := paramAt(spec, i)
		if v.IsNull() && !p.AllowNull {
			return cty.NilVal, function.NewArgErrorf(i, "argument must not be null")
		}
		if v.Type() == cty.DynamicPseudoType && !p.AllowDynamicType {
			return cty.DynamicVal, nil
		}
		if !v.IsKnown() && !p.AllowUnknown {
			unknown = true
		}
	}
	defer func() {
		if r := recover(); r != nil {
			v, err = cty.NilVal, fmt.Errorf("panic in function implementation: %v", r)
		}
	}()
	ty, err := spec.Type(conv)
	if err != nil {
		return cty.NilVal, err
	}
	if unknown {
		return refined(spec, cty.UnknownVal(ty)), nil
	}
	v, err = spec.Impl(conv, ty)
	if err != nil {
		return cty.NilVal, err
	}
	return refined(spec, v), nil
}

// Params returns f's parameters without copying them each time, as
// function.Function.Params does; the caller must not change them.
func Params(f function.Function) []function.Parameter {
	params, _ := ParamsAndVarParam(f)
	return params
}

// ParamsAndVarParam returns f's parameters and its variadic parameter (nil
// if it has none) without copying them each time, as
// function.Function.Params and VarParam do; the caller must not change
// them.
func ParamsAndVarParam(f function.Function) ([]function.Parameter, *function.Parameter) {
	if spec, ok := natives[f]; ok {
		return spec.Params, spec.VarParam
	}
	return foreign(f)
}

// paramAt is the parameter that takes argument i.
func paramAt(spec *function.Spec, i int) *function.Parameter {
	if i < len(spec.Params) {
		return &spec.Params[i]
	}
	return spec.VarParam
}

// callChecked converts the arguments and calls f through
// function.Function.Call.
func callChecked(f function.Function, args []cty.Value) (cty.Value, error) {
	params, vp := foreign(f)
	if !arityOK(params, vp, len(args)) {
		return f.Call(args)
	}
	conv, err := convertArgs(params, vp, args)
	if err != nil {
		return cty.NilVal, err
	}
	return f.Call(conv)
}

// arityOK reports whether n arguments suit the parameters.
func arityOK(params []function.Parameter, vp *function.Parameter, n int) bool {
	return n >= len(params) && (vp != nil || n == len(params))
}

// convertArgs converts each argument to the type of its parameter; a
// conversion that fails is a function.ArgError for that argument. The
// number of arguments must suit the parameters (arityOK). When no argument
// changes, the result is args itself, not a copy.
func convertArgs(params []function.Parameter, vp *function.Parameter, args []cty.Value) ([]cty.Value, error) {
	var conv []cty.Value
	for i, arg := range args {
		want := vp
		if i < len(params) {
			want = &params[i]
		}
		if want.Type == cty.DynamicPseudoType {
			// What convert.Convert does for this type: nothing.
			continue
		}
		if arg.Type().Equals(want.Type.WithoutOptionalAttributesDeep()) {
			// What convert.Convert returns then: arg itself (which conv[i],
			// if conv is made, already is).
			continue
		}
		v, err := ctyconv.Convert(arg, want.Type)
		if err != nil {
			return nil, function.NewArgError(i, err)
		}
		if conv == nil {
			conv = slices.Clone(args)
		}
		conv[i] = v
	}
	if conv == nil {
		return args, nil
	}
	return conv, nil
}

// refined applies the function's refinements to an unknown result, as
// function.Function.Call does.
func refined(spec *function.Spec, v cty.Value) cty.Value {
	if spec.RefineResult == nil || v == cty.NilVal || v.IsKnown() || v.Type() == cty.DynamicPseudoType {
		return v
	}
	return v.RefineWith(spec.RefineResult)
}
