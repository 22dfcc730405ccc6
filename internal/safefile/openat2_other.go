//go:build unix && !linux

package safefile

import "golang.org/x/sys/unix"

// openBeneath has no openat2 to call outside Linux: the caller walks the
// path one component at a time instead.
func openBeneath(dir int, name string) (int, error) { return -1, unix.ENOSYS }
