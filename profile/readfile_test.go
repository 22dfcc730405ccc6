package profile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nodegen/nodegen/internal/suitereport"
)

// TestDiffTamperedProfile replaces a changed file of a profile, or its
// manifest, by things a reader must not read whole or block on, and wants
// Diff to fail at once with a message saying what is wrong.
func TestDiffTamperedProfile(t *testing.T) {
	for _, c := range []struct {
		name   string
		path   string // below the new profile
		tamper func(p string) error
		want   string
	}{
		{"symlink to /dev/zero", "etc/x", func(p string) error { return os.Symlink("/dev/zero", p) },
			"etc/x: it is a symbolic link, not a regular file"},
		{"huge file", "etc/x", func(p string) error {
			f, err := os.Create(p)
			if err != nil {
				return err
			}
			defer f.Close()
			return f.Truncate(64 << 30) // sparse: no disk space taken
		}, "etc/x: it has 68719476736 bytes, more than 2"},
		{"FIFO", "etc/x", mkfifo, "etc/x: it is a FIFO, not a regular file"},
		{"manifest symlink to /dev/zero", ManifestName, func(p string) error { return os.Symlink("/dev/zero", p) },
			ManifestName + ": it is a symbolic link, not a regular file"},
		{"huge manifest", ManifestName, func(p string) error { return os.Truncate(p, 64<<30) },
			ManifestName + ": it has 68719476736 bytes, more than"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b := writePair(t,
				[]Entry{{Target: "x", Content: []byte("1\n"), Mode: "0644"}},
				[]Entry{{Target: "x", Content: []byte("2\n"), Mode: "0644"}})
			p := filepath.Join(b, filepath.FromSlash(c.path))
			if c.name != "huge manifest" {
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
			}
			if err := c.tamper(p); err != nil {
				suitereport.Skip(t, "file system features (profile)", fmt.Sprintf("cannot tamper here: %v", err))
			}
			_, err := Diff(a, b)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Diff: %v, want an error saying %q", err, c.want)
			}
		})
	}
}
