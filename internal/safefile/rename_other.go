//go:build unix && !linux

package safefile

import "golang.org/x/sys/unix"

// renameat2 is Linux's: elsewhere a rename that must not replace, or
// that exchanges, is not supported, and callers say what they do instead.
func renameat2(fromDir int, from string, toDir int, to string, flags uint) error {
	return unix.ENOTSUP
}

const (
	renameNoReplace = 1
	renameExchange  = 2
)
