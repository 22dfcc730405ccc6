package ctyelems

import (
	"fmt"
	"reflect"
	"runtime"
	"strconv"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// objectCases are attribute maps for ObjectVal and GetAttr: values of
// every kind, marked, unknown and null ones, nested objects, and names
// that are not ASCII (one not in NFC).
var objectCases = []struct {
	name  string
	attrs map[string]cty.Value
}{
	{"empty", map[string]cty.Value{}},
	{"primitives", map[string]cty.Value{"s": cty.StringVal("x"), "n": cty.NumberIntVal(7), "b": cty.True}},
	{"marked", map[string]cty.Value{"secret": cty.StringVal("pw").Mark("sensitive"), "plain": cty.Zero}},
	{"unknown and null", map[string]cty.Value{"u": cty.UnknownVal(cty.String), "n": cty.NullVal(cty.Number), "d": cty.DynamicVal}},
	{"nested", map[string]cty.Value{
		"o": cty.ObjectVal(map[string]cty.Value{"x": cty.ListVal([]cty.Value{cty.StringVal("a")})}),
		"t": cty.TupleVal([]cty.Value{cty.True, cty.EmptyObjectVal}),
		"m": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
	}},
	{"not ASCII", map[string]cty.Value{"caf\u00e9": cty.True, "x": cty.False}},
	{"not NFC", map[string]cty.Value{"cafe\u0301": cty.True}},
}

// TestObjectVal: ObjectVal builds the value cty.ObjectVal builds: equal
// type and value, the same Go syntax, the same JSON, the same conversion
// to a map, and go-cty's own operations on it work.
func TestObjectVal(t *testing.T) {
	if objectTab == nil {
		t.Fatal("go-cty's object type is not laid out as ObjectVal expects: it builds every object with cty.ObjectVal")
	}
	for _, c := range objectCases {
		t.Run(c.name, func(t *testing.T) {
			want, got := cty.ObjectVal(c.attrs), ObjectVal(c.attrs)
			if !got.Type().Equals(want.Type()) || !want.Type().Equals(got.Type()) {
				t.Errorf("type %#v, want %#v", got.Type(), want.Type())
			}
			if !got.RawEquals(want) || !want.RawEquals(got) {
				t.Errorf("value %#v, want %#v", got, want)
			}
			if g, w := got.GoString(), want.GoString(); g != w {
				t.Errorf("GoString %s, want %s", g, w)
			}
			if got.IsWhollyKnown() != want.IsWhollyKnown() || got.ContainsMarked() != want.ContainsMarked() {
				t.Errorf("known %v marked %v, want %v %v", got.IsWhollyKnown(), got.ContainsMarked(), want.IsWhollyKnown(), want.ContainsMarked())
			}
			if !want.IsWhollyKnown() || want.ContainsMarked() {
				return
			}
			gj, err1 := ctyjson.Marshal(got, got.Type())
			wj, err2 := ctyjson.Marshal(want, want.Type())
			if err1 != nil || err2 != nil || string(gj) != string(wj) {
				t.Errorf("JSON %s (%v), want %s (%v)", gj, err1, wj, err2)
			}
			if len(c.attrs) > 0 && c.name != "nested" {
				gm, err1 := convert.Convert(got, cty.Map(cty.DynamicPseudoType))
				wm, err2 := convert.Convert(want, cty.Map(cty.DynamicPseudoType))
				if (err1 == nil) != (err2 == nil) || (err1 == nil && !gm.RawEquals(wm)) {
					t.Errorf("as a map %#v (%v), want %#v (%v)", gm, err1, wm, err2)
				}
			}
		})
	}
}

// TestGetAttr: GetAttr reads every attribute as cty's GetAttr does, of
// objects built either way, marked or unknown ones included.
func TestGetAttr(t *testing.T) {
	for _, c := range objectCases {
		t.Run(c.name, func(t *testing.T) {
			objs := []cty.Value{cty.ObjectVal(c.attrs), ObjectVal(c.attrs), cty.ObjectVal(c.attrs).Mark("m"), cty.UnknownVal(cty.ObjectVal(c.attrs).Type())}
			for _, o := range objs {
				for name := range o.Type().AttributeTypes() {
					got, want := GetAttr(o, name), o.GetAttr(name)
					if !got.RawEquals(want) || !got.Type().Equals(want.Type()) {
						t.Errorf("GetAttr(%#v, %q) = %#v, want %#v", o, name, got, want)
					}
				}
			}
		})
	}
}

// TestGetAttrMissing: GetAttr of an attribute an object does not have
// panics, as cty's does.
func TestGetAttrMissing(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("GetAttr of a missing attribute did not panic")
		}
	}()
	GetAttr(cty.ObjectVal(map[string]cty.Value{"a": cty.True}), "b")
}

