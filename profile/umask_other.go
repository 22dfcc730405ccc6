//go:build unix && !linux

package profile

import "io/fs"

// creationUmask cannot tell the umask without setting it, outside Linux:
// known is false, and every mode is set after creation.
func creationUmask(dir string) (umask uint32, known bool) { return 0, false }

// Umask cannot tell the umask without setting it, outside Linux: known is
// false.
func Umask() (umask fs.FileMode, known bool) { return 0, false }
