package eval

import (
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/lib"
	"github.com/nodegen/nodegen/property"
)

// structureFuncs are the functions that read only the structure of their
// argument: its keys, its length, or its elements without their contents.
var structureFuncs = map[string]bool{"keys": true, "length": true, "values": true}

// keysTupler is a reference that keeps keys() of itself as a value: the
// hosts of a fleet, whose names every host that reads them shares, so
// that a fleet of N hosts does not make the list N times.
type keysTupler interface {
	keysTuple() cty.Value
}

// structure evaluates keys(), length() or values() of a value without
// forcing what they do not read, as Nix's attrNames, length and attrValues
// do: the keys of an attrsOf(submodule) value come without any option of
// its instances, and values() gives the instances still lazy. done is false
// when the argument holds nothing lazy; v is then the argument deeply
// forced, for the ordinary call.
func (sc *scope) structure(name string, arg hclsyntax.Expression) (v cty.Value, done bool, diags hcl.Diagnostics) {
	v, diags = sc.eval(arg)
	if !diags.HasErrors() {
		var d hcl.Diagnostics
		v, d = property.Shallow(v)
		diags = append(diags, d...)
	}
	if diags.HasErrors() {
		return cty.DynamicVal, true, diags
	}
	var keys []string
	var elems []cty.Value
	switch r, isRef := property.AsRef(v); {
	case isRef && name == "keys":
		if kt, ok := r.(keysTupler); ok {
			return kt.keysTuple(), true, diags
		}
		ks, d := r.Keys()
		diags = append(diags, d...)
		if d.HasErrors() {
			return cty.DynamicVal, true, diags
		}
		// As keys() of an object of these keys gives them: sorted, once
		// each.
		return lib.KeysTuple(slices.Compact(slices.Sorted(slices.Values(ks)))), true, diags
	case isRef:
		ks, d := r.Keys()
		diags = append(diags, d...)
		if d.HasErrors() {
			return cty.DynamicVal, true, diags
		}
		keys = ks
		if name == "values" {
			for _, k := range ks {
				e, _, d := r.Attr(k, arg.Range())
				diags = append(diags, d...)
				elems = append(elems, e)
			}
		}
	case v.IsKnown() && !v.IsNull() && property.NeedsDeep(v.Type()) &&
		(v.Type().IsObjectType() || v.Type().IsMapType() || (name == "length" && (v.Type().IsTupleType() || v.Type().IsListType()))):
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if k.Type() == cty.String {
				keys = append(keys, k.AsString())
			} else {
				keys = append(keys, "")
			}
			elems = append(elems, e)
		}
		if !v.Type().IsObjectType() && !v.Type().IsMapType() {
			return cty.NumberIntVal(int64(len(elems))), true, diags
		}
	default:
		dv, d := property.Deep(v)
		return dv, false, append(diags, d...)
	}
	if name == "values" {
		if len(elems) == 0 {
			return cty.EmptyTupleVal, true, diags
		}
		return ctyelems.TupleVal(elems), true, diags
	}
	// keys() and length() of an object: the library's function on an
	// object of the same keys, so that the result is the same.
	shape := make(map[string]cty.Value, len(keys))
	for _, k := range keys {
		shape[k] = cty.True
	}
	fn, _ := sc.inst.ev.function(sc.mod, name)
	out, err := callFunction(fn, []cty.Value{ctyelems.ObjectVal(shape)})
	if err != nil {
		return cty.DynamicVal, true, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Error in function call",
			Detail:   "Call to function \"" + name + "\" failed: " + err.Error() + ".",
			Subject:  arg.Range().Ptr(),
		})
	}
	return out, true, diags
}
