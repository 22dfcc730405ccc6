package eval

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/property"
)

// higherOrderFunc is a function that takes a module's function as an
// argument (fn.NAME): the sorting and list functions of nixpkgs' lib.lists
// that NixOS modules call with a lambda. Its list argument is forced
// shallowly only: the elements reach the function as they are, lazy.
type higherOrderFunc struct {
	usage string // the call, as messages show it
	// list and fn are the indexes of the list and function arguments;
	// args is how many arguments it takes.
	list, fn, args int
	run            func(c *hoCall, elems []cty.Value) (cty.Value, hcl.Diagnostics)
}

// higherOrder holds the functions that take a function. sort with one
// argument is the library's sort of strings.
var higherOrder map[string]higherOrderFunc

func init() {
	higherOrder = map[string]higherOrderFunc{
		"sort":      {usage: "sort(list, fn.less)", list: 0, fn: 1, args: 2, run: runSort},
		"sortOn":    {usage: "sortOn(list, fn.key)", list: 0, fn: 1, args: 2, run: runSortOn},
		"groupBy":   {usage: "groupBy(list, fn.key)", list: 0, fn: 1, args: 2, run: runGroupBy},
		"partition": {usage: "partition(list, fn.pred)", list: 0, fn: 1, args: 2, run: runPartition},
		"foldl":     {usage: "foldl(list, initial, fn.op)", list: 0, fn: 2, args: 3, run: runFoldl},
	}
}

// hoCall is one call of a higher-order function.
type hoCall struct {
	sc   *scope
	e    *hclsyntax.FunctionCallExpr
	h    higherOrderFunc
	f    *syntax.Function
	name string
}

// callHigherOrder evaluates a call of a function that takes a function.
func (sc *scope) callHigherOrder(e *hclsyntax.FunctionCallExpr, h higherOrderFunc) (cty.Value, hcl.Diagnostics) {
	if len(e.Args) != h.args || e.ExpandFinal {
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Wrong number of arguments",
			Detail:   fmt.Sprintf("%s takes %d arguments: %s.", e.Name, h.args, h.usage),
			Subject:  e.Range().Ptr(),
		}}
	}
	fv, diags := sc.shallow(e.Args[h.fn])
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	f, ok := asFunc(fv)
	if !ok {
		return cty.DynamicVal, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Not a function",
			Detail:   fmt.Sprintf("Argument %d of %s is a function, as in %s, where a function block declares it, not %s.", h.fn+1, e.Name, h.usage, syntax.DescribeValue(fv)),
			Subject:  e.Args[h.fn].Range().Ptr(),
		})
	}
	lv, d := sc.shallow(e.Args[h.list])
	diags = append(diags, d...)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	if !lv.IsKnown() {
		return cty.DynamicVal, diags
	}
	if lv.IsNull() || !(lv.Type().IsTupleType() || lv.Type().IsListType() || lv.Type().IsSetType()) {
		return cty.DynamicVal, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid argument",
			Detail:   fmt.Sprintf("Argument %d of %s is a list, not %s.", h.list+1, e.Name, syntax.DescribeValue(lv)),
			Subject:  e.Args[h.list].Range().Ptr(),
		})
	}
	var elems []cty.Value
	for it := lv.ElementIterator(); it.Next(); {
		_, el := it.Element()
		elems = append(elems, el)
	}
	v, d := h.run(&hoCall{sc: sc, e: e, h: h, f: f, name: e.Name}, elems)
	return v, append(diags, d...)
}

// shallow evaluates expr and forces its value shallowly.
func (sc *scope) shallow(expr hclsyntax.Expression) (cty.Value, hcl.Diagnostics) {
	v, diags := sc.eval(expr)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	v, d := property.Shallow(v)
	return v, append(diags, d...)
}

// apply calls the function with args and forces the result deeply.
func (c *hoCall) apply(args ...cty.Value) (cty.Value, hcl.Diagnostics) {
	v, diags := c.sc.inst.ev.callUser(c.f, args, c.e.Range())
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	v, d := property.Deep(v)
	return v, append(diags, d...)
}

// applyEach calls the function on each element, in order, up to the
// first that fails.
func (c *hoCall) applyEach(elems []cty.Value) ([]cty.Value, hcl.Diagnostics) {
	out := make([]cty.Value, len(elems))
	var diags hcl.Diagnostics
	for i, el := range elems {
		v, d := c.apply(el)
		diags = append(diags, d...)
		if d.HasErrors() {
			return nil, diags
		}
		out[i] = v
	}
	return out, diags
}

// resultError is the error for a function whose result is not what the
// higher-order function needs (want).
func (c *hoCall) resultError(v cty.Value, want string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid function result",
		Detail:   fmt.Sprintf("%s needs %s to return %s, not %s.", c.name, c.f.Signature(), want, syntax.DescribeValue(v)),
		Subject:  c.e.Args[c.h.fn].Range().Ptr(),
		Context:  c.e.Range().Ptr(),
	}}
}

// applyBool calls a comparison or predicate, which returns true or false.
func (c *hoCall) applyBool(args ...cty.Value) (bool, hcl.Diagnostics) {
	v, diags := c.apply(args...)
	if diags.HasErrors() || !v.IsKnown() {
		return false, diags
	}
	if v.IsNull() || v.Type() != cty.Bool {
		return false, append(diags, c.resultError(v, "true or false")...)
	}
	return v.True(), diags
}