// TestObjectValCollected: objects built by ObjectVal stay whole through
// collections (the collector sees their types' maps as go-cty's own).
func TestObjectValCollected(t *testing.T) {
	var objs []cty.Value
	for i := range 1000 {
		objs = append(objs, ObjectVal(map[string]cty.Value{"i": cty.NumberIntVal(int64(i)), "s": cty.StringVal(strconv.Itoa(i))}))
		if i%100 == 0 {
			runtime.GC()
		}
	}
	runtime.GC()
	for i, o := range objs {
		want := cty.ObjectVal(map[string]cty.Value{"i": cty.NumberIntVal(int64(i)), "s": cty.StringVal(strconv.Itoa(i))})
		if !o.RawEquals(want) || !o.Type().Equals(want.Type()) {
			t.Fatalf("object %d is %#v after collections, want %#v", i, o, want)
		}
	}
}

// TestObjectValShapes: objects of one shape share their type, built once
// (the next objects of the shape allocate only their values' map), and
// objects of other shapes (another name, another attribute type, another
// capsule type of the same name, a nested object) do not get it.
func TestObjectValShapes(t *testing.T) {
	capA := cty.Capsule("c", reflect.TypeOf(0))
	capB := cty.Capsule("c", reflect.TypeOf(0))
	one := 1
	attrs := map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.CapsuleVal(capA, &one), "c": cty.DynamicVal}
	first := ObjectVal(attrs)
	for _, other := range []map[string]cty.Value{
		{"a": cty.StringVal("y"), "b": cty.CapsuleVal(capA, &one), "c": cty.NullVal(cty.DynamicPseudoType)},
		{"a": cty.StringVal("x"), "b": cty.CapsuleVal(capA, &one), "d": cty.DynamicVal},
		{"a": cty.NumberIntVal(1), "b": cty.CapsuleVal(capA, &one), "c": cty.DynamicVal},
		{"a": cty.StringVal("x"), "b": cty.CapsuleVal(capB, &one), "c": cty.DynamicVal},
		{"a": cty.StringVal("x"), "b": cty.CapsuleVal(capA, &one), "c": cty.EmptyObjectVal},
		{"a": cty.StringVal("x"), "b": cty.CapsuleVal(capA, &one)},
	} {
		got, want := ObjectVal(other), cty.ObjectVal(other)
		if !got.Type().Equals(want.Type()) || !got.RawEquals(want) {
			t.Errorf("ObjectVal(%#v) = %#v, want %#v", other, got, want)
		}
		same := got.Type().Equals(first.Type())
		if shared := sameTypeMap(got.Type(), first.Type()); shared != same {
			t.Errorf("ObjectVal(%#v): shares the type of %#v: %v; types equal: %v", other, first, shared, same)
		}
	}
	if allocs := testing.AllocsPerRun(100, func() { ObjectVal(attrs) }); allocs > 2 {
		t.Errorf("ObjectVal of a shape it has seen allocates %v times, want at most 2 (the values' map)", allocs)
	}
}

// sameTypeMap says whether a and b, object types, are one type value:
// the map of their attributes' types is the same map.
func sameTypeMap(a, b cty.Type) bool {
	return reflect.ValueOf(a.AttributeTypes()).UnsafePointer() == reflect.ValueOf(b.AttributeTypes()).UnsafePointer()
}

// TestShapesBound: objects of more shapes than are kept, built from two
// goroutines at once, are all right, and the shapes kept stay at
// maxShapes.
func TestShapesBound(t *testing.T) {
	forgetShapesAfter(t)
	errs := make(chan string, 2)
	for g := range 2 {
		go func() {
			defer func() { errs <- "" }()
			for i := range 2 * maxShapes {
				attrs := map[string]cty.Value{"n" + strconv.Itoa(i): cty.NumberIntVal(int64(i)), "g": cty.StringVal(strconv.Itoa(g))}
				if got, want := ObjectVal(attrs), cty.ObjectVal(attrs); !got.RawEquals(want) || !got.Type().Equals(want.Type()) {
					errs <- fmt.Sprintf("ObjectVal(%#v) = %#v, want %#v", attrs, got, want)
					return
				}
			}
		}()
	}
	for range 2 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
	shapes.mu.Lock()
	n, published := shapes.n, len(ptrOr(shapes.published.Load()))
	shapes.mu.Unlock()
	if n != maxShapes || published != maxShapes {
		t.Errorf("%d shapes kept, %d published; want %d", n, published, maxShapes)
	}
}

