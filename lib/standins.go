package lib

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/nodegen/nodegen/internal/ctyelems"
)

// Stand-ins are nodegen's own specifications of go-cty stdlib functions
// that modules call often, with large arguments, kept in natives under the
// go-cty function they stand in for, so that Call runs them without the
// search for marks of function.Function.Call, which walks every argument
// deeply (x != null on a whole attribute set, merge of two of them). Each
// has go-cty's parameters, read through function.Function.Params, and
// computes what go-cty's computes (TestStandIns compares them);
// nodegen marks no value, so they ignore marks.
//
// HCL's logical operators and comparisons are go-cty functions (the Impl of
// an hclsyntax.Operation) that call one cty.Value method; upper, contains,
// distinct, merge and concat follow go-cty's code (distinct compares with
// cty.Value.Equals where go-cty calls its own equality function, through
// function.Function.Call, for every pair).
func init() {
	standIn(stdlib.EqualFunc, func(a []cty.Value) cty.Value { return a[0].Equals(a[1]) })
	standIn(stdlib.NotEqualFunc, func(a []cty.Value) cty.Value { return a[0].Equals(a[1]).Not() })
	standIn(stdlib.NotFunc, func(a []cty.Value) cty.Value { return a[0].Not() })
	standIn(stdlib.AndFunc, func(a []cty.Value) cty.Value { return a[0].And(a[1]) })
	standIn(stdlib.OrFunc, func(a []cty.Value) cty.Value { return a[0].Or(a[1]) })
	standIn(stdlib.GreaterThanFunc, func(a []cty.Value) cty.Value { return a[0].GreaterThan(a[1]) })
	standIn(stdlib.GreaterThanOrEqualToFunc, func(a []cty.Value) cty.Value { return a[0].GreaterThanOrEqualTo(a[1]) })
	standIn(stdlib.LessThanFunc, func(a []cty.Value) cty.Value { return a[0].LessThan(a[1]) })
	standIn(stdlib.LessThanOrEqualToFunc, func(a []cty.Value) cty.Value { return a[0].LessThanOrEqualTo(a[1]) })
	natives[stdlib.UpperFunc] = &function.Spec{
		Description:  stdlib.UpperFunc.Description(),
		Params:       stdlib.UpperFunc.Params(),
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.StringVal(strings.ToUpper(args[0].AsString())), nil
		},
	}
	natives[stdlib.ContainsFunc] = &function.Spec{
		Description:  stdlib.ContainsFunc.Description(),
		Params:       stdlib.ContainsFunc.Params(),
		Type:         function.StaticReturnType(cty.Bool),
		RefineResult: refineNotNull,
		Impl:         containsImpl,
	}
	natives[stdlib.DistinctFunc] = &function.Spec{
		Description:  stdlib.DistinctFunc.Description(),
		Params:       stdlib.DistinctFunc.Params(),
		Type:         func(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil },
		RefineResult: refineNotNull,
		Impl:         distinctImpl,
	}
	natives[stdlib.MergeFunc] = &function.Spec{
		Description:  stdlib.MergeFunc.Description(),
		VarParam:     stdlib.MergeFunc.VarParam(),
		Type:         mergeType,
		RefineResult: refineNotNull,
		Impl:         mergeImpl,
	}
	natives[stdlib.FlattenFunc] = &function.Spec{
		Description:  stdlib.FlattenFunc.Description(),
		Params:       stdlib.FlattenFunc.Params(),
		Type:         flattenType,
		RefineResult: refineNotNull,
		Impl:         flattenImpl,
	}
	natives[stdlib.ConcatFunc] = &function.Spec{
		Description:  stdlib.ConcatFunc.Description(),
		VarParam:     stdlib.ConcatFunc.VarParam(),
		Type:         concatType,
		RefineResult: refineNotNull,
		Impl:         concatImpl,
	}
	natives[stdlib.JoinFunc] = &function.Spec{
		Description:  stdlib.JoinFunc.Description(),
		Params:       stdlib.JoinFunc.Params(),
		VarParam:     stdlib.JoinFunc.VarParam(),
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl:         joinImpl,
	}
	natives[stdlib.KeysFunc] = &function.Spec{
		Description:  stdlib.KeysFunc.Description(),
		Params:       stdlib.KeysFunc.Params(),
		Type:         keysType,
		RefineResult: refineNotNull,
		Impl:         keysImpl,
	}
}

