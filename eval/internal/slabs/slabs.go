// Package slabs is how eval makes its many small values a block at a time
// rather than one by one: the evaluation's arena (eval's arena.go) and
// declaring's slabs (Take). Their invariants, which every user keeps:
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
//     own, and declaring's slabs belong to one declare call.
package slabs

// Size is how many node states, thunks or one-definition slots an
// evaluation allocates at once: it makes thousands of each, all alive
// until it ends. It bounds declaring's slabs too (Take).
const Size = 64

// Next hands out the next element of *slab, zero, as a slice of length
// and capacity one, refilling *slab with Size new elements once it is
// used up.
func Next[T any](slab *[]T) []T {
	if len(*slab) == 0 {
		*slab = make([]T, Size)
	}
	one := (*slab)[:1:1]
	*slab = (*slab)[1:]
	return one
}

// Take hands out the next element of *slab, zero, so that many small
// things made together are one allocation: declaring's slabs, whose first
// block the caller makes of the size it knows it needs. A used-up slab is
// followed by one of up to Size elements; no slab (nil, or of no
// capacity) gives new(T) every time.
func Take[T any](slab *[]T) *T {
	if slab == nil || cap(*slab) == 0 {
		return new(T)
	}
	s := *slab
	if len(s) == cap(s) {
		s = make([]T, 0, min(cap(s), Size))
	}
	s = s[:len(s)+1]
	*slab = s
	return &s[len(s)-1]
}
