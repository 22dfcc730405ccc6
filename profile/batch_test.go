package profile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBatch: a Batch's first write does for every profile of the
// directory what each Write would do first (the backup of a profile that a crash left
// missing renamed back, the leftovers of interrupted writes removed, a
// directory it cannot prove it left untouched), and the batch's writes
// then give the profiles WriteUnsynced gives.
func TestBatch(t *testing.T) {
	parent := t.TempDir()
	newer := Profile{Entries: []Entry{{Target: "hostname", Content: []byte("node2\n"), Mode: "0644"}}}
	for _, name := range []string{"a", "b", "c"} {
		mustWrite(t, filepath.Join(parent, name), sample())
	}
	before := snapshot(t, filepath.Join(parent, "b"))
	// a: an interrupted write left its new profile, unfinished; b: a
	// crash between the two renames left it missing, its backup whole.
	setFailpoint(t, failAt("manifest", errCrash))
	if err := Write(filepath.Join(parent, "a"), newer); !errors.Is(err, errCrash) {
		t.Fatalf("Write a: %v, want the simulated crash", err)
	}
	setSwapMode(t, "renames")
	setFailpoint(t, failAt("backup", errCrash))
	if err := Write(filepath.Join(parent, "b"), newer); !errors.Is(err, errCrash) {
		t.Fatalf("Write b: %v, want the simulated crash", err)
	}
	setFailpoint(t, func(string) error { return nil })
	if _, err := os.Lstat(filepath.Join(parent, "b")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("b after the crash between the renames: %v, want it missing", err)
	}
	if len(siblings(t, filepath.Join(parent, "a"))) == 0 || len(siblings(t, filepath.Join(parent, "b"))) == 0 {
		t.Fatal("the crashes left nothing behind; the test does not test anything")
	}
	// Not a leftover of nodegen's: its name, but none of its marks.
	foreign := filepath.Join(parent, ".c.nodegen-new-00000000000000dd")
	if err := os.MkdirAll(foreign, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}

	batch, err := NewBatch(parent)
	if err != nil {
		t.Fatal(err)
	}
	if err := batch.WriteUnsynced("d", newer); err != nil {
		t.Fatalf("batch.WriteUnsynced(d): %v", err)
	}
	if diff := cmp.Diff(before, snapshot(t, filepath.Join(parent, "b"))); diff != "" {
		t.Errorf("b was not restored from its backup (-before +after):\n%s", diff)
	}
	for _, name := range []string{"a", "b"} {
		if s := siblings(t, filepath.Join(parent, name)); len(s) != 0 {
			t.Errorf("%s: left behind after the batch's first write: %v", name, s)
		}
	}
	if data, err := os.ReadFile(filepath.Join(foreign, "notes.txt")); string(data) != "mine" {
		t.Errorf("the foreign directory's notes.txt: %q, %v", data, err)
	}

	// The batch's writes, and the same profile by WriteUnsynced.
	for _, name := range []string{"a", "b"} {
		if err := batch.WriteUnsynced(name, newer); err != nil {
			t.Fatalf("batch.WriteUnsynced(%s): %v", name, err)
		}
	}
	alone := filepath.Join(t.TempDir(), "alone")
	if err := WriteUnsynced(alone, newer); err != nil {
		t.Fatal(err)
	}
	want := snapshot(t, alone)
	for _, name := range []string{"a", "b", "d"} {
		if diff := cmp.Diff(want, snapshot(t, filepath.Join(parent, name))); diff != "" {
			t.Errorf("%s written by the batch (-WriteUnsynced +batch):\n%s", name, diff)
		}
	}
	if err := Sync(parent); err != nil {
		t.Fatal(err)
	}
}

func TestSiblingsByBase(t *testing.T) {
	id := "0123456789abcdef"
	names := []string{"web", ".web.nodegen-new-" + id, ".web.nodegen-old-" + id, ".a.b.nodegen-new-" + id,
		".web.nodegen-new-" + id + "0", ".web.nodegen-new-0123", "web.nodegen-new-" + id, ".nodegen-new-" + id, ".x.tmp-" + id}
	want := map[string][]string{
		"web": {".web.nodegen-new-" + id, ".web.nodegen-old-" + id},
		"a.b": {".a.b.nodegen-new-" + id},
	}
	if diff := cmp.Diff(want, siblingsByBase(names)); diff != "" {
		t.Errorf("siblingsByBase (-want +got):\n%s", diff)
	}
}

// TestBatchCreatesNothingUnused: a batch that writes nothing makes no
// directory.
func TestBatchCreatesNothingUnused(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "results")
	if _, err := NewBatch(parent); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(parent); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("NewBatch made %s: %v", parent, err)
	}
}
