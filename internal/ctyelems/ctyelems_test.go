package ctyelems

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty-debug/ctydebug"
	"github.com/zclconf/go-cty/cty"
)

// element is one element as ElementIterator yields it.
type element struct {
	Key, Value cty.Value
}

func iterated(v cty.Value) []element {
	var out []element
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		out = append(out, element{k, e})
	}
	return out
}

var values = []cty.Value{
	cty.EmptyObjectVal,
	cty.EmptyTupleVal,
	cty.ObjectVal(map[string]cty.Value{"b": cty.True, "a": cty.NumberIntVal(1), "é": cty.StringVal("x"), "B": cty.NullVal(cty.String)}),
	cty.ObjectVal(map[string]cty.Value{"u": cty.UnknownVal(cty.String), "o": cty.ObjectVal(map[string]cty.Value{"x": cty.UnknownVal(cty.Bool)})}),
	cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.True, cty.EmptyObjectVal}),
	cty.ListVal([]cty.Value{cty.StringVal("z"), cty.StringVal("a")}),
	cty.ListVal([]cty.Value{cty.UnknownVal(cty.String)}),
	cty.MapVal(map[string]cty.Value{"z": cty.True, "a": cty.False}),
	cty.SetVal([]cty.Value{cty.StringVal("z"), cty.StringVal("a")}),
	manyAttrs(40),
	manyElems(1500),
}

func manyAttrs(n int) cty.Value {
	attrs := map[string]cty.Value{}
	for i := range n {
		attrs[fmt.Sprintf("k%d", i*7%n)] = cty.NumberIntVal(int64(i))
	}
	return cty.ObjectVal(attrs)
}

func manyElems(n int) cty.Value {
	elems := make([]cty.Value, n)
	for i := range elems {
		elems[i] = cty.NumberIntVal(int64(i))
	}
	return cty.TupleVal(elems)
}

// TestSameAsElementIterator checks that Attrs and Elems yield what
// ElementIterator yields, in its order, and WhollyKnown answers as
// IsWhollyKnown.
func TestSameAsElementIterator(t *testing.T) {
	for _, v := range values {
		t.Run(v.GoString()[:min(60, len(v.GoString()))], func(t *testing.T) {
			want := iterated(v)
			var got []element
			if v.Type().IsObjectType() || v.Type().IsMapType() {
				for k, e := range Attrs(v) {
					got = append(got, element{cty.StringVal(k), e})
				}
			} else {
				for i, e := range Elems(v) {
					k := Index(i)
					if v.Type().IsSetType() {
						k = e
					}
					got = append(got, element{k, e})
				}
			}
			if diff := cmp.Diff(want, got, ctydebug.CmpOptions); diff != "" {
				t.Errorf("elements (-ElementIterator +ours):\n%s", diff)
			}
			if got, want := WhollyKnown(v), v.IsWhollyKnown(); got != want {
				t.Errorf("WhollyKnown = %v, IsWhollyKnown = %v", got, want)
			}
			if ContainsMarked(v) {
				t.Errorf("ContainsMarked = true for an unmarked value")
			}
		})
	}
	for _, v := range []cty.Value{cty.UnknownVal(cty.String), cty.DynamicVal, cty.NullVal(cty.List(cty.String)), cty.StringVal("x")} {
		if got, want := WhollyKnown(v), v.IsWhollyKnown(); got != want {
			t.Errorf("WhollyKnown(%#v) = %v, IsWhollyKnown = %v", v, got, want)
		}
	}
}

// TestContainsMarked checks ContainsMarked against cty's on values marked
// at the top and deep inside objects, tuples, lists, maps and sets.
func TestContainsMarked(t *testing.T) {
	m := cty.StringVal("x").Mark("secret")
	for _, v := range []cty.Value{
		m,
		cty.ObjectVal(map[string]cty.Value{"a": cty.True, "b": cty.ObjectVal(map[string]cty.Value{"c": m})}),
		cty.TupleVal([]cty.Value{cty.True, cty.TupleVal([]cty.Value{m})}),
		cty.ListVal([]cty.Value{cty.StringVal("y"), m}),
		cty.MapVal(map[string]cty.Value{"k": m}),
		cty.SetVal([]cty.Value{m}),
		cty.ObjectVal(map[string]cty.Value{"a": cty.True}).Mark("whole"),
		cty.ObjectVal(map[string]cty.Value{"a": cty.UnknownVal(cty.String), "b": cty.NullVal(cty.String)}),
	} {
		if got, want := ContainsMarked(v), v.ContainsMarked(); got != want {
			t.Errorf("ContainsMarked(%#v) = %v, want %v", v, got, want)
		}
	}
}

// TestStop checks that a loop that breaks stops the iteration.
func TestStop(t *testing.T) {
	n := 0
	for range Attrs(values[2]) {
		n++
		break
	}
	for range Elems(values[4]) {
		n++
		break
	}
	if n != 2 {
		t.Errorf("visited %d elements, want 2", n)
	}
}

// TestNoAllocations checks the point of the package: walking an object of
// up to 32 attributes or a tuple of up to 1024 elements allocates nothing.
func TestNoAllocations(t *testing.T) {
	obj, tuple := manyAttrs(32), manyElems(1024)
	n := 0
	allocs := testing.AllocsPerRun(10, func() {
		for range Attrs(obj) {
			n++
		}
		for range Elems(tuple) {
			n++
		}
		if !WhollyKnown(obj) || !WhollyKnown(tuple) {
			t.Fatal("not wholly known")
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations a walk, want 0", allocs)
	}
}

// TestHasAttr holds HasAttr to cty.Type.HasAttribute, for names in NFC and
// not: "é" written as e and a combining acute accent is the attribute
// "\u00e9" to go-cty.
func TestHasAttr(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"enable": cty.Bool, "\u00e9": cty.String, "": cty.Number})
	for _, name := range []string{"enable", "enabl", "Enable", "", "\u00e9", "e\u0301", "\u00e9x", "\xff"} {
		if got, want := HasAttr(ty, name), ty.HasAttribute(name); got != want {
			t.Errorf("HasAttr(%q) = %v, HasAttribute says %v", name, got, want)
		}
	}
	if !HasAttr(ty, "e\u0301") {
		t.Errorf("HasAttr does not normalize a decomposed name")
	}
}
