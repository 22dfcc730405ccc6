package profile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// syncTree makes everything written below root durable: one syncfs(2) of
// the file system holding it, much cheaper than an fsync per file. dirs
// are the directories created, for the fallback.
func syncTree(root string, dirs []string) error {
	f, err := os.Open(root)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := unix.Syncfs(int(f.Fd())); err != nil {
		if errors.Is(err, unix.ENOSYS) {
			return syncEach(root, dirs)
		}
		return err
	}
	return nil
}
