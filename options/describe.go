package options

import "github.com/zclconf/go-cty/cty"

// class is NixOS's descriptionClass: what kind of phrase a type's
// description is, which decides whether it needs parentheses inside the
// description of another type ("list of (string or signed integer)").
type class uint8

const (
	classNone        class = iota // unknown: always parenthesised
	classNoun                     // "positive integer"
	classConjunction              // "string or signed integer"
	classComposite                // "list of string"
	classClause                   // "positive integer, meaning >0"
)

// classed is implemented by the types of this package.
type classed interface {
	descriptionClass() class
}

func classOf(t Type) class {
	if c, ok := t.(classed); ok {
		return c.descriptionClass()
	}
	return classNone
}

// phrase is NixOS's optionDescriptionPhrase: t's description, in
// parentheses unless its class is one of bare.
func phrase(t Type, bare ...class) string {
	c := classOf(t)
	for _, b := range bare {
		if c == b {
			return t.Description()
		}
	}
	return "(" + t.Description() + ")"
}

// checker is implemented by the types of this package: check is NixOS's
// type.check, a test of the value's root only (a list is a list whatever
// its elements), which nullOr, either and oneOf use to choose. v is known
// and not a thunk.
type checker interface {
	check(v cty.Value) bool
}

// accepts reports whether t's shallow check accepts v. Unknown values are
// accepted (they stand for an error already reported), and so is anything
// by a type from outside this package, whose Merge decides alone.
func accepts(t Type, v cty.Value) bool {
	if !v.IsKnown() {
		return true
	}
	if c, ok := t.(checker); ok {
		return c.check(v)
	}
	return true
}

// HoldsKeys reports whether a value of type t may be an attribute set, so
// that a path can lead inside it (a renamed_option's target): true for
// attrsOf, anything, a submodule, false for bool or a list.
func HoldsKeys(t Type) bool { return accepts(t, cty.EmptyObjectVal) }
