package lib

import (
	"errors"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/nodegen/nodegen/internal/ctyelems"
)

// LengthFunc is length(v), as in Terraform: the number of characters
// (grapheme clusters) of a string, the number of elements of a list, set or
// tuple, or the number of keys of a map or object. The stdlib's length
// accepts only collections and tuples.
var LengthFunc = native(&function.Spec{
	Description: "Returns the length of a string, or the number of elements of a list, set, tuple, map or object.",
	Params: []function.Parameter{
		{Name: "value", Type: cty.DynamicPseudoType},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if ty == cty.String || ty.IsCollectionType() || ty.IsTupleType() || ty.IsObjectType() {
			return cty.Number, nil
		}
		return cty.NilType, function.NewArgErrorf(0, "argument must be a string, a list, a set, a tuple, a map or an object, not %s", ty.FriendlyName())
	},
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v := args[0]
		switch ty := v.Type(); {
		case ty == cty.String:
			// In ASCII text every byte is a grapheme cluster except
			// CR LF, which is one: no need for the grapheme scanner.
			if s := v.AsString(); ctyelems.IsASCII(s) {
				return ctyelems.Index(len(s) - strings.Count(s, "\r\n")), nil
			}
			return stdlib.Strlen(v)
		case ty.IsObjectType():
			return ctyelems.Index(len(ty.AttributeTypes())), nil
		case ty.IsTupleType():
			return ctyelems.Index(ty.Length()), nil
		case ty.IsListType() || ty.IsMapType():
			// The number values of small lengths are shared, not made
			// anew (cty.Value.Length makes one). The value is known:
			// the parameter does not take unknown values.
			return ctyelems.Index(v.LengthInt()), nil
		default:
			return v.Length(), nil
		}
	},
})

// IndexFunc is index(list, value), as in Terraform: the index of the first
// element of list that equals value. It is an error if there is none.
// (The stdlib's IndexFunc is something else: the element at a key.)
var IndexFunc = native(&function.Spec{
	Description: "Returns the index of the first element of the given list or tuple that equals the given value.",
	Params: []function.Parameter{
		{Name: "list", Type: cty.DynamicPseudoType},
		{Name: "value", Type: cty.DynamicPseudoType, AllowNull: true},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if !ty.IsListType() && !ty.IsTupleType() {
			return cty.NilType, function.NewArgErrorf(0, "argument must be a list or a tuple, not %s", ty.FriendlyName())
		}
		return cty.Number, nil
	},
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		for it := args[0].ElementIterator(); it.Next(); {
			i, e := it.Element()
			eq, err := stdlib.Equal(e, args[1])
			if err != nil {
				return cty.NilVal, err
			}
			if !eq.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			if eq.True() {
				return i, nil
			}
		}
		return cty.NilVal, function.NewArgErrorf(1, "the value is not in the list")
	},
})

// AllTrueFunc is alltrue(list): whether every element of a list of bools is
// true; true for an empty list. A null element counts as false.
var AllTrueFunc = native(&function.Spec{
	Description: "Returns true if all elements of the given list are true, or if the list is empty.",
	Params: []function.Parameter{
		{Name: "list", Type: cty.List(cty.Bool)},
	},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return allAny(args[0], false), nil
	},
})

// AnyTrueFunc is anytrue(list): whether some element of a list of bools is
// true; false for an empty list. A null element counts as false.
var AnyTrueFunc = native(&function.Spec{
	Description: "Returns true if any element of the given list is true, and false if none is or the list is empty.",
	Params: []function.Parameter{
		{Name: "list", Type: cty.List(cty.Bool)},
	},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return allAny(args[0], true), nil
	},
})

// allAny computes alltrue (stopAt false) or anytrue (stopAt true): the
// result is stopAt as soon as an element is stopAt, and !stopAt if none is.
// A null element is false; an unknown one makes the result unknown unless
// a later element decides it.
func allAny(list cty.Value, stopAt bool) cty.Value {
	unknown := false
	for _, e := range ctyelems.Elems(list) {
		switch {
		case !e.IsKnown():
			unknown = true
		case (!e.IsNull() && e.True()) == stopAt:
			return cty.BoolVal(stopAt)
		}
	}
	if unknown {
		return cty.UnknownVal(cty.Bool)
	}
	return cty.BoolVal(!stopAt)
}

