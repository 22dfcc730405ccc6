package property

import (
	"reflect"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Priorities of definitions, as in NixOS: the lowest number wins.
const (
	PriorityForce         = 50   // mkForce
	PriorityPlain         = 100  // a definition without mkOverride
	PriorityDefault       = 1000 // mkDefault
	PriorityOptionDefault = 1500 // mkOptionDefault, and an option's default
)

// Orders of list elements, as in NixOS: the lowest number comes first.
const (
	OrderBefore = 500  // mkBefore
	OrderPlain  = 1000 // a definition without mkOrder
	OrderAfter  = 1500 // mkAfter
)

// Kind says which of mkIf, mkMerge, mkOverride, mkOrder made a
// Property.
type Kind uint8

// The property kinds.
const (
	KindIf Kind = iota + 1
	KindMerge
	KindOverride
	KindOrder
)

func (k Kind) String() string {
	switch k {
	case KindIf:
		return "mkIf"
	case KindMerge:
		return "mkMerge"
	case KindOverride:
		return "mkOverride"
	case KindOrder:
		return "mkOrder"
	}
	return "property"
}

// Property is a definition wrapped in mkIf, mkMerge, mkOverride or mkOrder.
// Its parts are usually thunks: the condition of an mkIf is evaluated only
// when the definition is merged, and its content only when the condition is
// true.
type Property struct {
	Kind Kind
	// Cond is the condition of mkIf; CondRange where it is written.
	Cond      cty.Value
	CondRange hcl.Range
	// Content is what mkIf, mkOverride and mkOrder wrap.
	Content cty.Value
	// Contents is the list that mkMerge takes.
	Contents cty.Value
	// Priority is mkOverride's priority; Order is mkOrder's.
	Priority int
	Order    int
	// Range is the whole call.
	Range hcl.Range
}

// PropertyType is the capsule type of properties.
var PropertyType = cty.Capsule("definition property", reflect.TypeOf(Property{}))

// PropertyVal wraps a property as a cty value.
func PropertyVal(p Property) cty.Value { return cty.CapsuleVal(PropertyType, &p) }

// AsProperty returns the property inside v, if v is one.
func AsProperty(v cty.Value) (*Property, bool) {
	if v.Type() != PropertyType || !v.IsKnown() || v.IsNull() {
		return nil, false
	}
	return v.EncapsulatedValue().(*Property), true
}
