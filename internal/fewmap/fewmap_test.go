package fewmap

import "testing"

// TestMap sets and gets keys below and past the inline array, sets some
// again, and compares every value with a Go map's.
func TestMap(t *testing.T) {
	for _, n := range []int{0, 1, inline - 1, inline, inline + 1, 5 * inline} {
		var m Map[int, string]
		want := map[int]string{}
		for i := range n {
			m.Set(i, "a")
			want[i] = "a"
		}
		for i := 0; i < n; i += 3 {
			m.Set(i, "b")
			want[i] = "b"
		}
		for i := range n + 2 {
			got, ok := m.Get(i)
			w, wok := want[i]
			if got != w || ok != wok {
				t.Errorf("n=%d: Get(%d) = %q, %v; want %q, %v", n, i, got, ok, w, wok)
			}
		}
	}
}
