package ctyelems

import (
	"math/big"
	"reflect"
	"unsafe"

	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/internal/fewmap"
)

// Identity is the identity of a known, unmarked, non-empty object, map,
// tuple or list value: the attributes' map or the elements' array that
// cty keeps in the value and shares with every copy of it, and with every
// value built of it (cty.ObjectVal keeps its attributes' own maps and
// arrays). Two values of one identity are equal; a walk of a value that
// shares itself (an object of two references to one object, forty times
// over, is a tree of 2^40) looks at each identity once.
type Identity struct {
	p unsafe.Pointer
	n int
}

// ctyValue is cty.Value's layout: its type and its content.
type ctyValue struct {
	ty cty.Type
	v  any
}

// sameLayout says whether cty.Value is laid out as ctyValue (checked
// once, by reflection): when it is not, no value has an identity, walks
// go on without sharing, and Int64 reads numbers through AsBigFloat.
var sameLayout = func() bool {
	t, m := reflect.TypeOf(cty.Value{}), reflect.TypeOf(ctyValue{})
	if t.Size() != m.Size() || t.NumField() != m.NumField() {
		return false
	}
	for i := range t.NumField() {
		f, g := t.Field(i), m.Field(i)
		if f.Name != g.Name || f.Type != g.Type || f.Offset != g.Offset {
			return false
		}
	}
	return true
}()

// IdentityOf returns v's identity, false when v has none (see Identity).
func IdentityOf(v cty.Value) (Identity, bool) {
	if !sameLayout || !v.IsKnown() || v.IsNull() || v.IsMarked() {
		return Identity{}, false
	}
	r := reflect.ValueOf((*ctyValue)(unsafe.Pointer(&v)).v)
	switch r.Kind() {
	case reflect.Map:
		if r.Len() > 0 {
			return Identity{r.UnsafePointer(), -1}, true
		}
	case reflect.Slice:
		if r.Len() > 0 {
			return Identity{r.UnsafePointer(), r.Len()}, true
		}
	}
	return Identity{}, false
}

// TreeSize is the number of values in v at every depth, v included, as a
// walk that does not know of sharing (cty's Equals and conversions, the
// encoders) visits them: a value that holds another twice counts it
// twice. It counts up to max and returns max+1 beyond; its own work is
// bounded by the distinct values inside v (each shared one is counted
// once and its count reused). shared says whether v holds some value
// more than once.
func TreeSize(v cty.Value, max int) (n int, shared bool) {
	var w sizeWalk
	w.max = max
	n = w.size(v)
	return n, w.shared
}

type sizeWalk struct {
	max    int
	seen   fewmap.Map[Identity, int] // on the stack while they are few
	shared bool
}

func (w *sizeWalk) size(v cty.Value) int {
	if !v.IsKnown() || v.IsNull() || v.IsMarked() {
		return 1
	}
	ty := v.Type()
	n := 1
	if flat(ty) {
		// No element holds a value of its own: the count is the
		// length, and nothing is shared (cty's List Index, which
		// converts a number, would make a walk of a long list cost
		// far more than its length).
		return min(n+v.LengthInt(), w.max+1)
	}
	// add counts e; it reports false past max.
	add := func(e cty.Value) bool {
		n += w.inner(e)
		return n <= w.max
	}
	switch {
	case ty.IsObjectType():
		for name := range ty.AttributeTypes() {
			if !add(GetAttr(v, name)) {
				return w.max + 1
			}
		}
	case ty.IsTupleType() || ty.IsListType():
		for i := range v.LengthInt() {
			if !add(v.Index(Index(i))) {
				return w.max + 1
			}
		}
	case ty.IsMapType():
		for _, e := range Attrs(v) {
			if !add(e) {
				return w.max + 1
			}
		}
	case ty.IsSetType():
		for _, e := range Elems(v) {
			if !add(e) {
				return w.max + 1
			}
		}
	}
	return min(n, w.max+1)
}

// flat says whether ty is an object, tuple, list, map or set type whose
// attributes or elements are all of primitive types.
func flat(ty cty.Type) bool {
	switch {
	case ty.IsListType(), ty.IsMapType(), ty.IsSetType():
		return ty.ElementType().IsPrimitiveType()
	case ty.IsTupleType():
		for _, t := range ty.TupleElementTypes() {
			if !t.IsPrimitiveType() {
				return false
			}
		}
		return true
	case ty.IsObjectType():
		for _, t := range ty.AttributeTypes() {
			if !t.IsPrimitiveType() {
				return false
			}
		}
		return true
	}
	return false
}

func (w *sizeWalk) inner(v cty.Value) int {
	ty := v.Type()
	if !ty.IsObjectType() && !ty.IsTupleType() && !ty.IsListType() && !ty.IsMapType() {
		return w.size(v)
	}
	id, ok := IdentityOf(v)
	if !ok {
		return w.size(v)
	}
	if n, ok := w.seen.Get(id); ok {
		w.shared = true
		return n
	}
	n := w.size(v)
	w.seen.Set(id, n)
	return n
}

// Int64 returns a known, non-null number v as an int64 when it is a whole
// number in int64's range, as v.AsBigFloat() would give it, without the
// copy of the number that AsBigFloat makes (and allocates) every call: it
// reads the number cty keeps in v, and changes nothing. A value of
// another kind, unknown, null or marked is not a whole number here.
func Int64(v cty.Value) (int64, bool) {
	if v.Type() != cty.Number || !v.IsKnown() || v.IsNull() || v.IsMarked() {
		return 0, false
	}
	var bf *big.Float
	if sameLayout {
		bf, _ = (*ctyValue)(unsafe.Pointer(&v)).v.(*big.Float)
	}
	if bf == nil {
		bf = v.AsBigFloat()
	}
	if !bf.IsInt() {
		return 0, false
	}
	i, acc := bf.Int64()
	if acc != big.Exact {
		return 0, false
	}
	return i, true
}
