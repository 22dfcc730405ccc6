package profile

import (
	"path"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
)

// treeWriters is how many goroutines create a profile's directories,
// files and symlinks at most. Creating an inode costs the kernel tens of
// microseconds on a busy ext4, most of the time of writing a profile;
// entries in different directories are created in parallel without
// contending for a directory's lock. On a 2-core machine, k8s-single's
// 173 entries took a median 8-10 ms with three, 12-14 with two, 20 with
// one, and 17-23 with four.
const treeWriters = 3

// dirJob is one directory of a profile being built, with the files and
// symlinks directly in it: what one goroutine creates in one go.
type dirJob struct {
	path     string  // in the file system
	entries  []Entry // the files and symlinks in it, by target
	children []*dirJob
	// order is the directory's place in the plan, parents first: of the
	// errors of several directories, the first in this order is
	// reported, whichever goroutine met it first.
	order int
}

// planTree returns the directory jobs of entries (sorted by target) below
// etc, the directory etc/ of a profile being built: the job of etc/ itself,
// nil when there are no entries, and how many jobs there are.
func planTree(etc string, entries []Entry) (*dirJob, int) {
	if len(entries) == 0 {
		return nil, 0
	}
	top := &dirJob{path: etc}
	jobs := map[string]*dirJob{".": top}
	var jobOf func(dir string) *dirJob
	jobOf = func(dir string) *dirJob {
		if j, ok := jobs[dir]; ok {
			return j
		}
		parent := jobOf(path.Dir(dir))
		j := &dirJob{path: filepath.Join(etc, filepath.FromSlash(dir)), order: len(jobs)}
		jobs[dir] = j
		parent.children = append(parent.children, j)
		return j
	}
	for _, e := range entries {
		j := jobOf(path.Dir(e.Target))
		j.entries = append(j.entries, e)
	}
	return top, len(jobs)
}

// createTree creates the directory of top and everything below it with
// mk, up to treeWriters directories at a time (a directory once its parent
// exists). Once a directory fails (an error, or failpoint failing after an
// entry), the directories after it in the plan are left alone, those
// before it finished, and the error of the first that failed in the plan
// is returned: the same error whichever goroutine failed first.
func createTree(top *dirJob, njobs int, mk entryMaker) error {
	queue := make(chan *dirJob, njobs)
	var (
		pending sync.WaitGroup // jobs queued and not done
		workers sync.WaitGroup
		mu      sync.Mutex
		// failed is the order of the first directory in the plan that
		// failed, njobs while none did; firstErr is its error.
		failed   atomic.Int64
		firstErr error
	)
	failed.Store(int64(njobs))
	fail := func(j *dirJob, err error) {
		mu.Lock()
		defer mu.Unlock()
		if int64(j.order) < failed.Load() {
			failed.Store(int64(j.order))
			firstErr = err
		}
	}
	pending.Add(1)
	queue <- top
	for range min(treeWriters, njobs) {
		workers.Go(func() {
			for j := range queue {
				if int64(j.order) < failed.Load() {
					// The subdirectories are queued as soon as the
					// directory exists, for the other goroutines to
					// create while this one creates its entries.
					enqueue := func() {
						pending.Add(len(j.children))
						for _, c := range j.children {
							queue <- c
						}
					}
					if err := createDir(j, mk, enqueue, &failed); err != nil {
						fail(j, err)
					}
				}
				pending.Done()
			}
		})
	}
	pending.Wait()
	close(queue)
	workers.Wait()
	return firstErr
}

// createDir creates the directory of j, calls made, and creates the
// entries of j; it stops early, with no error, when a directory before j
// in the plan fails meanwhile (see createTree).
func createDir(j *dirJob, mk entryMaker, made func(), failed *atomic.Int64) error {
	if err := mk.dir(j.path); err != nil {
		return err
	}
	made()
	for _, e := range j.entries {
		if int64(j.order) > failed.Load() {
			return nil
		}
		p := filepath.Join(j.path, path.Base(e.Target))
		if e.Mode == TypeSymlink {
			if err := mk.symlink(e.Link, p, e.Target); err != nil {
				return err
			}
		} else {
			mode, _ := strconv.ParseUint(e.Mode, 8, 32)
			if err := mk.file(p, e.Target, e.Content, uint32(mode)); err != nil {
				return err
			}
		}
		if err := failpoint("entry " + e.Target); err != nil {
			return err
		}
	}
	return nil
}
