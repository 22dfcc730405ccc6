package eval

import (
	"slices"

	"github.com/nodegen/nodegen/eval/internal/declare"
	"github.com/nodegen/nodegen/options"
)

// TypedDeclaration is an option in scope with its type itself, not only its
// description: what an editor needs to complete an option's values (the
// values of an enum, true and false for a bool).
type TypedDeclaration struct {
	Path options.Path
	Type options.Type
}

// TypedDeclarations lists the options Declarations lists, with the same
// paths (placeholders <name> and * inside submodules), and their types, in
// no particular order.
func (ev *Evaluator) TypedDeclarations() []TypedDeclaration {
	var out []TypedDeclaration
	ev.walkOptions(ev.top.root, nil, map[string]bool{}, func(o *declare.Option, p options.Path) {
		out = append(out, TypedDeclaration{Path: slices.Clone(p), Type: o.Type})
	}, nil)
	return out
}
