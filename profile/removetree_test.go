package profile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestRemoveTree(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, root string)
	}{
		{"a profile's etc", func(t *testing.T, root string) {
			mustWrite(t, filepath.Join(filepath.Dir(root), "p"), wideProfile())
			if err := os.Rename(filepath.Join(filepath.Dir(root), "p", "etc"), root); err != nil {
				t.Fatal(err)
			}
		}},
		{"an empty directory", func(t *testing.T, root string) {
			if err := os.Mkdir(root, 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{"nested empty directories", func(t *testing.T, root string) {
			if err := os.MkdirAll(filepath.Join(root, "a/b/c"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(root, "a/d"), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{"a symlink to a directory, not followed", func(t *testing.T, root string) {
			if err := os.Mkdir(root, 0o755); err != nil {
				t.Fatal(err)
			}
			outside := filepath.Join(filepath.Dir(root), "outside")
			if err := os.MkdirAll(filepath.Join(outside, "keep"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				if _, err := os.Stat(filepath.Join(outside, "keep")); err != nil {
					t.Errorf("the symlink's target was removed: %v", err)
				}
			})
		}},
		{"the root itself a symlink to a directory, not followed", func(t *testing.T, root string) {
			outside := filepath.Join(filepath.Dir(root), "outside")
			if err := os.MkdirAll(filepath.Join(outside, "keep"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(outside, "file"), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, root); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				for _, n := range []string{"keep", "file"} {
					if _, err := os.Stat(filepath.Join(outside, n)); err != nil {
						t.Errorf("the symlink's target lost %s: %v", n, err)
					}
				}
			})
		}},
		{"a file", func(t *testing.T, root string) {
			if err := os.WriteFile(root, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"nothing", func(t *testing.T, root string) {}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "root")
			tt.setup(t, root)
			if err := removeTree(root); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Lstat(root); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s is still there: %v", root, err)
			}
		})
	}
}
