//go:build unix

package profile

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWriteUmask checks that modes do not depend on the umask, whether it
// clears none of an entry's bits (no chmod needed) or some.
func TestWriteUmask(t *testing.T) {
	base := t.TempDir()
	want := filepath.Join(base, "want")
	mustWrite(t, want, sample())
	for _, umask := range []int{0, 0o002, 0o022, 0o077, 0o777} {
		dir := filepath.Join(base, "umask")
		old := syscall.Umask(umask)
		err := Write(dir, sample())
		syscall.Umask(old)
		if err != nil {
			t.Fatalf("umask %04o: %v", umask, err)
		}
		if diff := cmp.Diff(snapshot(t, want), snapshot(t, dir)); diff != "" {
			t.Errorf("umask %04o changed the tree (-%04o +%04o):\n%s", umask, old, umask, diff)
		}
	}
}
