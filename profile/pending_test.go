package profile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// writeBegun writes p as the eval command does: Begin first, the entries
// once known, then Commit.
func writeBegun(dir string, p Profile) error {
	w := Begin(dir)
	w.Entries(p.Entries)
	return w.Commit(p)
}

// outcome is what a write leaves: its error, the tree at dir and the
// siblings beside it.
type outcome struct {
	Err      string
	Tree     map[string]string
	Siblings []string
}

func outcomeOf(t *testing.T, dir string, err error) outcome {
	t.Helper()
	o := outcome{Siblings: siblings(t, dir)}
	if err != nil {
		o.Err = err.Error()
	}
	if _, serr := os.Lstat(dir); serr == nil {
		o.Tree = snapshot(t, dir)
	}
	return o
}

// TestPendingLikeWrite checks that a write begun before its profile is
// known ends as Write does, in every case: the same tree, the same error,
// nothing left beside it.
func TestPendingLikeWrite(t *testing.T) {
	newer := Profile{Entries: []Entry{
		{Target: "hostname", Content: []byte("node2\n"), Mode: "0644"},
		{Target: "secret/token", Content: []byte("s3cret"), Mode: "0600", User: "kube", Group: "kube"},
		{Target: "zz/last", Content: []byte("z"), Mode: "0644"},
	}, Warnings: []string{"b", "a", "b"}}
	badEntry := Profile{Entries: []Entry{{Target: "/abs", Mode: "0644", Option: "opt.abs"}}}
	badAsset := newer
	badAsset.Assets = []Asset{{Name: "x", Option: "opt.asset"}}
	userDir := func(dir string) error {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, "thesis.tex"), []byte("precious"), 0o644)
	}
	tests := []struct {
		name   string
		before func(dir string) error // makes what is at dir first
		p      Profile
		fail   string // a failpoint stage, or ""
	}{
		{name: "new", p: newer},
		{name: "parent missing", before: func(dir string) error { return nil }, p: newer},
		{name: "replacing", before: func(dir string) error { return Write(dir, sample()) }, p: newer},
		{name: "the same again", before: func(dir string) error { return Write(dir, newer) }, p: newer},
		{name: "a bad entry", before: func(dir string) error { return Write(dir, sample()) }, p: badEntry},
		{name: "a bad asset", before: func(dir string) error { return Write(dir, sample()) }, p: badAsset},
		{name: "not a profile", before: userDir, p: newer},
		{name: "a bad entry, not a profile", before: userDir, p: badEntry},
		{name: "failing at an entry", before: func(dir string) error { return Write(dir, sample()) }, p: newer, fail: "entry secret/token"},
		{name: "failing at the manifest", before: func(dir string) error { return Write(dir, sample()) }, p: newer, fail: "manifest"},
		{name: "failing at the swap", before: func(dir string) error { return Write(dir, sample()) }, p: newer, fail: "swap"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got [2]outcome
			for i, write := range []func(string, Profile) error{Write, writeBegun} {
				root := t.TempDir()
				dir := filepath.Join(root, "result")
				if tt.name == "parent missing" {
					dir = filepath.Join(root, "new", "result")
				}
				if tt.before != nil {
					if err := tt.before(dir); err != nil {
						t.Fatal(err)
					}
				}
				if tt.fail != "" {
					setFailpoint(t, failAt(tt.fail, errors.New("injected failure")))
				}
				err := write(dir, tt.p)
				setFailpoint(t, func(string) error { return nil })
				got[i] = outcomeOf(t, dir, err)
				got[i].Err = strings.ReplaceAll(got[i].Err, root, "ROOT")
			}
			if diff := cmp.Diff(got[0], got[1]); diff != "" {
				t.Errorf("Begin, Entries, Commit ended otherwise than Write (-Write +Begin):\n%s", diff)
			}
		})
	}
}

// TestPendingAbort checks that an aborted write leaves the profile it
// would have replaced as it was, nothing beside it, the lock released,
// and, where dir's parent was missing, no parent made.
func TestPendingAbort(t *testing.T) {
	for _, entries := range []bool{false, true} {
		t.Run(fmt.Sprintf("entries given %v", entries), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "result")
			mustWrite(t, dir, sample())
			before := snapshot(t, dir)
			w := Begin(dir)
			if entries {
				w.Entries(Profile{Entries: []Entry{{Target: "other", Content: []byte("x"), Mode: "0644"}}}.Entries)
			}
			w.Abort()
			w.Abort() // twice does nothing
			if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
				t.Errorf("the profile changed (-before +after):\n%s", diff)
			}
			if s := siblings(t, dir); len(s) != 0 {
				t.Errorf("left behind: %v", s)
			}
			if err := w.Commit(sample()); err == nil {
				t.Error("Commit after Abort succeeded")
			}
			writeWithin(t, dir, sample(), 10*time.Second)
		})
	}
	t.Run("parent missing", func(t *testing.T) {
		parent := filepath.Join(t.TempDir(), "new")
		w := Begin(filepath.Join(parent, "result"))
		w.Abort()
		if _, err := os.Lstat(parent); err == nil {
			t.Errorf("an aborted write made %s", parent)
		}
	})
}

