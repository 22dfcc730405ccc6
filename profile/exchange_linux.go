package profile

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchangeDirs swaps the directories at a and b in one step
// (renameat2 with RENAME_EXCHANGE), so that there is no moment at which
// neither is in place. errExchangeUnsupported says the kernel or the file
// system cannot (Linux before 3.15, some file systems).
func exchangeDirs(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EOPNOTSUPP) {
		return errExchangeUnsupported
	}
	return err
}
