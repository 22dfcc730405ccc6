// Package fewmap is a map that holds its first few entries in an array
// of its own, with no allocation, and the others in a Go map made when
// the array is full. A walk that remembers what it met (the inner types
// of a type, the shared values of a tree) usually meets a handful of
// things: declared as a local variable, its map costs nothing then.
package fewmap

// inline is how many entries a Map holds without a Go map.
const inline = 8

// Map is a map from K to V; the zero Map is empty and ready to use. It is
// not safe for concurrent use.
type Map[K comparable, V any] struct {
	few  [inline]entry[K, V]
	n    int
	more map[K]V
}

type entry[K comparable, V any] struct {
	k K
	v V
}

// Get returns the value of k and whether m has one.
func (m *Map[K, V]) Get(k K) (V, bool) {
	for i := range m.few[:m.n] {
		if m.few[i].k == k {
			return m.few[i].v, true
		}
	}
	v, ok := m.more[k]
	return v, ok
}

// Set sets the value of k to v.
func (m *Map[K, V]) Set(k K, v V) {
	for i := range m.few[:m.n] {
		if m.few[i].k == k {
			m.few[i].v = v
			return
		}
	}
	if m.n == inline { // a key in more went there once few was full
		if m.more == nil {
			m.more = map[K]V{}
		}
		m.more[k] = v
		return
	}
	m.few[m.n] = entry[K, V]{k, v}
	m.n++
}