// TestPendingOtherEntries checks that Commit refuses a profile whose
// entries are not those its write was given, and leaves nothing.
func TestPendingOtherEntries(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "result")
	mustWrite(t, dir, sample())
	before := snapshot(t, dir)
	w := Begin(dir)
	w.Entries(sample().Entries)
	if err := w.Commit(sample()); err == nil || !strings.Contains(err.Error(), "other entries") {
		t.Fatalf("Commit: %v", err)
	}
	if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
		t.Errorf("the profile changed (-before +after):\n%s", diff)
	}
	if s := siblings(t, dir); len(s) != 0 {
		t.Errorf("left behind: %v", s)
	}
	writeWithin(t, dir, sample(), 10*time.Second)
}

// TestPendingCrash checks that a write begun and crashed (a simulated
// crash: nothing cleaned up) releases its lock, as a dead process does,
// and that the next Write recovers.
func TestPendingCrash(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "result")
	mustWrite(t, dir, sample())
	before := snapshot(t, dir)
	setFailpoint(t, failAt("swap", errCrash))
	if err := writeBegun(dir, Profile{Entries: []Entry{{Target: "hostname", Content: []byte("node2\n"), Mode: "0644"}}}); !errors.Is(err, errCrash) {
		t.Fatalf("write: %v, want the simulated crash", err)
	}
	if s := siblings(t, dir); len(s) == 0 {
		t.Error("a crash cleaned up")
	}
	if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
		t.Errorf("the profile changed (-before +after):\n%s", diff)
	}
	setFailpoint(t, func(string) error { return nil })
	writeWithin(t, dir, sample(), 10*time.Second)
	if s := siblings(t, dir); len(s) != 0 {
		t.Errorf("left behind after the next write: %v", s)
	}
}

// writeWithin writes p to dir and fails the test if that takes longer
// than d: a lock left taken would block it for ever.
func writeWithin(t *testing.T, dir string, p Profile, d time.Duration) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- Write(dir, p) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(d):
		t.Fatalf("Write did not end within %v: the lock was not released", d)
	}
}

// beginThenChange begins writing p to a dir that holds sample() if
// before, waits until the write is prepared and its tree built, and then
// changes dir: as if change came while the evaluation still ran.
func beginThenChange(t *testing.T, before bool, p Profile, change func(dir string) error) (string, *Pending) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "result")
	if before {
		mustWrite(t, dir, sample())
	}
	w := Begin(dir)
	w.Entries(p.Entries)
	<-w.prepared
	<-w.built
	if w.prepErr != nil || w.treeErr != nil {
		t.Fatal(w.prepErr, w.treeErr)
	}
	if err := change(dir); err != nil {
		t.Fatal(err)
	}
	return dir, w
}

// TestPendingRechecksAndInstalls checks that a write begun over a
// profile that is removed meanwhile, or where an empty directory is made
// meanwhile, installs its profile as a Write at that time would.
func TestPendingRechecksAndInstalls(t *testing.T) {
	newer := Profile{Entries: []Entry{{Target: "hostname", Content: []byte("node2\n"), Mode: "0644"}}}
	for _, c := range []struct {
		name   string
		before bool
		change func(dir string) error
	}{
		{"the profile removed", true, os.RemoveAll},
		{"an empty directory made", false, func(dir string) error { return os.Mkdir(dir, 0o755) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, w := beginThenChange(t, c.before, newer, c.change)
			if err := w.Commit(newer); err != nil {
				t.Fatal(err)
			}
			want := filepath.Join(t.TempDir(), "result")
			mustWrite(t, want, newer)
			if diff := cmp.Diff(snapshot(t, want), snapshot(t, dir)); diff != "" {
				t.Errorf("the profile differs from Write's (-Write +Begin):\n%s", diff)
			}
			if s := siblings(t, dir); len(s) != 0 {
				t.Errorf("left behind: %v", s)
			}
		})
	}
}

// TestPendingRechecks checks that what appears at dir while the
// evaluation runs, between Begin and Commit, is checked again before the
// swap: an admin's file put into the old profile, or a directory of files
// made where there was none, is never swapped out and removed.
func TestPendingRechecks(t *testing.T) {
	newer := Profile{Entries: []Entry{{Target: "hostname", Content: []byte("node2\n"), Mode: "0644"}}}
	for _, c := range []struct {
		name   string
		before bool // a profile is at dir when the write begins
		change func(dir string) error
	}{
		{"a file added to the profile", true, func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "etc", "notes.txt"), []byte("precious"), 0o644)
		}},
		{"a directory made where there was none", false, func(dir string) error {
			if err := os.Mkdir(dir, 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("precious"), 0o644)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, w := beginThenChange(t, c.before, newer, c.change)
			before := snapshot(t, dir)
			err := w.Commit(newer)
			if err == nil || !strings.Contains(err.Error(), "refusing to replace it") {
				t.Fatalf("Commit: %v, want a refusal", err)
			}
			if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
				t.Errorf("dir changed (-before +after):\n%s", diff)
			}
			if s := siblings(t, dir); len(s) != 0 {
				t.Errorf("left behind: %v", s)
			}
		})
	}
}
