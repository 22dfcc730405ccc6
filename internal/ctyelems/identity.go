package ctyelems

import (
	"reflect"
	"unsafe"

	"github.com/zclconf/go-cty/cty"
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
// once, by reflection): when it is not, no value has an identity, and
// walks go on without sharing.
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
