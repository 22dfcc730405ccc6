package profile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// A Pending is a Write begun before its profile is known, so that the
// work that does not need the profile overlaps the evaluation that makes
// it. Begin takes the lock on dir's parent, cleans up after crashed
// writes, checks that dir may be replaced and makes the new profile's
// directory, in the background; Entries builds the tree of the entries
// there, in the background too, while the evaluation goes on to its checks
// and warnings; Commit writes the manifest, checks what is at dir again
// (the evaluation ran since Begin checked it) and swaps the new profile
// into place, as Write does; Abort undoes what was done.
//
// The result is the same as Write's: the same profile, the same errors
// with the same precedence (a bad entry before a bad binary before a dir
// that cannot be replaced), the same atomic swap, and a crash at any point
// leaves what a crashed Write leaves. Only the order of the file system
// work differs, and its timing: the lock is held from Begin to Commit or
// Abort, and the new tree shares the inodes of the old profile's unchanged
// files from its building on, during the evaluation's checks: an edit made
// in place to such a file meanwhile that keeps its size (which the second
// check compares) is in the new profile too (see Write). A Pending is for
// one goroutine, but for its own background work.
type Pending struct {
	dir  string
	abs  string // dir made absolute, "" until known
	sync bool
	// recovered is whether the parent directory's leftovers of crashed
	// writes were cleaned up already, for the whole directory (Batch),
	// so that the preparation does not read the directory again.
	recovered bool
	// began is whether Begin started the preparation in the background,
	// and so whether the evaluation ran between it and the swap.
	began bool

	// prepared is closed when the preparation that Begin started is done
	// (nil: none was started, Commit prepares).
	prepared chan struct{}
	target   *target
	prepErr  error

	// The entries, as Entries was given them and validated; entryErr is
	// their validation error.
	given    []Entry
	entries  []Entry
	entryErr error
	handed   bool
	// built is closed when the tree that Entries started is built (nil:
	// none was started, Commit builds it); treeErr is its error and
	// manifest the manifest of the entries, made meanwhile.
	built    chan struct{}
	treeErr  error
	manifest *Manifest

	ended bool // Commit or Abort was called
}

// Begin starts writing a profile to dir, durably as Write does. The
// preparation runs in the background; it waits for nothing but the lock.
// Where dir's parent directory does not exist yet, nothing is done before
// Commit, so that a command that fails before it creates nothing.
func Begin(dir string) *Pending {
	w := &Pending{dir: dir, sync: true}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return w
	}
	w.abs = abs
	if fi, err := os.Stat(filepath.Dir(abs)); err != nil || !fi.IsDir() {
		return w
	}
	w.began = true
	w.prepared = make(chan struct{})
	go func() {
		defer close(w.prepared)
		w.target, w.prepErr = prepare(dir, abs, w.recovered)
	}()
	return w
}

// Entries gives w the entries of the profile, the slice that Commit's
// profile will hold: w validates them at once and, after a Begin, builds
// their tree in the background. They must not change afterwards.
func (w *Pending) Entries(entries []Entry) {
	if w.handed || w.ended {
		return
	}
	w.handed = true
	w.given = entries
	w.entries, w.entryErr = validate(entries)
	if w.entryErr != nil || w.prepared == nil {
		return
	}
	w.built = make(chan struct{})
	go func() {
		defer close(w.built)
		w.buildEntries()
	}()
}

// buildEntries makes the manifest of the entries and, once the write is
// prepared without error, builds their tree.
func (w *Pending) buildEntries() {
	m := newManifest(w.entries)
	w.manifest = &m
	<-w.prepared
	if w.prepErr == nil {
		w.treeErr = buildTree(w.target.tmp, w.target.old(), w.entries)
	}
}

// Commit writes p, whose entries must be those given to Entries (if it was
// called), and installs it at dir; see Write. After an error, w is ended
// as by Abort, except that a simulated crash leaves everything as it is.
func (w *Pending) Commit(p Profile) (err error) {
	if w.ended {
		return errors.New("profile write already ended")
	}
	if !w.handed {
		w.Entries(p.Entries)
	} else if !sameSlice(w.given, p.Entries) {
		w.Abort()
		return errors.New("profile write committed with other entries than it was given")
	}
	defer func() {
		switch {
		case err == nil:
		case errors.Is(err, errCrash):
			// As if the process had died: everything stays, but the lock,
			// which a process's death releases.
			if w.target != nil {
				w.target.unlock()
				w.target = nil
			}
		default:
			w.Abort()
		}
		w.ended = true
	}()
	if w.entryErr != nil {
		return w.entryErr
	}
	assets, packages, err := validateBinaries(p.Assets, p.Packages)
	if err != nil {
		return err
	}
	if err := validateImagePrograms(p.ImagePrograms); err != nil {
		return err
	}
	if err := ValidatePackageProxy(p.PackageProxy); err != nil {
		return err
	}
	if w.prepared == nil {
		// Nothing was started: do it all now, in Write's order.
		if w.abs == "" {
			if w.abs, err = filepath.Abs(w.dir); err != nil {
				return err
			}
		}
		w.prepared = make(chan struct{})
		w.target, w.prepErr = prepare(w.dir, w.abs, w.recovered)
		close(w.prepared)
		w.buildEntries()
	} else {
		<-w.built
	}
	if w.prepErr != nil {
		return w.prepErr
	}
	t := w.target
	if w.treeErr != nil {
		return fmt.Errorf("writing profile %s: %w", t.shown, w.treeErr)
	}
	// What is at dir was checked when the write began, and the evaluation
	// ran since: it is checked again before the swap, while the manifest
	// is written and synced, so that a directory that is no profile (an
	// admin's files put there meanwhile) is never swapped out and removed.
	var rechecked chan error
	if w.began {
		rechecked = make(chan error, 1)
		go func() {
			exists, err := checkReplaceable(t.abs, t.shown)
			t.exists = exists
			rechecked <- err
		}()
	}
	m := *w.manifest
	m.Warnings = dedupedWarnings(p.Warnings)
	m.Assets, m.Packages = assets, packages
	m.PackageProxy = p.PackageProxy
	m.ImagePrograms = p.ImagePrograms
	err = finishTree(t.tmp, m.encode(), m.DescriptionMode(), w.sync)
	if rechecked != nil {
		// A dir that may not be replaced ranks before a tree's error, as
		// in Write; a simulated crash stays a crash.
		if rerr := <-rechecked; rerr != nil && !errors.Is(err, errCrash) {
			return rerr
		}
	}
	if err != nil {
		return fmt.Errorf("writing profile %s: %w", t.shown, err)
	}
	if err := t.install(w.sync); err != nil {
		return err
	}
	t.unlock()
	w.target = nil
	return nil
}

// Abort ends w without installing anything: it waits for the background
// work, removes the new profile's directory and releases the lock. The
// profile at dir is as it was. Abort after Commit or Abort does nothing.
func (w *Pending) Abort() {
	if w.prepared != nil {
		<-w.prepared
	}
	if w.built != nil {
		<-w.built
	}
	if t := w.target; t != nil {
		removeOwnDir(t.tmp)
		t.unlock()
		w.target = nil
	}
	w.ended = true
}

// sameSlice reports whether a and b are the same slice: the same elements
// in the same memory.
func sameSlice(a, b []Entry) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
