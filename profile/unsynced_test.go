package profile

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWriteUnsynced checks that WriteUnsynced, followed by one Sync of the
// parent directory, leaves the same trees as Write, fresh and replacing,
// and that a failed WriteUnsynced keeps the old profile as Write does.
func TestWriteUnsynced(t *testing.T) {
	other := Profile{Entries: []Entry{{Target: "other", Content: []byte("x"), Mode: "0644"}}}
	for _, mode := range swapModes {
		t.Run(mode, func(t *testing.T) {
			setSwapMode(t, mode)
			base := t.TempDir()
			want, fresh, replaced := filepath.Join(base, "want"), filepath.Join(base, "fresh"), filepath.Join(base, "replaced")
			mustWrite(t, want, sample())
			mustWrite(t, replaced, other)
			for _, dir := range []string{fresh, replaced} {
				if err := WriteUnsynced(dir, sample()); err != nil {
					t.Fatal(err)
				}
			}
			if err := Sync(base); err != nil {
				t.Fatalf("Sync: %v", err)
			}
			for _, dir := range []string{fresh, replaced} {
				if diff := cmp.Diff(snapshot(t, want), snapshot(t, dir)); diff != "" {
					t.Errorf("%s differs from Write's (-Write +WriteUnsynced):\n%s", filepath.Base(dir), diff)
				}
				if s := siblings(t, dir); len(s) != 0 {
					t.Errorf("left behind: %v", s)
				}
			}

			before := snapshot(t, replaced)
			setFailpoint(t, failAt("swap", errors.New("injected failure")))
			if err := WriteUnsynced(replaced, other); err == nil || !strings.Contains(err.Error(), "injected failure") {
				t.Fatalf("WriteUnsynced: %v, want the injected failure", err)
			}
			if diff := cmp.Diff(before, snapshot(t, replaced)); diff != "" {
				t.Errorf("the old profile changed (-before +after):\n%s", diff)
			}
		})
	}
}

// TestSyncErrors checks that Sync reports a directory it cannot read.
func TestSyncErrors(t *testing.T) {
	if err := Sync(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("Sync of a missing directory succeeded")
	}
}

// TestSyncEach runs the fallback of Sync where syncfs is missing (every
// system but Linux): every file and directory of two profiles is synced.
func TestSyncEach(t *testing.T) {
	// A file of mode 0000 cannot be opened to be synced but by root.
	var readable Profile
	for _, e := range sample().Entries {
		if e.Mode != "0000" {
			readable.Entries = append(readable.Entries, e)
		}
	}
	base := t.TempDir()
	for _, name := range []string{"a", "b"} {
		if err := WriteUnsynced(filepath.Join(base, name), readable); err != nil {
			t.Fatal(err)
		}
	}
	if err := syncEach(base); err != nil {
		t.Errorf("syncEach: %v", err)
	}
	if err := syncEach(filepath.Join(base, "missing")); err == nil {
		t.Error("syncEach of a missing directory succeeded")
	}
}
