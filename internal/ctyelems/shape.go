package ctyelems

import (
	"encoding/binary"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/zclconf/go-cty/cty"
)

// The shapes of objects and tuples: the object types built so far, by the
// names and types of their attributes, for those whose attributes are all
// of primitive, dynamic or capsule types (the objects of thunks the
// evaluator builds for every block and object constructor, and most
// objects of the values it forces), and the tuple types, by the types of
// their elements, likewise. Types are immutable, so the values of one
// shape share one.
//
// A look-up reads the published map without a lock; a shape not in it is
// looked for in recent, under mu, and added there. recent is published (a
// new map of both) once it holds as many shapes as the published map, or
// once it has been looked up as many times: each shape is copied a
// bounded number of times in all (a run with the collector off keeps
// every copy), and the shapes in use are soon read without the lock (two
// evaluations side by side would wait on each other).
//
// The shapes are at most maxShapes, of at most maxShapeAttrs attributes
// or maxShapeElems elements and maxShapeKey bytes of key: a bound on the
// memory whatever the values. A fleet of workers takes some 360 shapes;
// vs-nix's 1000 generated modules fill them.
var shapes struct {
	published atomic.Pointer[map[string]cty.Type]
	mu        sync.Mutex
	recent    map[string]cty.Type // shapes added since the last publication
	hits      int                 // look-ups that found a shape in recent
	n         int                 // shapes kept, published and recent
}

const (
	maxShapes     = 1024
	maxShapeKey   = 512
	maxShapeAttrs = 16
	// maxShapeElems is how many elements the tuples kept have at most.
	maxShapeElems = 64
	// minPublish is how many recent shapes are published at least.
	minPublish = 16
)

// shapeAttr is an attribute's name and type.
type shapeAttr struct {
	name string
	ty   cty.Type
}

// shapeType returns the object type of attrs, at most maxShapeAttrs
// whose names are in NFC and distinct, from the shapes, adding it when
// there is room; false when attrs has no shape kept (see shapes). It
// sorts attrs by name.
func shapeType(attrs []shapeAttr) (cty.Type, bool) {
	slices.SortFunc(attrs, func(a, b shapeAttr) int { return strings.Compare(a.name, b.name) })
	var buf [maxShapeKey]byte
	key := append(buf[:0], 'O')
	for _, a := range attrs {
		var ok bool
		if key, ok = appendTypeKey(key, a.ty); !ok {
			return cty.NilType, false
		}
		key = binary.AppendUvarint(key, uint64(len(a.name)))
		key = append(key, a.name...)
		if len(key) > maxShapeKey {
			return cty.NilType, false
		}
	}
	return shapeOf(key, func() cty.Type {
		types := make(map[string]cty.Type, len(attrs))
		for _, a := range attrs {
			types[a.name] = a.ty
		}
		return objectType(types)
	}), true
}

// tupleShape returns the tuple type of elements of the types elems holds,
// from the shapes, adding it when there is room; false when it has no
// shape kept (see shapes).
func tupleShape(elems []cty.Value) (cty.Type, bool) {
	if len(elems) > maxShapeElems {
		return cty.NilType, false
	}
	var buf [maxShapeKey]byte
	key := append(buf[:0], 'T')
	for _, e := range elems {
		var ok bool
		if key, ok = appendTypeKey(key, e.Type()); !ok || len(key) > maxShapeKey {
			return cty.NilType, false
		}
	}
	return shapeOf(key, func() cty.Type {
		types := make([]cty.Type, len(elems))
		for i, e := range elems {
			types[i] = e.Type()
		}
		return tupleType(types)
	}), true
}

// shapeOf returns the type of the shape of key, built by build and kept
// when it is not yet and there is room.
func shapeOf(key []byte, build func() cty.Type) cty.Type {
	published := ptrOr(shapes.published.Load())
	if t, ok := published[string(key)]; ok {
		return t
	}
	shapes.mu.Lock()
	defer shapes.mu.Unlock()
	// The map read before the lock may be stale: publications happen
	// under mu, and may have taken the shape out of recent.
	published = ptrOr(shapes.published.Load())
	if t, ok := published[string(key)]; ok {
		return t
	}
	enough := max(minPublish, len(published))
	if t, ok := shapes.recent[string(key)]; ok {
		if shapes.hits++; shapes.hits >= enough {
			publish(published)
		}
		return t
	}
	t := build()
	if shapes.n >= maxShapes {
		return t
	}
	if shapes.recent == nil {
		shapes.recent = map[string]cty.Type{}
	}
	shapes.recent[string(key)] = t
	shapes.n++
	if len(shapes.recent) >= enough || shapes.n == maxShapes {
		publish(published)
	}
	return t
}

// publish publishes the published shapes and the recent ones, as one new
// map; shapes.mu is held.
func publish(published map[string]cty.Type) {
	m := make(map[string]cty.Type, len(published)+len(shapes.recent))
	maps.Copy(m, published)
	maps.Copy(m, shapes.recent)
	shapes.published.Store(&m)
	shapes.recent, shapes.hits = nil, 0
}

// ptrOr is *m, or nil when m is nil.
func ptrOr(m *map[string]cty.Type) map[string]cty.Type {
	if m == nil {
		return nil
	}
	return *m
}

// appendTypeKey appends to key the encoding of ty: a letter for a
// primitive or the dynamic type, and for a capsule type the address
// go-cty keeps it at, which a shape keeps alive; false for a type of
// another kind.
func appendTypeKey(key []byte, ty cty.Type) ([]byte, bool) {
	switch {
	case ty == cty.String:
		return append(key, 'S'), true
	case ty == cty.Number:
		return append(key, 'N'), true
	case ty == cty.Bool:
		return append(key, 'B'), true
	case ty == cty.DynamicPseudoType:
		return append(key, 'D'), true
	case ty.IsCapsuleType():
		key = append(key, 'C')
		return binary.LittleEndian.AppendUint64(key, uint64(uintptr((*ctyType)(unsafe.Pointer(&ty)).data))), true
	}
	return key, false
}