// SumFunc is sum(list): the sum of a list, set or tuple of numbers. Unlike
// Terraform's, the sum of an empty list is 0 rather than an error, since in
// a module system lists are often empty after mkIf.
var SumFunc = native(&function.Spec{
	Description: "Returns the sum of the numbers in the given list, set or tuple; 0 if it is empty.",
	Params: []function.Parameter{
		{Name: "list", Type: cty.DynamicPseudoType},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if !ty.IsListType() && !ty.IsSetType() && !ty.IsTupleType() {
			return cty.NilType, function.NewArgErrorf(0, "argument must be a list, a set or a tuple of numbers, not %s", ty.FriendlyName())
		}
		return cty.Number, nil
	},
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		if !ctyelems.WhollyKnown(args[0]) {
			return cty.UnknownVal(cty.Number), nil
		}
		sum := cty.Zero
		i := 0
		for it := args[0].ElementIterator(); it.Next(); i++ {
			_, e := it.Element()
			if e.IsNull() {
				return cty.NilVal, function.NewArgErrorf(0, "element %d is null", i)
			}
			n, err := convert.Convert(e, cty.Number)
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(0, "element %d must be a number, not %s", i, e.Type().FriendlyName())
			}
			sum = sum.Add(n)
		}
		return sum, nil
	},
})

// TransposeFunc is transpose(map), as in Terraform: it swaps the keys and
// the values of a map of lists of strings, so that {a = ["x", "y"], b =
// ["x"]} becomes {x = ["a", "b"], y = ["a"]}. Each new list is in the order
// of the original keys.
var TransposeFunc = native(&function.Spec{
	Description: "Swaps the keys and the list values of a map of lists of strings.",
	Params: []function.Parameter{
		{Name: "values", Type: cty.Map(cty.List(cty.String))},
	},
	Type:         function.StaticReturnType(cty.Map(cty.List(cty.String))),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		if !ctyelems.WhollyKnown(args[0]) {
			return cty.UnknownVal(retType), nil
		}
		out := map[string][]cty.Value{}
		for it := args[0].ElementIterator(); it.Next(); {
			k, list := it.Element()
			if list.IsNull() {
				return cty.NilVal, function.NewArgErrorf(0, "the list of %q is null", k.AsString())
			}
			for _, v := range ctyelems.Elems(list) {
				if v.IsNull() {
					return cty.NilVal, function.NewArgErrorf(0, "the list of %q contains null", k.AsString())
				}
				out[v.AsString()] = append(out[v.AsString()], k)
			}
		}
		if len(out) == 0 {
			return cty.MapValEmpty(cty.List(cty.String)), nil
		}
		m := make(map[string]cty.Value, len(out))
		for k, ks := range out {
			m[k] = cty.ListVal(ks)
		}
		return cty.MapVal(m), nil
	},
})

// CoalesceFunc is coalesce(vals...), as in Terraform: the first argument
// that is neither null nor the empty string. The arguments must share a
// type (after conversion); it is an error if all are null or empty. (The
// stdlib's coalesce returns the empty string.)
var CoalesceFunc = native(&function.Spec{
	Description: "Returns the first of the given arguments that is neither null nor an empty string.",
	Params:      []function.Parameter{},
	VarParam: &function.Parameter{
		Name:             "vals",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowDynamicType: true,
		AllowNull:        true,
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		if len(args) == 0 {
			return cty.NilType, errors.New("at least one argument is required")
		}
		tys := make([]cty.Type, len(args))
		for i, v := range args {
			tys[i] = v.Type()
		}
		ty, _ := convert.UnifyUnsafe(tys)
		if ty == cty.NilType {
			return cty.NilType, errors.New("all arguments must have the same type")
		}
		return ty, nil
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		for _, v := range args {
			v, err := convert.Convert(v, retType) // cannot fail: Type unified
			if err != nil {
				return cty.NilVal, err
			}
			if !v.IsKnown() {
				return cty.UnknownVal(retType), nil
			}
			if v.IsNull() || (retType == cty.String && v.AsString() == "") {
				continue
			}
			return v, nil
		}
		return cty.NilVal, errors.New("no argument is neither null nor an empty string")
	},
})
