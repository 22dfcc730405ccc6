//go:build unix

package flock

import (
	"errors"
	"os"
	"syscall"
)

// Lock takes an exclusive lock on f, waiting for any other holder.
func Lock(f *os.File) error {
	return retry(func() error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) })
}

// TryLock takes an exclusive lock on f without waiting: ErrHeld when
// another holds it.
func TryLock(f *os.File) error {
	err := retry(func() error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) })
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return ErrHeld
	}
	return err
}

// Unlock releases the lock on f (closing f releases it too).
func Unlock(f *os.File) error {
	return retry(func() error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) })
}

// retry calls f again as long as a signal interrupts it.
func retry(f func() error) error {
	for {
		if err := f(); err != syscall.EINTR {
			return err
		}
	}
}
