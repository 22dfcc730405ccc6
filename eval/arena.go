package eval

import (
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/options"
)

// This file holds the slabs: how eval makes its many small values a block
// at a time rather than one by one. Its invariants, which every user
// keeps:
//
//   - What a slab hands out is zero, and it is the taker's alone: no two
//     takers share an element, and a slab never hands out an element
//     again or changes one it handed out.
//   - What is handed out lives as long as its taker needs it: a block is
//     dropped by the slab when it is used up, never freed or reused, and
//     the garbage collector frees it once nothing points into it.
//   - A slice handed out has its capacity cut to its length, so that an
//     append copies it out rather than writing over the next taker's.
//   - A slab is not safe for concurrent use: an evaluation's arena is its
//     own, and declaring's slabs (fromSlab) belong to one declare call.

// slabSize is how many node states, thunks or one-definition slots an
// evaluation allocates at once: it makes thousands of each, all alive
// until it ends. It bounds declaring's slabs too (fromSlab).
const slabSize = 64

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

// nextInSlab hands out the next element of *slab, zero, as a slice of
// length and capacity one, refilling *slab with slabSize new elements once
// it is used up.
func nextInSlab[T any](slab *[]T) []T {
	if len(*slab) == 0 {
		*slab = make([]T, slabSize)
	}
	one := (*slab)[:1:1]
	*slab = (*slab)[1:]
	return one
}

// newState returns a new, zero node state.
func (a *arena) newState() *nodeState { return &nextInSlab(&a.states)[0] }

// oneDefn returns an empty slice with room for one definition (a second
// append copies it out).
func (a *arena) oneDefn() []defn { return nextInSlab(&a.defns)[:0] }

// newThunk returns a new thunk of expr in sc.
func (a *arena) newThunk(expr hclsyntax.Expression, sc *scope, what string) *thunk {
	t := &nextInSlab(&a.thunks)[0]
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

// fromSlab hands out the next element of *slab, zero, so that many small
// things made together are one allocation: declaring's slabs, whose first
// block the caller makes of the size it knows it needs. A used-up slab is
// followed by one of up to slabSize elements; no slab (nil, or of no
// capacity) gives new(T) every time.
func fromSlab[T any](slab *[]T) *T {
	if slab == nil || cap(*slab) == 0 {
		return new(T)
	}
	s := *slab
	if len(s) == cap(s) {
		s = make([]T, 0, min(cap(s), slabSize))
	}
	s = s[:len(s)+1]
	*slab = s
	return &s[len(s)-1]
}