func tupleOf(elems []cty.Value) cty.Value {
	if len(elems) == 0 {
		return cty.EmptyTupleVal
	}
	return ctyelems.TupleVal(elems)
}

// runSort is lib.sort: a stable sort where less(a, b) is true when a
// goes before b.
func runSort(c *hoCall, elems []cty.Value) (cty.Value, hcl.Diagnostics) {
	out := append([]cty.Value(nil), elems...)
	var diags hcl.Diagnostics
	sort.SliceStable(out, func(i, j int) bool {
		if diags.HasErrors() {
			return false
		}
		less, d := c.applyBool(out[i], out[j])
		diags = append(diags, d...)
		return less
	})
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	return tupleOf(out), diags
}

// runSortOn is lib.sortOn: a stable sort by a key computed once for each
// element; keys are numbers, strings, or lists of them compared element by
// element, as Nix's < compares them.
func runSortOn(c *hoCall, elems []cty.Value) (cty.Value, hcl.Diagnostics) {
	type keyed struct{ key, elem cty.Value }
	keys, diags := c.applyEach(elems)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	ks := make([]keyed, len(elems))
	for i, el := range elems {
		ks[i] = keyed{keys[i], el}
	}
	var cmpErr error
	sort.SliceStable(ks, func(i, j int) bool {
		if cmpErr != nil {
			return false
		}
		n, err := compareKeys(ks[i].key, ks[j].key)
		cmpErr = err
		return n < 0
	})
	if cmpErr != nil {
		return cty.DynamicVal, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Keys cannot be compared",
			Detail:   fmt.Sprintf("sortOn compares the keys %s returns: %s.", c.f.Signature(), cmpErr),
			Subject:  c.e.Args[c.h.fn].Range().Ptr(),
			Context:  c.e.Range().Ptr(),
		})
	}
	out := make([]cty.Value, len(ks))
	for i, k := range ks {
		out[i] = k.elem
	}
	return tupleOf(out), diags
}

// compareKeys orders two sort keys: numbers by value, strings by bytes,
// lists element by element (a prefix first).
func compareKeys(a, b cty.Value) (int, error) {
	if !a.IsKnown() || !b.IsKnown() {
		return 0, nil
	}
	if a.IsNull() || b.IsNull() {
		return 0, fmt.Errorf("null is not ordered")
	}
	at, bt := a.Type(), b.Type()
	isList := func(t cty.Type) bool { return t.IsTupleType() || t.IsListType() }
	switch {
	case at == cty.Number && bt == cty.Number:
		return a.AsBigFloat().Cmp(b.AsBigFloat()), nil
	case at == cty.String && bt == cty.String:
		return strings.Compare(a.AsString(), b.AsString()), nil
	case isList(at) && isList(bt):
		as, bs := a.AsValueSlice(), b.AsValueSlice()
		for i := 0; i < len(as) && i < len(bs); i++ {
			if n, err := compareKeys(as[i], bs[i]); err != nil || n != 0 {
				return n, err
			}
		}
		return len(as) - len(bs), nil
	}
	return 0, fmt.Errorf("%s and %s are not ordered against each other (keys are numbers, strings or lists of them)", syntax.DescribeValue(a), syntax.DescribeValue(b))
}

// runGroupBy is lib.groupBy: the elements by the string key the function
// returns, each group in list order.
func runGroupBy(c *hoCall, elems []cty.Value) (cty.Value, hcl.Diagnostics) {
	groups := map[string][]cty.Value{}
	keys, diags := c.applyEach(elems)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	for i, el := range elems {
		k := keys[i]
		if !k.IsKnown() {
			return cty.DynamicVal, diags
		}
		if k.IsNull() || k.Type() != cty.String {
			return cty.DynamicVal, append(diags, c.resultError(k, "a string")...)
		}
		groups[k.AsString()] = append(groups[k.AsString()], el)
	}
	if len(groups) == 0 {
		return cty.EmptyObjectVal, diags
	}
	attrs := make(map[string]cty.Value, len(groups))
	for k, g := range groups {
		attrs[k] = ctyelems.TupleVal(g)
	}
	return ctyelems.ObjectVal(attrs), diags
}

// runPartition is lib.partition: { right = the elements the predicate
// holds for, wrong = the others }, each in list order.
func runPartition(c *hoCall, elems []cty.Value) (cty.Value, hcl.Diagnostics) {
	var right, wrong []cty.Value
	var diags hcl.Diagnostics
	for _, el := range elems {
		ok, d := c.applyBool(el)
		diags = append(diags, d...)
		if d.HasErrors() {
			return cty.DynamicVal, diags
		}
		if ok {
			right = append(right, el)
		} else {
			wrong = append(wrong, el)
		}
	}
	return ctyelems.ObjectVal(map[string]cty.Value{"right": tupleOf(right), "wrong": tupleOf(wrong)}), diags
}

// runFoldl is lib.foldl: op(op(op(initial, x0), x1), ...), from the left.
func runFoldl(c *hoCall, elems []cty.Value) (cty.Value, hcl.Diagnostics) {
	acc := c.sc.inst.ev.thunk(c.e.Args[1], c.sc)
	var diags hcl.Diagnostics
	for _, el := range elems {
		v, d := c.sc.inst.ev.callUser(c.f, []cty.Value{acc, el}, c.e.Range())
		diags = append(diags, d...)
		if d.HasErrors() {
			return cty.DynamicVal, diags
		}
		acc = v
	}
	v, d := property.Shallow(acc)
	return v, append(diags, d...)
}
