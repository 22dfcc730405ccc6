package profile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLeftBehindDuringRemoval checks that a profile directory that
// removeOwnDir was interrupted in removing is still provably a Write's, at
// every step: a crash while removing must not leave an orphan that no later
// Write will remove.
func TestLeftBehindDuringRemoval(t *testing.T) {
	steps := []struct {
		name string
		undo func(dir string) error
	}{
		{"marked", func(dir string) error { return nil }},
		{"etc removed", func(dir string) error { return os.RemoveAll(filepath.Join(dir, "etc")) }},
		{"some of etc removed", func(dir string) error { return os.Remove(filepath.Join(dir, "etc", "hostname")) }},
		{"manifest removed", func(dir string) error {
			if err := os.RemoveAll(filepath.Join(dir, "etc")); err != nil {
				return err
			}
			return os.Remove(filepath.Join(dir, ManifestName))
		}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), ".result.nodegen-old-0123456789abcdef")
			mustWrite(t, dir, sample())
			if err := writeFile(filepath.Join(dir, markerName), markerContent(dir), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := s.undo(dir); err != nil {
				t.Fatal(err)
			}
			if !leftBehind(dir) {
				t.Error("not recognised as left behind")
			}
			if err := removeOwnDir(dir); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Lstat(dir); !os.IsNotExist(err) {
				t.Errorf("still there: %v", err)
			}
		})
	}
}

// TestLeftBehindSymlink checks that a sibling that is a symlink, even to a
// profile, is never taken for a leftover (removing it would remove what it
// points to).
func TestLeftBehindSymlink(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	mustWrite(t, real, sample())
	link := filepath.Join(base, ".result.nodegen-old-0123456789abcdef")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if leftBehind(link) {
		t.Error("a symlink is taken for a leftover")
	}
	mustWrite(t, filepath.Join(base, "result"), sample())
	if _, err := Read(real); err != nil {
		t.Errorf("the symlink's target was touched: %v", err)
	}
}
