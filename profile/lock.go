package profile

import (
	"os"

	"github.com/nodegen/nodegen/internal/flock"
)

// lockDir takes an exclusive flock on dir, so that concurrent Writes to the
// same parent take turns, and returns its release. Where the file system
// (or the system) does not support flock on a directory, it goes on
// without a lock.
func lockDir(dir string) func() {
	f, err := os.Open(dir)
	if err != nil {
		return func() {}
	}
	if err := flock.Lock(f); err != nil {
		f.Close()
		return func() {}
	}
	return func() {
		flock.Unlock(f)
		f.Close()
	}
}
