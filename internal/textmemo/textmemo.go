// Package textmemo keeps the results of pure functions of a text for the
// whole process, shared by its goroutines.
//
// The hosts of a fleet mostly write the same unit files and scripts:
// nodegen build checks each host's profile, and parsing the same script
// once per host was most of what the checks cost. A Memo parses each text
// the hosts share once or twice; a text the memo holds costs a map lookup
// under a lock.
//
// A Memo holds a text's result from the second time it is asked for it
// on: what only one host has (its own unit, naming its address) is never
// held, and so never makes the collector's work, or the heap it lets grow,
// larger. It is bounded too: it holds texts of at most a given number of
// bytes in all (their results are not counted, but are expected to be of
// their size), and forgets everything it holds when a new text would pass
// that bound.
package textmemo

import (
	"hash/maphash"
	"strings"
	"sync"
)

// SharedTexts is a bound for a memo of the texts the hosts of a fleet
// share (a worker of fleetgen's has 19 KB of files, 4 KB of them its own,
// which a memo never holds).
const SharedTexts = 1 << 20

// maxSeen is how many texts asked for once a Memo remembers (by hash)
// before it forgets them all.
const maxSeen = 1 << 12

// Memo holds the results of a function for the texts it was asked about
// more than once. The results are shared by every caller: neither the
// function nor its callers may modify a result once returned. A Memo is
// safe for concurrent use.
type Memo[V any] struct {
	f     func(string) V
	limit int
	seed  maphash.Seed

	mu    sync.Mutex
	held  map[string]V
	bytes int                 // the length of the texts in held, added up
	seen  map[uint64]struct{} // the hashes of texts asked for once
}

// New returns a memo of f, which must be a pure function of its argument,
// holding texts of at most limit bytes in all. f may keep parts of the
// text it is given in its result: the memo gives it a copy of its own
// when it keeps the result.
func New[V any](f func(string) V, limit int) *Memo[V] {
	return &Memo[V]{f: f, limit: limit, seed: maphash.MakeSeed()}
}

// Get returns f(text): from the memo when it holds text, else computed
// (outside the lock: two goroutines asking for one new text both compute
// it, and the same result is kept), and kept when text was asked for
// before and is not alone over the bound.
func (m *Memo[V]) Get(text string) V {
	m.mu.Lock()
	v, ok := m.held[text]
	again := !ok && m.askedBefore(maphash.String(m.seed, text))
	m.mu.Unlock()
	switch {
	case ok:
		return v
	case !again:
		return m.f(text)
	}
	own := strings.Clone(text)
	return m.keep(own, m.f(own))
}

// GetBytes is Get of string(text), without a copy of text when the memo
// holds it.
func (m *Memo[V]) GetBytes(text []byte) V {
	m.mu.Lock()
	v, ok := m.held[string(text)] // a lookup does not copy text
	again := !ok && m.askedBefore(maphash.Bytes(m.seed, text))
	m.mu.Unlock()
	if ok {
		return v
	}
	own := string(text)
	if !again {
		return m.f(own)
	}
	return m.keep(own, m.f(own))
}

// askedBefore reports whether a text of hash h was asked for before (and
// forgets it then, as it is about to be held), and else remembers it.
// m.mu is held.
func (m *Memo[V]) askedBefore(h uint64) bool {
	if _, ok := m.seen[h]; ok {
		delete(m.seen, h)
		return true
	}
	if m.seen == nil || len(m.seen) >= maxSeen {
		m.seen = map[uint64]struct{}{}
	}
	m.seen[h] = struct{}{}
	return false
}

// keep records v as the result of text, which is the memo's own copy, and
// returns the result held for text.
func (m *Memo[V]) keep(text string, v V) V {
	if len(text) > m.limit {
		return v
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if held, ok := m.held[text]; ok {
		return held // another goroutine computed it first
	}
	if m.held == nil || m.bytes+len(text) > m.limit {
		m.held, m.bytes = map[string]V{}, 0
	}
	m.held[text] = v
	m.bytes += len(text)
	return v
}

// Len returns how many texts the memo holds.
func (m *Memo[V]) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.held)
}
