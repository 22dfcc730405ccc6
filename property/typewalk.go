package property

import (
	"reflect"
	"unsafe"

	"github.com/zclconf/go-cty/cty"
)

// TypeHolds reports whether the type ty is, or holds somewhere inside (an
// attribute, an element, a collection's element type), a type for which
// leaf is true; leaf is asked of every type it looks at, compound ones
// too.
//
// A type shares its parts: the type of an object of two references to one
// value holds that value's type twice, so a chain of 40 such objects (42
// lines of locals) is a tree of 2^40 types. TypeHolds looks at each object
// and tuple type inside once, by identity (the attributes' map or the
// elements' array a type keeps and shares with its copies), so its work
// is bounded by the number of distinct types, not by the tree's size.
func TypeHolds(ty cty.Type, leaf func(cty.Type) bool) bool {
	w := typeWalk{leaf: leaf}
	return w.holds(ty)
}

// typeWalk is TypeHolds' walk: what it found in the object and tuple
// types inside it has looked at, the first few in few (on the stack: most
// walks meet fewer), the others in seen, allocated at the first.
type typeWalk struct {
	leaf func(cty.Type) bool
	few  [fewTypes]typeFound
	nfew int
	seen map[typeIdentity]bool
}

// fewTypes is how many inner types a walk remembers without a map.
const fewTypes = 8

// typeFound is what a walk found in an inner type.
type typeFound struct {
	id   typeIdentity
	held bool
}

// found returns what the walk found in the type id, if it looked at it.
func (w *typeWalk) found(id typeIdentity) (held, ok bool) {
	for _, f := range w.few[:w.nfew] {
		if f.id == id {
			return f.held, true
		}
	}
	held, ok = w.seen[id]
	return held, ok
}

// remember records what the walk found in the type id.
func (w *typeWalk) remember(id typeIdentity, held bool) {
	if w.nfew < fewTypes {
		w.few[w.nfew] = typeFound{id, held}
		w.nfew++
		return
	}
	if w.seen == nil {
		w.seen = map[typeIdentity]bool{}
	}
	w.seen[id] = held
}

// typeIdentity is an object or tuple type's identity.
type typeIdentity struct {
	p unsafe.Pointer
	n int
}

func (w *typeWalk) holds(ty cty.Type) bool {
	if w.leaf(ty) {
		return true
	}
	switch {
	case ty.IsObjectType():
		for _, at := range ty.AttributeTypes() {
			if w.inner(at) {
				return true
			}
		}
		return false
	case ty.IsTupleType():
		for _, et := range ty.TupleElementTypes() {
			if w.inner(et) {
				return true
			}
		}
		return false
	case ty.IsCollectionType():
		return w.holds(ty.ElementType())
	}
	return false
}

// inner is holds of a type inside another: an object or tuple type with
// parts is looked at once.
func (w *typeWalk) inner(ty cty.Type) bool {
	var id typeIdentity
	switch {
	case ty.IsObjectType() && len(ty.AttributeTypes()) > 0:
		id = typeIdentity{reflect.ValueOf(ty.AttributeTypes()).UnsafePointer(), -1}
	case ty.IsTupleType() && len(ty.TupleElementTypes()) > 0:
		et := ty.TupleElementTypes()
		id = typeIdentity{unsafe.Pointer(unsafe.SliceData(et)), len(et)}
	default:
		return w.holds(ty)
	}
	if held, ok := w.found(id); ok {
		return held
	}
	held := w.holds(ty)
	w.remember(id, held)
	return held
}
