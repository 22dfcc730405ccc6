package property

import (
	"fmt"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestTypeHolds checks TypeHolds against a plain recursive walk, on types
// with fewer inner object and tuple types than a walk remembers without
// a map and with more, some repeated, with the leaf in the first or in
// the last of them.
func TestTypeHolds(t *testing.T) {
	isBool := func(ty cty.Type) bool { return ty == cty.Bool }
	var plain func(ty cty.Type) bool
	plain = func(ty cty.Type) bool {
		switch {
		case isBool(ty):
			return true
		case ty.IsObjectType():
			for _, at := range ty.AttributeTypes() {
				if plain(at) {
					return true
				}
			}
		case ty.IsTupleType():
			for _, et := range ty.TupleElementTypes() {
				if plain(et) {
					return true
				}
			}
		case ty.IsCollectionType():
			return plain(ty.ElementType())
		}
		return false
	}
	// inner is n distinct object types, one holding leaf at position at
	// (-1: none), each also a tuple of itself and a string.
	inner := func(n, at int, leaf cty.Type) []cty.Type {
		out := make([]cty.Type, n)
		for i := range out {
			ty := cty.String
			if i == at {
				ty = leaf
			}
			obj := cty.Object(map[string]cty.Type{fmt.Sprintf("a%d", i): ty, "s": cty.Number})
			out[i] = cty.Tuple([]cty.Type{obj, cty.String, obj})
		}
		return out
	}
	tests := []struct {
		name string
		ty   cty.Type
	}{
		{"a bool", cty.Bool},
		{"a string", cty.String},
		{"a list of bools", cty.List(cty.Bool)},
		{"an empty object", cty.EmptyObject},
		{"few, none", cty.Tuple(inner(3, -1, cty.Bool))},
		{"few, the last", cty.Tuple(inner(3, 2, cty.Bool))},
		{"many, none", cty.Tuple(inner(30, -1, cty.Bool))},
		{"many, the first", cty.Tuple(inner(30, 0, cty.Bool))},
		{"many, the last", cty.Tuple(inner(30, 29, cty.Bool))},
		{"many, deep in a map", cty.Map(cty.Tuple(inner(20, 19, cty.List(cty.Bool))))},
		{"many repeated, none", cty.Tuple(append(inner(12, -1, cty.Bool), inner(12, -1, cty.Bool)...))},
		{"many repeated, then the leaf", cty.Tuple(append(inner(12, -1, cty.Bool), inner(13, 12, cty.Bool)...))},
	}
	for _, tt := range tests {
		if got, want := TypeHolds(tt.ty, isBool), plain(tt.ty); got != want {
			t.Errorf("%s: TypeHolds = %v, want %v", tt.name, got, want)
		}
	}
}
