package eval

import (
	"strconv"
	"testing"

	"github.com/nodegen/nodegen/options"
)

// TestArenaSlabs checks the arena's invariants (arena.go): what it hands
// out is zero and never overlaps, within a block and across blocks, and
// each slice and path is cut to its length so that an append copies it.
func TestArenaSlabs(t *testing.T) {
	var a arena
	loc := options.Path{"a", "b"}
	var paths []options.Path
	var states []*nodeState
	for i := range 3 * pathsPerBlock {
		rest := options.Path{"c", strconv.Itoa(i)}
		p := a.join(loc, rest)
		if want := loc.Join(rest); !p.Equal(want) || cap(p) != len(p) {
			t.Fatalf("join %d: %v (cap %d), want %v", i, p, cap(p), want)
		}
		paths = append(paths, p)
		s := a.newState()
		if s.status != unforced || s.defs != nil {
			t.Fatalf("state %d is not zero", i)
		}
		s.status = done
		states = append(states, s)
		if d := a.oneDefn(); len(d) != 0 || cap(d) != 1 {
			t.Fatalf("oneDefn %d: len %d cap %d", i, len(d), cap(d))
		}
	}
	for i, p := range paths {
		if p[3] != strconv.Itoa(i) || p[0] != "a" || p[2] != "c" {
			t.Errorf("path %d was overwritten: %v", i, p)
		}
	}
	seen := map[*nodeState]bool{}
	for i, s := range states {
		if seen[s] || s.status != done {
			t.Errorf("state %d handed out twice or overwritten", i)
		}
		seen[s] = true
	}
}