// joinImpl is go-cty's JoinFunc: the strings of every list, separated by
// the first argument.
func joinImpl(args []cty.Value, _ cty.Type) (cty.Value, error) {
	sep := args[0].AsString()
	lists := args[1:]
	if len(lists) < 1 {
		return cty.UnknownVal(cty.String), fmt.Errorf("at least one list is required")
	}
	n := 0
	for _, list := range lists {
		if !ctyelems.WhollyKnown(list) {
			return cty.UnknownVal(cty.String), nil
		}
		n += list.LengthInt()
	}
	items := make([]string, 0, n)
	for li, list := range lists {
		for i, v := range ctyelems.Elems(list) {
			if v.IsNull() {
				if len(lists) > 1 {
					return cty.UnknownVal(cty.String), function.NewArgErrorf(li+1, "element %d of list %d is null; cannot concatenate null values", i, li+1)
				}
				return cty.UnknownVal(cty.String), function.NewArgErrorf(li+1, "element %d is null; cannot concatenate null values", i)
			}
			items = append(items, v.AsString())
		}
	}
	return cty.StringVal(strings.Join(items, sep)), nil
}

// keysType is the result type of go-cty's KeysFunc: a list of strings for
// a map, a tuple of as many strings as attributes for an object.
func keysType(args []cty.Value) (cty.Type, error) {
	ty := args[0].Type()
	switch {
	case ty.IsMapType():
		return cty.List(cty.String), nil
	case ty.IsObjectType():
		atys := ty.AttributeTypes()
		if len(atys) == 0 {
			return cty.EmptyTuple, nil
		}
		etys := make([]cty.Type, len(atys))
		for i := range etys {
			etys[i] = cty.String
		}
		return cty.Tuple(etys), nil
	}
	return cty.DynamicPseudoType, function.NewArgErrorf(0, "must have map or object type")
}

// keysImpl is go-cty's KeysFunc: the keys of a map or the attribute names
// of an object (known even when the object is not), sorted.
// KeysTuple is what keys() gives for an object whose attribute names,
// sorted, are names: a tuple of those strings, the empty tuple for none.
// The evaluator gives keys() of a lazy value (whose keys it knows without
// an object) with it, so that the two are the same.
func KeysTuple(names []string) cty.Value {
	if len(names) == 0 {
		return cty.EmptyTupleVal
	}
	keys := make([]cty.Value, len(names))
	for i, name := range names {
		keys[i] = cty.StringVal(name)
	}
	return ctyelems.TupleVal(keys)
}

func keysImpl(args []cty.Value, retType cty.Type) (cty.Value, error) {
	m := args[0]
	if m.Type().IsObjectType() {
		return KeysTuple(slices.Sorted(maps.Keys(m.Type().AttributeTypes()))), nil
	}
	if !m.IsKnown() {
		return cty.UnknownVal(retType), nil
	}
	var keys []cty.Value
	for k := range ctyelems.Attrs(m) {
		keys = append(keys, cty.StringVal(k))
	}
	if len(keys) == 0 {
		return cty.ListValEmpty(cty.String), nil
	}
	return cty.ListVal(keys), nil
}

// standIn records in natives a specification that stands in for the
// go-cty function f, a boolean operator computed by op.
func standIn(f function.Function, op func([]cty.Value) cty.Value) {
	natives[f] = &function.Spec{
		Description:  f.Description(),
		Params:       f.Params(),
		VarParam:     f.VarParam(),
		Type:         function.StaticReturnType(cty.Bool),
		RefineResult: refineNotNull,
		Impl:         func(args []cty.Value, _ cty.Type) (cty.Value, error) { return op(args), nil },
	}
}

