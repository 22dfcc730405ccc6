package profile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// syncTree makes everything written below root durable: one syncfs(2) of
// the file system holding it, much cheaper than an fsync per file (where
// syncfs is missing, syncEach).
func syncTree(root string) error {
	f, err := os.Open(root)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := unix.Syncfs(int(f.Fd())); err != nil {
		if errors.Is(err, unix.ENOSYS) {
			return syncEach(root)
		}
		return err
	}
	return nil
}
