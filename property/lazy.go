package property

import (
	"reflect"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/internal/ctyelems"
)

// Lazy is a value that has not been computed yet: a thunk. The evaluator
// creates one for every attribute of an object constructor, every element of
// a tuple constructor, every local and every argument of mkIf, so that a
// value is computed only when something needs it, as in Nix.
//
// Force computes the value once and memoises it, together with its
// diagnostics. The result is never itself a Lazy, but it may contain Lazy
// values inside (an object's attributes, a tuple's elements).
type Lazy interface {
	Force() (cty.Value, hcl.Diagnostics)
	// Range is the source range of the expression behind the thunk.
	Range() hcl.Range
}

// DeepForcer is implemented by Lazy values that memoise their deep-forced
// value as well (see Deep).
type DeepForcer interface {
	ForceDeep() (cty.Value, hcl.Diagnostics)
}

// Ref is a lazy view of a configuration namespace: the top-level config, a
// namespace inside it, or a submodule instance. Reading one attribute forces
// only that attribute.
type Ref interface {
	// Attr returns the value of one attribute. ok is false when the
	// namespace has no such attribute; the diagnostics then say so, with rng
	// as their subject.
	Attr(name string, rng hcl.Range) (v cty.Value, ok bool, diags hcl.Diagnostics)
	// Keys lists the attribute names that have a value, sorted.
	Keys() ([]string, hcl.Diagnostics)
	// Materialize returns the whole namespace as a plain value: an object of
	// every attribute, deeply forced. An option without a value is an
	// error, as reading it is.
	Materialize() (cty.Value, hcl.Diagnostics)
}

// PartialRef is a Ref that can also be materialized leaving out the
// options that have no value (for a listing of the whole configuration,
// which shows what is set).
type PartialRef interface {
	Ref
	MaterializePartial() (cty.Value, hcl.Diagnostics)
}

// LazyType is the capsule type of thunks.
var LazyType = cty.Capsule("lazy value", reflect.TypeOf((*Lazy)(nil)).Elem())

// RefType is the capsule type of namespace references.
var RefType = cty.Capsule("configuration namespace", reflect.TypeOf((*Ref)(nil)).Elem())

// LazyVal wraps a thunk as a cty value.
func LazyVal(l Lazy) cty.Value { return cty.CapsuleVal(LazyType, &l) }

// LazyValAt wraps the thunk *p as a cty value without copying it: a thunk
// that keeps itself in a field of its own (p pointing there) becomes a
// value with no allocation beyond the thunk.
func LazyValAt(p *Lazy) cty.Value { return cty.CapsuleVal(LazyType, p) }

// RefVal wraps a namespace reference as a cty value.
func RefVal(r Ref) cty.Value { return cty.CapsuleVal(RefType, &r) }

// AsLazy returns the thunk inside v, if v is one.
func AsLazy(v cty.Value) (Lazy, bool) {
	if v.Type() != LazyType || !v.IsKnown() || v.IsNull() {
		return nil, false
	}
	return *(v.EncapsulatedValue().(*Lazy)), true
}

// AsRef returns the namespace reference inside v, if v is one.
func AsRef(v cty.Value) (Ref, bool) {
	if v.Type() != RefType || !v.IsKnown() || v.IsNull() {
		return nil, false
	}
	return *(v.EncapsulatedValue().(*Ref)), true
}

// Shallow forces thunks until the value is not a thunk. The result may still
// be a Ref, a Property, or a collection holding thunks.
func Shallow(v cty.Value) (cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	for {
		l, ok := AsLazy(v)
		if !ok {
			return v, diags
		}
		var d hcl.Diagnostics
		v, d = l.Force()
		diags = append(diags, d...)
	}
}

// Deep forces v completely: thunks are forced, references materialized and
// collections rebuilt from forced elements, so that the result is a plain
// cty value that ordinary cty operations accept. Properties (mkIf and co.)
// are left in place: a caller that does not expect them rejects them.
func Deep(v cty.Value) (cty.Value, hcl.Diagnostics) { return deep(v, false) }

// DeepPartial is Deep that materializes the references that are a
// PartialRef partially: without the options that have no value.
func DeepPartial(v cty.Value) (cty.Value, hcl.Diagnostics) { return deep(v, true) }

func deep(v cty.Value, partial bool) (cty.Value, hcl.Diagnostics) {
	if l, ok := AsLazy(v); ok && !partial {
		if d, ok := l.(DeepForcer); ok {
			return d.ForceDeep()
		}
	}
	v, diags := Shallow(v)
	if r, ok := AsRef(v); ok {
		var m cty.Value
		var d hcl.Diagnostics
		if pr, ok := r.(PartialRef); ok && partial {
			m, d = pr.MaterializePartial()
		} else {
			m, d = r.Materialize()
		}
		return m, append(diags, d...)
	}
	if !v.IsKnown() || v.IsNull() || !NeedsDeep(v.Type()) {
		return v, diags
	}
	ty := v.Type()
	// Maps become objects and lists and sets tuples: their forced
	// elements need not share a type.
	switch {
	case ty.IsObjectType() || ty.IsMapType():
		attrs := make(map[string]cty.Value, v.LengthInt())
		for k, e := range ctyelems.Attrs(v) {
			e, d := deep(e, partial)
			diags = append(diags, d...)
			attrs[k] = e
		}
		return ctyelems.ObjectVal(attrs), diags
	case ty.IsTupleType() || ty.IsListType() || ty.IsSetType():
		elems := make([]cty.Value, 0, v.LengthInt())
		for _, e := range ctyelems.Elems(v) {
			e, d := deep(e, partial)
			diags = append(diags, d...)
			elems = append(elems, e)
		}
		return ctyelems.TupleVal(elems), diags
	}
	return v, diags
}

// NeedsDeep reports whether a value of type ty may hold thunks or
// references somewhere inside, so that Deep has work to do. It looks at
// each distinct object and tuple type inside once (TypeHolds).
func NeedsDeep(ty cty.Type) bool {
	return TypeHolds(ty, needsDeepLeaf)
}

func needsDeepLeaf(ty cty.Type) bool {
	return ty == LazyType || ty == RefType || ty == cty.DynamicPseudoType
}

// RangeOf returns the source range a value came from: a thunk's or a
// property's own range, else fallback.
func RangeOf(v cty.Value, fallback hcl.Range) hcl.Range {
	if l, ok := AsLazy(v); ok {
		return l.Range()
	}
	if p, ok := AsProperty(v); ok {
		return p.Range
	}
	return fallback
}

// Forced is a thunk that already has its value: it gives a plain value a
// source range.
type Forced struct {
	Value cty.Value
	Rng   hcl.Range
}

// ForcedVal is LazyVal(&Forced{Value: v, Rng: rng}) in one allocation.
func ForcedVal(v cty.Value, rng hcl.Range) cty.Value {
	b := &forcedBox{Forced: Forced{Value: v, Rng: rng}}
	b.self = &b.Forced
	return LazyValAt(&b.self)
}

// forcedBox is a Forced with the interface value that wraps it.
type forcedBox struct {
	Forced
	self Lazy
}

// Force returns the value.
func (f *Forced) Force() (cty.Value, hcl.Diagnostics) { return f.Value, nil }

// Range returns the source range.
func (f *Forced) Range() hcl.Range { return f.Rng }
