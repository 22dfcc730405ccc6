package eval

import (
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval/internal/slabs"
	"github.com/nodegen/nodegen/options"
)

// This file holds the evaluation's arena, made of the slabs of package
// slabs, whose invariants it keeps.

// arena is where an evaluation makes its node states, thunks,
// one-definition slots and the paths it joins: the values it makes by the
// thousand, all alive until it ends. The zero arena is ready to use.
type arena struct {
	states []nodeState
	thunks []thunk
	defns  []defn
	// segs is the block of the segments of the paths join makes.
	segs []string
}

// newState returns a new, zero node state.
func (a *arena) newState() *nodeState { return &slabs.Next(&a.states)[0] }

// oneDefn returns an empty slice with room for one definition (a second
// append copies it out).
func (a *arena) oneDefn() []defn { return slabs.Next(&a.defns)[:0] }

// newThunk returns a new thunk of expr in sc.
func (a *arena) newThunk(expr hclsyntax.Expression, sc *scope, what string) *thunk {
	t := &slabs.Next(&a.thunks)[0]
	*t = thunk{expr: expr, sc: sc, what: what}
	return t
}

// pathsPerBlock is how many paths of a length a block of segments holds.
const pathsPerBlock = 64

// join returns p.Join(rest), its segments from the arena: the full paths
// of the options of submodule instances (instance.fullPath, walkOptions).
// Paths are not changed in place, so they may share a block.
func (a *arena) join(p, rest options.Path) options.Path {
	n := len(p) + len(rest)
	if cap(a.segs)-len(a.segs) < n {
		a.segs = make([]string, 0, n*pathsPerBlock)
	}
	at := len(a.segs)
	a.segs = a.segs[:at+n]
	out := a.segs[at : at+n : at+n]
	copy(out[copy(out, p):], rest)
	return out
}
