//go:build !linux

package activate

import "os"

// syncFS makes d durable where syncfs(2) does not exist.
func syncFS(d *os.File) error { return d.Sync() }
