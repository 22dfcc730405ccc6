package options

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Def is one definition of an option: a value and where it was written.
//
// Value may be lazy (a property.Lazy thunk), may be or contain properties
// (property.Property: mkIf, mkMerge, mkOverride, mkOrder) and may contain
// thunks in its attributes or elements. Merging forces only what it needs.
type Def struct {
	Value cty.Value
	Range hcl.Range
	// budget is the Room's Budget of the merge the definition is part
	// of, handed to the merges of its attributes and elements.
	budget Budget
}

// Budget bounds the work of a merge, which walks a value as a tree: a
// value that shares itself (an object of two references to one value,
// forty times over) is a tree of 2^40 nodes. Spend is called at each
// value a merge walks into (made 0) and for the attributes and elements
// of each value it makes; a non-nil error stops the merge with it, and
// every later Spend should return it too, so that a walk that is stopped
// ends quickly.
type Budget interface {
	Spend(made int, rng hcl.Range) *hcl.Diagnostic
}

// Type is an option type: it checks definitions and merges them.
type Type interface {
	// Description is the type in words, as error messages show it:
	// "list of string", "null or one of \"a\", \"b\"".
	Description() string
	// Merge merges definitions that survived priority filtering and were
	// sorted by order. Their values have no property at the top (but may
	// have some inside, for list elements and attribute values) and are not
	// thunks at the top. Merge checks each value against the type and
	// reports "is not of type" at the definition's range. loc is the
	// option's path, for messages and for submodule instances.
	Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics)
}

// Instantiator evaluates submodule instances; the evaluator implements it.
type Instantiator interface {
	// Instantiate evaluates one instance of the submodule types named by
	// names, at loc, with defs as its definitions (each an object, or a
	// property.Ref, possibly lazy), and returns the instance as a property.Ref value.
	Instantiate(names []string, loc Path, defs []Def) (cty.Value, hcl.Diagnostics)
}