// TestTupleVal: TupleVal builds the value cty.TupleVal builds, and tuples
// of one shape share their type.
func TestTupleVal(t *testing.T) {
	if tupleTab == nil {
		t.Fatal("go-cty's tuple type is not laid out as TupleVal expects: it builds every tuple with cty.TupleVal")
	}
	capA := cty.Capsule("c", reflect.TypeOf(0))
	one := 1
	long := make([]cty.Value, maxShapeElems+1)
	for i := range long {
		long[i] = cty.StringVal(strconv.Itoa(i))
	}
	for _, elems := range [][]cty.Value{
		nil,
		{},
		{cty.StringVal("a"), cty.StringVal("b")},
		{cty.StringVal("a"), cty.NumberIntVal(1), cty.True, cty.DynamicVal, cty.CapsuleVal(capA, &one)},
		{cty.StringVal("s").Mark("m"), cty.UnknownVal(cty.String), cty.NullVal(cty.Number)},
		{cty.EmptyObjectVal, cty.ListVal([]cty.Value{cty.True})},
		long,
	} {
		got, want := TupleVal(elems), cty.TupleVal(elems)
		if !got.Type().Equals(want.Type()) || !want.Type().Equals(got.Type()) || !got.RawEquals(want) || got.GoString() != want.GoString() {
			t.Errorf("TupleVal(%#v) = %#v, want %#v", elems, got, want)
		}
		if len(elems) > 0 && want.IsWhollyKnown() && !want.ContainsMarked() {
			gj, err1 := ctyjson.Marshal(got, got.Type())
			wj, err2 := ctyjson.Marshal(want, want.Type())
			if err1 != nil || err2 != nil || string(gj) != string(wj) {
				t.Errorf("JSON %s (%v), want %s (%v)", gj, err1, wj, err2)
			}
		}
	}
	a := TupleVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})
	b := TupleVal([]cty.Value{cty.StringVal("c"), cty.StringVal("d")})
	c := TupleVal([]cty.Value{cty.StringVal("c"), cty.NumberIntVal(1)})
	if !sameTupleTypes(a.Type(), b.Type()) || sameTupleTypes(a.Type(), c.Type()) {
		t.Error("tuples of one shape do not share their type, or tuples of two do")
	}
	elems := []cty.Value{cty.StringVal("a"), cty.StringVal("b")}
	// The values' slice, and its header boxed in the value (as in cty's).
	if allocs := testing.AllocsPerRun(100, func() { TupleVal(elems) }); allocs > 2 {
		t.Errorf("TupleVal of a shape it has seen allocates %v times, want 2 (the values' slice and its header)", allocs)
	}
}

// sameTupleTypes says whether a and b, tuple types, are one type value:
// the slice of their elements' types is the same slice.
func sameTupleTypes(a, b cty.Type) bool {
	return &a.TupleElementTypes()[0] == &b.TupleElementTypes()[0]
}

// TestShapesInUsePublished: a shape looked up again and again is read
// without the lock soon, though no new shape comes to publish it.
func TestShapesInUsePublished(t *testing.T) {
	forgetShapesAfter(t)
	attrs := map[string]cty.Value{"inUse": cty.True}
	want := ObjectVal(attrs).Type()
	for range 2 * minPublish {
		ObjectVal(attrs)
	}
	shapes.mu.Lock()
	got, ok := ptrOr(shapes.published.Load())["O"+"B\x05inUse"]
	shapes.mu.Unlock()
	if !ok || !sameTypeMap(got, want) {
		t.Errorf("a shape in use is not published after %d look-ups", 2*minPublish)
	}
}

// forgetShapesAfter has the shapes forgotten when t ends, for the tests
// that fill them or count them.
func forgetShapesAfter(t *testing.T) {
	t.Cleanup(func() {
		shapes.mu.Lock()
		shapes.published.Store(nil)
		shapes.recent, shapes.hits, shapes.n = nil, 0, 0
		shapes.mu.Unlock()
	})
}