// mergeType is the result type of merge, as go-cty's MergeFunc computes
// it: the type of the arguments when they all have the same, else an
// object of every attribute (or map key) met.
func mergeType(args []cty.Value) (cty.Type, error) {
	if len(args) == 0 {
		return cty.EmptyObject, nil
	}
	attrs := map[string]cty.Type{}
	first := cty.NilType
	matching, attrsKnown := true, true
	for i, arg := range args {
		ty := arg.Type()
		if ty.Equals(cty.DynamicPseudoType) {
			return cty.DynamicPseudoType, nil
		}
		switch {
		case ty.IsObjectType():
			if arg.IsNull() {
				ty = cty.EmptyObject // a null object has no attributes
			}
			maps.Copy(attrs, ty.AttributeTypes())
		case ty.IsMapType():
			switch {
			case arg.IsNull():
			case arg.IsKnown():
				ety := ty.ElementType()
				for it := arg.ElementIterator(); it.Next(); {
					k, _ := it.Element()
					attrs[k.AsString()] = ety
				}
			default:
				attrsKnown = false
			}
		default:
			return cty.NilType, fmt.Errorf("arguments must be maps or objects, got %#v", ty.FriendlyName())
		}
		if i == 0 {
			first = ty
		} else if matching && !ty.Equals(first) {
			matching = false
		}
	}
	switch {
	case matching:
		return first, nil
	case !attrsKnown:
		return cty.DynamicPseudoType, nil
	}
	return cty.Object(attrs), nil
}

// mergeImpl merges maps or objects, the last one's attribute winning.
func mergeImpl(args []cty.Value, retType cty.Type) (cty.Value, error) {
	out := make(map[string]cty.Value)
	for _, arg := range args {
		if arg.IsNull() {
			continue
		}
		for k, v := range ctyelems.Attrs(arg) {
			out[k] = v
		}
	}
	switch {
	case retType.IsMapType():
		if len(out) == 0 {
			return cty.MapValEmpty(retType.ElementType()), nil
		}
		return cty.MapVal(out), nil
	case retType.IsObjectType(), retType.Equals(cty.DynamicPseudoType):
		return ctyelems.ObjectVal(out), nil
	}
	panic(fmt.Sprintf("unexpected return type: %#v", retType))
}

// concatType is the result type of concat, as go-cty's ConcatFunc computes
// it: a list when every argument is a list and their types unify, else a
// tuple of every element.
func concatType(args []cty.Value) (cty.Type, error) {
	if len(args) == 0 {
		return cty.NilType, fmt.Errorf("at least one argument is required")
	}
	if args[0].Type().IsListType() {
		tys := make([]cty.Type, len(args))
		for i, v := range args {
			if !v.Type().IsListType() {
				tys = nil
				break
			}
			tys[i] = v.Type()
		}
		if tys != nil {
			if common, _ := convert.UnifyUnsafe(tys); common != cty.NilType {
				return common, nil
			}
		}
	}
	etys := make([]cty.Type, 0, len(args))
	for i, v := range args {
		ty := v.Type()
		switch {
		case ty.IsTupleType():
			etys = append(etys, ty.TupleElementTypes()...)
		case ty.IsListType():
			if !v.IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			for range v.LengthInt() {
				etys = append(etys, ty.ElementType())
			}
		default:
			return cty.NilType, function.NewArgErrorf(i, "all arguments must be lists or tuples; got %s", ty.FriendlyName())
		}
	}
	return cty.Tuple(etys), nil
}

// concatImpl concatenates lists or tuples.
func concatImpl(args []cty.Value, retType cty.Type) (cty.Value, error) {
	vals := make([]cty.Value, 0, len(args))
	for i, seq := range args {
		if retType.IsListType() {
			var err error
			if seq, err = convert.Convert(seq, retType); err != nil {
				return cty.NilVal, function.NewArgError(i, err)
			}
		}
		for _, v := range ctyelems.Elems(seq) {
			vals = append(vals, v)
		}
	}
	switch {
	case retType.IsListType():
		if len(vals) == 0 {
			return cty.ListValEmpty(retType.ElementType()), nil
		}
		return cty.ListVal(vals), nil
	case retType.IsTupleType():
		return ctyelems.TupleVal(vals), nil
	}
	panic("unsupported return type")
}

