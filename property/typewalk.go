package property

import (
	"reflect"
	"unsafe"

	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/internal/fewmap"
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

// typeWalk is TypeHolds' walk: seen is what it found in the object and
// tuple types inside it has looked at (on the stack while they are few).
type typeWalk struct {
	leaf func(cty.Type) bool
	seen fewmap.Map[typeIdentity, bool]
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
	if held, ok := w.seen.Get(id); ok {
		return held
	}
	held := w.holds(ty)
	w.seen.Set(id, held)
	return held
}
