package profile

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// A Batch writes many profiles side by side in one directory, as nodegen
// build writes a fleet's. Before it replaces anything, a Write reads the
// names of its whole parent directory to find what an interrupted Write
// of its profile left there (see the package documentation): with
// thousands of profiles side by side, the writes of a fleet would read
// the directory thousands of times, a cost that grows with the square of
// the fleet. A Batch cleans up what interrupted writes left in the
// directory once, for every profile, before its first write; its writes
// skip that scan. What a write of another process, interrupted while the
// batch runs, leaves in the directory stays until the next Write or
// Batch there cleans it up. A Batch is safe for concurrent use.
type Batch struct {
	parent string
	once   sync.Once
	err    error // of the cleanup
}

// NewBatch returns a batch of writes into the directory parent. Nothing is
// done before its first write: a build whose hosts all fail creates
// nothing.
func NewBatch(parent string) (*Batch, error) {
	abs, err := filepath.Abs(parent)
	if err != nil {
		return nil, err
	}
	return &Batch{parent: abs}, nil
}

// recover makes the batch's directory if it is missing and cleans up
// what interrupted writes left in it, as each profile's Write would,
// under the lock that Writes in the directory take.
func (b *Batch) recover() error {
	if err := os.MkdirAll(b.parent, 0o755); err != nil {
		return err
	}
	unlock := lockDir(b.parent)
	defer unlock()
	names, err := readNames(b.parent)
	if err != nil {
		return err
	}
	byBase := siblingsByBase(names)
	for _, base := range slices.Sorted(maps.Keys(byBase)) {
		if err := recoverFrom(b.parent, base, byBase[base]); err != nil {
			return err
		}
	}
	return nil
}

// WriteUnsynced writes p as the profile directory base of the batch's
// directory, as WriteUnsynced does (a later Sync makes it durable), but
// without reading the whole directory first: the first write of the
// batch cleans it up for all.
func (b *Batch) WriteUnsynced(base string, p Profile) error {
	b.once.Do(func() { b.err = b.recover() })
	if b.err != nil {
		return b.err
	}
	w := &Pending{dir: filepath.Join(b.parent, base), recovered: true}
	w.Entries(p.Entries)
	return w.Commit(p)
}

// siblingsByBase groups the names of a directory's entries that are a
// profile's siblings (.BASE.nodegen-new-ID, .BASE.nodegen-old-ID) by the
// profile's name, BASE.
func siblingsByBase(names []string) map[string][]string {
	out := map[string][]string{}
	for _, n := range names {
		rest, ok := strings.CutPrefix(n, ".")
		if !ok || len(rest) < idLen {
			continue
		}
		for _, infix := range []string{newInfix, oldInfix} {
			base, ok := strings.CutSuffix(rest[:len(rest)-idLen], infix)
			if ok && base != "" && isSiblingName(n, "."+base+infix) {
				out[base] = append(out[base], n)
			}
		}
	}
	return out
}
