//go:build unix

package regularfile

import "syscall"

// oNonblock opens a FIFO without waiting for a writer and never makes a
// terminal the controlling one; oNofollow refuses a symbolic link.
const (
	oNonblock = syscall.O_NONBLOCK | syscall.O_NOCTTY
	oNofollow = syscall.O_NOFOLLOW
)
