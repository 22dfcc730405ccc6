package ctyelems

import (
	"math"
	"math/big"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestIdentityOf: copies of a value, and the attributes of an object
// built of it, share its identity; another value of equal content does
// not; values without parts have none.
func TestIdentityOf(t *testing.T) {
	inner := cty.ObjectVal(map[string]cty.Value{"x": cty.True})
	outer := cty.ObjectVal(map[string]cty.Value{"a": inner, "b": inner})
	tuple := cty.TupleVal([]cty.Value{inner, inner})
	id, ok := IdentityOf(inner)
	if !ok {
		t.Fatal("an object has no identity: cty.Value is not laid out as IdentityOf expects")
	}
	for _, v := range []cty.Value{outer.GetAttr("a"), outer.GetAttr("b"), tuple.Index(cty.NumberIntVal(1))} {
		if got, ok := IdentityOf(v); !ok || got != id {
			t.Errorf("IdentityOf(%#v) = %v, %v; want the identity of the value it was built of", v, got, ok)
		}
	}
	if got, _ := IdentityOf(cty.ObjectVal(map[string]cty.Value{"x": cty.True})); got == id {
		t.Error("two objects made apart share an identity")
	}
	if a, _ := IdentityOf(tuple); a == id {
		t.Error("a tuple has its element's identity")
	}
	for _, v := range []cty.Value{cty.EmptyObjectVal, cty.StringVal("x"), cty.NullVal(cty.DynamicPseudoType), cty.UnknownVal(cty.String), cty.EmptyTupleVal} {
		if _, ok := IdentityOf(v); ok {
			t.Errorf("IdentityOf(%#v) has an identity", v)
		}
	}
}

// TestWalksOfSharedValues: WhollyKnown and ContainsMarked of a value that
// holds one object 2^60 times over answer at once, and see an unknown or
// a mark at the bottom.
func TestWalksOfSharedValues(t *testing.T) {
	chain := func(leaf cty.Value) cty.Value {
		v := cty.ObjectVal(map[string]cty.Value{"leaf": leaf})
		for range 60 {
			v = cty.ObjectVal(map[string]cty.Value{"a": v, "b": v})
		}
		return cty.TupleVal([]cty.Value{v, v})
	}
	if !WhollyKnown(chain(cty.True)) || WhollyKnown(chain(cty.UnknownVal(cty.Bool))) {
		t.Error("WhollyKnown of a shared value is wrong")
	}
	if ContainsMarked(chain(cty.True)) || !ContainsMarked(chain(cty.True.Mark("m"))) {
		t.Error("ContainsMarked of a shared value is wrong")
	}
}

// TestTreeSize: the size of a value as a walk that knows nothing of
// sharing sees it, counted in the work of the distinct values.
func TestTreeSize(t *testing.T) {
	leaf := cty.ObjectVal(map[string]cty.Value{"x": cty.True})
	v := leaf
	for range 60 {
		v = cty.ObjectVal(map[string]cty.Value{"a": v, "b": v})
	}
	// cty's MapVal compares its elements' types, a walk of 2^depth: a
	// chain short enough for that.
	w := leaf
	for range 16 {
		w = cty.ObjectVal(map[string]cty.Value{"a": w, "b": w})
	}
	tests := []struct {
		name   string
		v      cty.Value
		max    int
		want   int
		shared bool
	}{
		{"a string", cty.StringVal("x"), 10, 1, false},
		{"an object", leaf, 10, 2, false},
		{"a tuple of two", cty.TupleVal([]cty.Value{leaf, leaf}), 10, 5, true},
		{"a tuple of two alike", cty.TupleVal([]cty.Value{leaf, cty.ObjectVal(map[string]cty.Value{"x": cty.True})}), 10, 5, false},
		{"a map", cty.MapVal(map[string]cty.Value{"a": cty.True, "b": cty.True}), 10, 3, false},
		{"2^61 values, over", v, 1 << 20, 1<<20 + 1, true},
		{"a list of it", cty.ListVal([]cty.Value{v}), 1000, 1001, true},
		// Collections of primitives are counted by their length.
		{"a list of strings", cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b"), cty.StringVal("c")}), 10, 4, false},
		{"a list of strings, over", cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b"), cty.StringVal("c")}), 2, 3, false},
		{"a tuple of primitives with a null", cty.TupleVal([]cty.Value{cty.True, cty.NullVal(cty.String), cty.NumberIntVal(1)}), 10, 4, false},
		{"an object of primitives", cty.ObjectVal(map[string]cty.Value{"a": cty.True, "b": cty.StringVal("x")}), 10, 3, false},
		{"an object with a list", cty.ObjectVal(map[string]cty.Value{"a": cty.True, "l": cty.ListVal([]cty.Value{cty.True, cty.False})}), 10, 5, false},
		// Maps and sets of values that hold others are walked as the
		// encoders walk them.
		{"a map of objects", cty.MapVal(map[string]cty.Value{"a": leaf, "b": leaf}), 10, 5, true},
		{"a map of 2 * 2^17 values", cty.MapVal(map[string]cty.Value{"a": w, "b": w}), 1000, 1001, true},
		{"a set of objects", cty.SetVal([]cty.Value{leaf, cty.ObjectVal(map[string]cty.Value{"x": cty.False})}), 10, 5, false},
		{"a set of strings", cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}), 10, 3, false},
	}
	for _, tt := range tests {
		if got, shared := TreeSize(tt.v, tt.max); got != tt.want || shared != tt.shared {
			t.Errorf("%s: TreeSize = %d, %v; want %d, %v", tt.name, got, shared, tt.want, tt.shared)
		}
	}
}

// TestInt64: Int64 gives what v.AsBigFloat().Int64() gives for the whole
// numbers in int64's range, and no number for any other value, and it
// leaves the number in v as it was.
func TestInt64(t *testing.T) {
	huge, _ := new(big.Float).SetString("1e30")
	tests := []struct {
		v      cty.Value
		want   int64
		wantOK bool
	}{
		{cty.NumberIntVal(0), 0, true},
		{cty.NumberIntVal(8080), 8080, true},
		{cty.NumberIntVal(-3), -3, true},
		{cty.NumberIntVal(math.MaxInt64), math.MaxInt64, true},
		{cty.NumberIntVal(math.MinInt64), math.MinInt64, true},
		{cty.NumberFloatVal(2.0), 2, true},
		{cty.MustParseNumberVal("12.0"), 12, true},
		{cty.NumberFloatVal(2.5), 0, false},
		{cty.MustParseNumberVal("9223372036854775808"), 0, false}, // MaxInt64+1
		{cty.NumberVal(huge), 0, false},
		{cty.PositiveInfinity, 0, false},
		{cty.UnknownVal(cty.Number), 0, false},
		{cty.NullVal(cty.Number), 0, false},
		{cty.NumberIntVal(7).Mark("secret"), 0, false},
		{cty.StringVal("7"), 0, false},
		{cty.True, 0, false},
		{cty.DynamicVal, 0, false},
	}
	for _, tt := range tests {
		var before string
		if tt.v.Type() == cty.Number && tt.v.IsKnown() && !tt.v.IsNull() && !tt.v.IsMarked() {
			before = tt.v.AsBigFloat().Text('g', -1)
		}
		got, ok := Int64(tt.v)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("Int64(%#v) = %d, %v; want %d, %v", tt.v, got, ok, tt.want, tt.wantOK)
		}
		if before != "" {
			if after := tt.v.AsBigFloat().Text('g', -1); after != before {
				t.Errorf("Int64(%#v) changed the number from %s to %s", tt.v, before, after)
			}
			bf := tt.v.AsBigFloat()
			i, acc := bf.Int64()
			if wantOK := bf.IsInt() && acc == big.Exact; ok != wantOK || (ok && got != i) {
				t.Errorf("Int64(%#v) = %d, %v; AsBigFloat gives %d, %v", tt.v, got, ok, i, wantOK)
			}
		}
	}
}
