//go:build unix

package profile

import (
	"os"
	"syscall"
)

// lockDir takes an exclusive flock on dir, so that concurrent Writes to the
// same parent take turns, and returns its release. Where the file system
// does not support flock on a directory, it goes on without a lock.
func lockDir(dir string) func() {
	f, err := os.Open(dir)
	if err != nil {
		return func() {}
	}
	if err := ignoringEINTR(func() error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }); err != nil {
		f.Close()
		return func() {}
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
}
