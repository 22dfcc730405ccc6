package profile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
)

// removeTree removes the directory root and everything below it, as
// os.RemoveAll does, treeWriters directories at a time: removing an inode
// costs the kernel about as much as creating one (see treeWriters). A
// directory is removed once its entries and subdirectories are. What is
// already gone is no error; of several errors, the one of the first path
// is returned (a directory that could not be emptied is left alone, and
// its error is that of what is still in it). A symlink, the root
// included, is removed, never followed.
func removeTree(root string) error {
	r := &treeRemover{sem: make(chan struct{}, treeWriters)}
	top := &dirRemoval{path: root}
	top.pending.Store(1)
	r.wg.Add(1)
	go r.remove(top)
	r.wg.Wait()
	return r.firstErr
}

// treeRemover is one removeTree.
type treeRemover struct {
	sem chan struct{} // held by a goroutine removing entries
	wg  sync.WaitGroup
	mu  sync.Mutex
	// firstErr is the error of the first path (in byte order) that
	// failed, firstPath.
	firstErr  error
	firstPath string
}

// dirRemoval is a directory being removed.
type dirRemoval struct {
	path   string
	parent *dirRemoval // nil for the root
	// pending counts what is left before the directory itself can go:
	// its own entries (one, for the goroutine removing them) and each of
	// its subdirectories.
	pending atomic.Int32
	// kept is set when something below the directory could not be
	// removed, nor then the directory itself.
	kept atomic.Bool
}

func (r *treeRemover) fail(p string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.firstErr == nil || p < r.firstPath {
		r.firstErr, r.firstPath = err, p
	}
}

// remove removes the entries of d that are not directories, starts the
// removal of each subdirectory, and then counts d's own part as done.
func (r *treeRemover) remove(d *dirRemoval) {
	defer r.wg.Done()
	r.sem <- struct{}{}
	entries, err := readDirNoFollow(d.path)
	// A root that is gone is no error, nor one that is not a directory
	// (a symlink among them): done removes it as a file.
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, errNotDir) {
		r.fail(d.path, err)
		d.kept.Store(true)
	}
	for _, e := range entries {
		p := filepath.Join(d.path, e.Name())
		if e.IsDir() {
			sub := &dirRemoval{path: p, parent: d}
			sub.pending.Store(1)
			d.pending.Add(1)
			r.wg.Add(1)
			go r.remove(sub)
			continue
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			r.fail(p, err)
			d.kept.Store(true)
		}
	}
	<-r.sem
	r.done(d)
}

// done counts one part of d as removed; the last removes d, unless
// something in it was kept, and counts d as a part of its parent.
func (r *treeRemover) done(d *dirRemoval) {
	for ; d != nil && d.pending.Add(-1) == 0; d = d.parent {
		if d.kept.Load() {
			if d.parent != nil {
				d.parent.kept.Store(true)
			}
			continue
		}
		if err := os.Remove(d.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			r.fail(d.path, err)
			if d.parent != nil {
				d.parent.kept.Store(true)
			}
		}
	}
}
