package activate

import (
	"errors"
	"strings"
	"testing"
)

// TestLockState: a receive and a command holding the host's lock take
// turns; the second is refused, saying who holds it, as ErrLocked.
func TestLockState(t *testing.T) {
	dir := t.TempDir()
	release, err := LockState(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LockState(dir); err == nil || !strings.Contains(err.Error(), "another nodegen command is changing this host") || !errors.Is(err, ErrLocked) {
		t.Errorf("a second lock: %v", err)
	}
	release()
	release, err = LockState(dir)
	if err != nil {
		t.Fatalf("after the release: %v", err)
	}
	release()
}
