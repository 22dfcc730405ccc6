package ctyelems

import (
	"reflect"
	"unsafe"

	"github.com/zclconf/go-cty/cty"
)

// ctyType is cty.Type's layout: the interface of its implementation, as
// the two words of any interface that has methods.
type ctyType struct {
	tab  unsafe.Pointer
	data unsafe.Pointer
}

// objectTypeLayout is the layout of go-cty's object type (typeObject):
// its attributes' types and the set of its optional attributes.
type objectTypeLayout struct {
	AttrTypes    map[string]cty.Type
	AttrOptional map[string]struct{}
}

// objectTab is the interface table of go-cty's object type, read from
// cty.EmptyObject; nil when cty.Type or the object type is not laid out as
// ctyType and objectTypeLayout (checked once, by reflection), and then
// ObjectVal is cty.ObjectVal.
var objectTab = implTab(cty.EmptyObject, reflect.TypeOf(objectTypeLayout{}))

// implTab is the interface table of sample's implementation when cty.Type
// is laid out as ctyType and the implementation as layout (its fields of
// those names, types and offsets, and else only go-cty's empty marker);
// nil when either is not.
func implTab(sample cty.Type, layout reflect.Type) unsafe.Pointer {
	if !sameLayout {
		return nil
	}
	t := reflect.TypeOf(cty.Type{})
	if t.Size() != unsafe.Sizeof(ctyType{}) || t.NumField() != 1 || t.Field(0).Type.Kind() != reflect.Interface {
		return nil
	}
	impl := reflect.ValueOf(sample).Field(0).Elem().Type()
	if impl.Kind() != reflect.Struct || impl.Size() != layout.Size() {
		return nil
	}
	for i := range layout.NumField() {
		g := layout.Field(i)
		f, ok := impl.FieldByName(g.Name)
		if !ok || f.Type != g.Type || f.Offset != g.Offset {
			return nil
		}
	}
	for i := range impl.NumField() {
		if f := impl.Field(i); f.Type.Size() != 0 {
			if _, ok := layout.FieldByName(f.Name); !ok {
				return nil
			}
		}
	}
	return (*ctyType)(unsafe.Pointer(&sample)).tab
}

// tupleTypeLayout is the layout of go-cty's tuple type (typeTuple): its
// elements' types.
type tupleTypeLayout struct {
	ElemTypes []cty.Type
}

// tupleTab is the interface table of go-cty's tuple type, read from
// cty.EmptyTuple; nil when it is not laid out as tupleTypeLayout, and
// then TupleVal is cty.TupleVal.
var tupleTab = implTab(cty.EmptyTuple, reflect.TypeOf(tupleTypeLayout{}))

// ObjectVal returns the object value of attrs: the value
// cty.ObjectVal(attrs) returns, built with less work. cty.ObjectVal
// normalizes every name to NFC twice and makes three maps, the object
// type's twice; ObjectVal makes the map of the values, normalizes no ASCII
// name (in NFC already), and takes the type from the shapes built before
// when its attributes are of primitive, dynamic or capsule types (see
// shapeType), else makes its map once. Like cty.ObjectVal, it keeps the
// values (and their marks) as they are, and does not keep attrs.
func ObjectVal(attrs map[string]cty.Value) cty.Value {
	if objectTab == nil {
		return cty.ObjectVal(attrs)
	}
	for name := range attrs {
		if !IsASCII(name) {
			return cty.ObjectVal(attrs)
		}
	}
	vals := make(map[string]any, len(attrs))
	for name, v := range attrs {
		vals[name] = (*ctyValue)(unsafe.Pointer(&v)).v
	}
	var ty cty.Type
	ok := false
	if len(attrs) <= maxShapeAttrs {
		var buf [maxShapeAttrs]shapeAttr
		list := buf[:0]
		for name, v := range attrs {
			list = append(list, shapeAttr{name, v.Type()})
		}
		ty, ok = shapeType(list)
	}
	if !ok {
		types := make(map[string]cty.Type, len(attrs))
		for name, v := range attrs {
			types[name] = v.Type()
		}
		ty = objectType(types)
	}
	return valueOf(ty, vals)
}

// objectType is the object type of the attributes' types, whose names are
// in NFC (objectTab is not nil); it keeps types.
func objectType(types map[string]cty.Type) cty.Type {
	return typeOf(objectTab, unsafe.Pointer(&objectTypeLayout{AttrTypes: types}))
}

// GetAttr returns the attribute name of v, an object: the value
// v.GetAttr(name) returns, read from the maps cty keeps in v without
// normalizing an ASCII name and without looking it up three times. Like
// cty's, it panics when v has no such attribute.
func GetAttr(v cty.Value, name string) cty.Value {
	if sameLayout && IsASCII(name) {
		if vals, ok := (*ctyValue)(unsafe.Pointer(&v)).v.(map[string]any); ok && v.Type().IsObjectType() {
			if ty, ok := v.Type().AttributeTypes()[name]; ok {
				return valueOf(ty, vals[name])
			}
		}
	}
	return v.GetAttr(name)
}

// TupleVal returns the tuple value of elems: the value cty.TupleVal(elems)
// returns, built with less work. cty.TupleVal makes the slice of the
// elements' types and the tuple type afresh; TupleVal takes the type from
// the shapes built before when the elements are of primitive, dynamic or
// capsule types (see tupleShape). Like cty.TupleVal, it keeps the values
// (and their marks) as they are, and does not keep elems.
func TupleVal(elems []cty.Value) cty.Value {
	if tupleTab == nil {
		return cty.TupleVal(elems)
	}
	if len(elems) == 0 {
		return cty.EmptyTupleVal
	}
	ty, ok := tupleShape(elems)
	if !ok {
		types := make([]cty.Type, len(elems))
		for i, e := range elems {
			types[i] = e.Type()
		}
		ty = tupleType(types)
	}
	vals := make([]any, len(elems))
	for i := range elems {
		vals[i] = (*ctyValue)(unsafe.Pointer(&elems[i])).v
	}
	return valueOf(ty, vals)
}

// tupleType is the tuple type of elements of types (tupleTab is not nil);
// it keeps types.
func tupleType(types []cty.Type) cty.Type {
	return typeOf(tupleTab, unsafe.Pointer(&tupleTypeLayout{ElemTypes: types}))
}

// typeOf is the cty.Type whose implementation is at impl, of the
// interface table tab (objectTab or tupleTab, for an implementation laid
// out as that type's layout).
func typeOf(tab, impl unsafe.Pointer) cty.Type {
	var t cty.Type
	*(*ctyType)(unsafe.Pointer(&t)) = ctyType{tab: tab, data: impl}
	return t
}

// valueOf is the cty.Value of type ty whose content is v, as cty keeps it
// (sameLayout is true).
func valueOf(ty cty.Type, v any) cty.Value {
	m := ctyValue{ty: ty, v: v}
	return *(*cty.Value)(unsafe.Pointer(&m))
}
