//go:build linux

package nspawntest

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func TestRootfs(t *testing.T) {
	// Two tests asking at once both get the one cached root.
	var mu sync.Mutex
	roots := map[string]bool{}
	t.Run("group", func(t *testing.T) {
		for _, name := range []string{"a", "b"} {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				root := Rootfs(t)
				if !isDir(filepath.Join(root, "usr/lib/systemd")) || !isFile(filepath.Join(root, "usr/bin/dbus-daemon")) {
					t.Errorf("%s has no systemd or no D-Bus", root)
				}
				// A stock root: debootstrap's /etc/hostname is kept.
				if data, err := os.ReadFile(filepath.Join(root, "etc/hostname")); err != nil || len(data) == 0 {
					t.Errorf("%s has no /etc/hostname as debootstrap writes it: %q, %v", root, data, err)
				}
				mu.Lock()
				roots[root] = true
				mu.Unlock()
			})
		}
	})
	if len(roots) > 1 {
		t.Errorf("concurrent callers got different roots: %v", roots)
	}
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

func isFile(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
