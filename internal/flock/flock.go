// Package flock takes and releases advisory whole-file locks (flock(2))
// on open files and directories: the one lock helper of nodegen, for the
// profile directory's writers, the PKI's state directory, the activation
// state of a host and the test roots' caches. On systems without flock
// every call fails with errors.ErrUnsupported.
package flock

import "errors"

// ErrHeld is what TryLock returns when another open file description
// holds the lock.
var ErrHeld = errors.New("locked by another process")
