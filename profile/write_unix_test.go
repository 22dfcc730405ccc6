//go:build unix

package profile

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWriteUmask checks that modes do not depend on the umask.
func TestWriteUmask(t *testing.T) {
	base := t.TempDir()
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	mustWrite(t, a, sample())
	old := syscall.Umask(0o077)
	err := Write(b, sample())
	syscall.Umask(old)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(snapshot(t, a), snapshot(t, b)); diff != "" {
		t.Errorf("umask 077 changed the tree (-022 +077):\n%s", diff)
	}
}
