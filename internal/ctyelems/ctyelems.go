// Package ctyelems visits the elements of cty values without the
// allocations of cty.Value.ElementIterator.
//
// ElementIterator allocates the iterator, a sorted copy of an object's
// attribute names, and a key value for every element it yields: a string
// value for an attribute, a big.Float for an index. The evaluator walks
// objects and tuples everywhere (deep forcing, merging, for expressions),
// so those were a fifth of the objects an evaluation allocated. Attrs and
// Elems yield the same elements in the same order with none of that,
// except for maps and sets, which have no cheaper accessor and go through
// ElementIterator.
//
// The values visited must be known and unmarked, as for ElementIterator.
//
// The package also reads and builds values the way cty does, with less
// work where go-cty's layout allows it (checked once, by reflection, with
// cty's own functions as the fallback): the identity of a value's parts
// (IdentityOf), a whole number (Int64), an object's attribute (GetAttr),
// and objects and tuples built of their parts (ObjectVal, TupleVal).
package ctyelems

import (
	"iter"
	"slices"
	"sync"

	"github.com/zclconf/go-cty/cty"
)

// Attrs yields the attributes of v, an object or a map, in the order of
// their names (as ElementIterator does): the name and the value.
func Attrs(v cty.Value) iter.Seq2[string, cty.Value] {
	return func(yield func(string, cty.Value) bool) { attrs(v, yield) }
}

// maxStackNames is how many attribute names attrs sorts without
// allocating.
const maxStackNames = 32

func attrs(v cty.Value, yield func(string, cty.Value) bool) {
	ty := v.Type()
	if !ty.IsObjectType() {
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if !yield(k.AsString(), e) {
				return
			}
		}
		return
	}
	atys := ty.AttributeTypes()
	var buf [maxStackNames]string
	names := buf[:0]
	if len(atys) > maxStackNames {
		names = make([]string, 0, len(atys))
	}
	for name := range atys {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if !yield(name, GetAttr(v, name)) {
			return
		}
	}
}

// Elems yields the elements of v, a tuple, a list or a set, in order
// (the order of ElementIterator for a set): the index and the value.
func Elems(v cty.Value) iter.Seq2[int, cty.Value] {
	return func(yield func(int, cty.Value) bool) { elems(v, yield) }
}

func elems(v cty.Value, yield func(int, cty.Value) bool) {
	ty := v.Type()
	if !ty.IsTupleType() && !ty.IsListType() {
		i := 0
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			if !yield(i, e) {
				return
			}
			i++
		}
		return
	}
	for i := range v.LengthInt() {
		if !yield(i, v.Index(Index(i))) {
			return
		}
	}
}

// indexes are the number values of the first indexes, made once, when
// first asked for (not at every start: 2,000 allocations): a number value
// is a big.Float, two allocations.
var indexes = sync.OnceValue(func() []cty.Value {
	out := make([]cty.Value, maxSharedIndex)
	for i := range out {
		out[i] = cty.NumberIntVal(int64(i))
	}
	return out
})

// maxSharedIndex is how many indexes are shared.
const maxSharedIndex = 1024

// Index returns the number value of i, an index: the same value as
// cty.NumberIntVal(i), shared rather than allocated for the first
// indexes. Values are immutable, so sharing them is safe.
func Index(i int) cty.Value {
	if i >= 0 && i < maxSharedIndex {
		return indexes()[i]
	}
	return cty.NumberIntVal(int64(i))
}

// IsASCII reports whether s is all ASCII (and so in Unicode NFC, as go-cty
// keeps every string).
func IsASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// HasAttr reports whether ty, an object type, has the attribute name:
// cty.Type.HasAttribute without normalizing an ASCII name, which is in NFC
// already. go-cty normalizes the name at every call (golang.org/x/text's
// NFC check, some hundreds of instructions for any string), and the
// evaluator asks for every step of every traversal.
func HasAttr(ty cty.Type, name string) bool {
	if !IsASCII(name) {
		return ty.HasAttribute(name)
	}
	_, ok := ty.AttributeTypes()[name]
	return ok
}

// WhollyKnown reports whether v is known and, if it is a collection or a
// structure, so is every element at every depth: cty.Value.IsWhollyKnown
// without an iterator and key values for every element. A value inside
// that v shares (the same object twice, 2^40 times from 42 lines) is
// looked at once (IdentityOf).
func WhollyKnown(v cty.Value) bool {
	var w sharedWalk
	return w.walk(v, whollyKnownStep)
}

func whollyKnownStep(v cty.Value) (bool, bool) {
	if !v.IsKnown() {
		return false, true
	}
	if v.IsNull() {
		return true, true
	}
	ty := v.Type()
	if ty.IsMapType() || ty.IsSetType() {
		return v.IsWhollyKnown(), true
	}
	return true, false
}

// ContainsMarked reports whether v or any value inside it is marked:
// cty.Value.ContainsMarked without an iterator and key values for every
// element. Callers that must unmark values (cty.Value.UnmarkDeep, which
// rebuilds every collection) can skip that for the values nodegen makes,
// which are never marked. A value inside that v shares is looked at once.
func ContainsMarked(v cty.Value) bool {
	var w sharedWalk
	return !w.walk(v, unmarkedStep)
}

func unmarkedStep(v cty.Value) (bool, bool) {
	if v.IsMarked() {
		return false, true
	}
	if !v.IsKnown() || v.IsNull() {
		return true, true
	}
	ty := v.Type()
	if ty.IsMapType() || ty.IsSetType() {
		return !v.ContainsMarked(), true
	}
	return true, false
}

// sharedWalk checks that every value inside one, at every depth, passes a
// step, looking at each object, tuple or list inside that it shares once.
type sharedWalk struct {
	passed map[Identity]bool
}

// walk reports whether v and every value inside it pass step, which
// returns whether a value passes and whether that is the answer for it
// (else the values inside are looked at: an object's attributes, a tuple's
// or list's elements).
func (w *sharedWalk) walk(v cty.Value, step func(cty.Value) (bool, bool)) bool {
	ok, done := step(v)
	if done || !ok {
		return ok
	}
	ty := v.Type()
	switch {
	case ty.IsObjectType():
		for name := range ty.AttributeTypes() {
			if !w.inner(GetAttr(v, name), step) {
				return false
			}
		}
	case ty.IsTupleType() || ty.IsListType():
		for i := range v.LengthInt() {
			if !w.inner(v.Index(Index(i)), step) {
				return false
			}
		}
	}
	return true
}

// inner is walk of a value inside another: one with parts is looked at
// once.
func (w *sharedWalk) inner(v cty.Value, step func(cty.Value) (bool, bool)) bool {
	ty := v.Type()
	if !ty.IsObjectType() && !ty.IsTupleType() && !ty.IsListType() {
		return w.walk(v, step)
	}
	id, ok := IdentityOf(v)
	if !ok {
		return w.walk(v, step)
	}
	if w.passed[id] {
		return true
	}
	if !w.walk(v, step) {
		return false
	}
	if w.passed == nil {
		w.passed = map[Identity]bool{}
	}
	w.passed[id] = true
	return true
}

// Unmarked returns v without its marks at any depth: v itself when it has
// none (see ContainsMarked), else cty.Value.UnmarkDeep's result.
func Unmarked(v cty.Value) cty.Value {
	if ContainsMarked(v) {
		v, _ = v.UnmarkDeep()
	}
	return v
}
