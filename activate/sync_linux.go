package activate

import (
	"os"

	"golang.org/x/sys/unix"
)

// syncFS makes the file system holding d durable: one syncfs(2).
func syncFS(d *os.File) error { return unix.Syncfs(int(d.Fd())) }