// flattenType is the result type of flatten, as go-cty's FlattenFunc
// computes it: a tuple of the types of the elements flattened, once the
// argument is wholly known.
func flattenType(args []cty.Value) (cty.Type, error) {
	if !ctyelems.WhollyKnown(args[0]) {
		return cty.DynamicPseudoType, nil
	}
	ty := args[0].Type()
	if !ty.IsListType() && !ty.IsSetType() && !ty.IsTupleType() {
		return cty.NilType, errors.New("can only flatten lists, sets and tuples")
	}
	out, known := flatten(args[0], nil)
	if !known {
		return cty.DynamicPseudoType, nil
	}
	tys := make([]cty.Type, len(out))
	for i, v := range out {
		tys[i] = v.Type()
	}
	return cty.Tuple(tys), nil
}

// flattenImpl is flatten(list), as go-cty's FlattenFunc: the elements of
// list, and of the lists, sets and tuples in it at any depth, in order.
// go-cty's walks its argument with cty's element iterators, which make
// a number value for every index of a list or tuple (two allocations
// each), three times per call (IsWhollyKnown, then once for the type and
// once for the value): a fleet's worker made nearly a tenth of its
// objects there. This one walks as often, with ctyelems, which makes
// none.
func flattenImpl(args []cty.Value, retType cty.Type) (cty.Value, error) {
	if args[0].LengthInt() == 0 {
		return cty.EmptyTupleVal, nil
	}
	out, known := flatten(args[0], nil)
	if !known {
		return cty.UnknownVal(retType), nil
	}
	return ctyelems.TupleVal(out), nil
}

// flatten appends the elements of v flattened to out, as go-cty's
// flattener: known is false when an element is DynamicVal or an unknown
// list, set or tuple, or v is a set whose length is not known.
func flatten(v cty.Value, out []cty.Value) (_ []cty.Value, known bool) {
	if v.Type().IsSetType() && !v.Length().IsKnown() {
		return out, false
	}
	for _, e := range ctyelems.Elems(v) {
		if e == cty.DynamicVal {
			return out, false
		}
		if ety := e.Type(); !e.IsNull() && (ety.IsListType() || ety.IsSetType() || ety.IsTupleType()) {
			if !e.IsKnown() {
				return out, false
			}
			if out, known = flatten(e, out); !known {
				return out, false
			}
			continue
		}
		out = append(out, e)
	}
	return out, true
}

// containsImpl is contains(list, value), as go-cty's ContainsFunc.
func containsImpl(args []cty.Value, _ cty.Type) (cty.Value, error) {
	list, val := args[0], args[1]
	ty := list.Type()
	switch {
	case !ty.IsListType() && !ty.IsTupleType() && !ty.IsSetType():
		return cty.NilVal, errors.New("argument must be list, tuple, or set")
	case list.IsNull():
		return cty.NilVal, errors.New("cannot search a nil list or set")
	case list.LengthInt() == 0:
		return cty.False, nil
	case !list.IsKnown() || !val.IsKnown():
		return cty.UnknownVal(cty.Bool), nil
	}
	unknown := false
	for _, e := range ctyelems.Elems(list) {
		eq := val.Equals(e)
		if !eq.IsKnown() {
			unknown = true // an unknown may still match
			continue
		}
		if eq.True() {
			return cty.True, nil
		}
	}
	if unknown {
		return cty.UnknownVal(cty.Bool), nil
	}
	return cty.False, nil
}

// distinctImpl is distinct(list), as go-cty's DistinctFunc: the elements
// in order, without those equal to an earlier one.
func distinctImpl(args []cty.Value, retType cty.Type) (cty.Value, error) {
	list := args[0]
	if !ctyelems.WhollyKnown(list) {
		return cty.UnknownVal(retType), nil
	}
	var out []cty.Value
next:
	for _, v := range ctyelems.Elems(list) {
		for _, seen := range out {
			if seen.Equals(v).True() {
				continue next
			}
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return cty.ListValEmpty(retType.ElementType()), nil
	}
	return cty.ListVal(out), nil
}
