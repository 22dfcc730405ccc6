package slabs

import "testing"

// TestTake checks Take's invariants: what it hands out is zero and never
// handed out again, within the caller's first block, past its end and
// without a slab.
func TestTake(t *testing.T) {
	tests := []struct {
		name string
		slab *[]int
		take int
		// wantLen is the slab's length after the takes.
		wantLen int
	}{
		{"nil", nil, 3, 0},
		{"no capacity", &[]int{}, 3, 0},
		{"within", ptr(make([]int, 0, 4)), 3, 3},
		{"past its end", ptr(make([]int, 0, 2)), 5, 1}, // two chunks of 2 more
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seen := map[*int]bool{}
			for i := range tt.take {
				p := Take(tt.slab)
				if *p != 0 || seen[p] {
					t.Fatalf("take %d: %p (holding %d) again or not zero", i, p, *p)
				}
				*p = i + 1
				seen[p] = true
			}
			if tt.slab != nil && len(*tt.slab) != tt.wantLen {
				t.Errorf("slab length %d, want %d", len(*tt.slab), tt.wantLen)
			}
		})
	}

	type big struct{ a, b [4]int }
	var slab []big
	if d := Take(&slab); d == nil || cap(slab) != 0 {
		t.Errorf("Take without a slab: %v, slab cap %d", d, cap(slab))
	}
	slab = make([]big, 0, 2)
	x, y, z := Take(&slab), Take(&slab), Take(&slab)
	if x == y || y == z || x == z {
		t.Errorf("Take handed out one element twice")
	}
}

// TestNext checks that Next hands out zero elements of length and
// capacity one, none twice, across blocks.
func TestNext(t *testing.T) {
	var slab []int
	seen := map[*int]bool{}
	for i := range 3 * Size {
		one := Next(&slab)
		if len(one) != 1 || cap(one) != 1 || one[0] != 0 || seen[&one[0]] {
			t.Fatalf("next %d: len %d cap %d holding %d, or handed out again", i, len(one), cap(one), one[0])
		}
		one[0] = i + 1
		seen[&one[0]] = true
	}
}

func ptr[T any](v T) *T { return &v }
