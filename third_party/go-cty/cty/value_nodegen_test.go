package cty

import "testing"

// TestObjectValNodegenPatch checks nodegen's patches to ObjectVal and
// GetAttr: an object value's type is the type Object makes of the same
// attributes, names in and out of NFC, and its attributes are found by
// names in either form.
func TestObjectValNodegenPatch(t *testing.T) {
	decomposed, composed := "caf\u0065\u0301", "caf\u00e9"
	v := ObjectVal(map[string]Value{
		"name":     StringVal("kubelet"),
		decomposed: NumberIntVal(1),
		"empty":    EmptyObjectVal,
	})
	want := Object(map[string]Type{"name": String, composed: Number, "empty": EmptyObject})
	if !v.Type().Equals(want) {
		t.Fatalf("type %#v, want %#v", v.Type(), want)
	}
	if v.Type().OptionalAttributes() != nil {
		t.Errorf("optional attributes %#v, want none", v.Type().OptionalAttributes())
	}
	for _, name := range []string{decomposed, composed} {
		if got := v.GetAttr(name); !got.RawEquals(NumberIntVal(1)) {
			t.Errorf("GetAttr(%q) = %#v", name, got)
		}
	}
	if got := v.GetAttr("name"); !got.RawEquals(StringVal("kubelet")) {
		t.Errorf("GetAttr(name) = %#v", got)
	}
	if got := UnknownVal(want).GetAttr(decomposed); !got.RawEquals(UnknownVal(Number)) {
		t.Errorf("unknown GetAttr = %#v", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("GetAttr of a missing attribute did not panic")
		}
	}()
	v.GetAttr("missing")
}
