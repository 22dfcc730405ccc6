//go:build !unix

package flock

import (
	"errors"
	"os"
)

// Lock fails: there is no flock here.
func Lock(f *os.File) error { return errors.ErrUnsupported }

// TryLock fails: there is no flock here.
func TryLock(f *os.File) error { return errors.ErrUnsupported }

// Unlock fails: there is no flock here.
func Unlock(f *os.File) error { return errors.ErrUnsupported }
