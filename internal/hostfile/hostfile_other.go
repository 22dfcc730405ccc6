//go:build !linux

package hostfile

import (
	"io"
	"io/fs"
	"os"
	"slices"
)

// readRegular is the Linux one's rules through package os: more system
// calls, the same answers.
func readRegular(buf []byte, path string, max int64) ([]byte, bool) {
	if fi, err := os.Stat(path); err != nil || !fits(fi, max) {
		return buf, false
	}
	f, err := os.Open(path)
	if err != nil {
		return buf, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fits(fi, max) {
		return buf, false
	}
	// Room for one byte more than the size, to tell a file that grew.
	size := int(fi.Size())
	buf = slices.Grow(buf[:0], size+1)[:size+1]
	n, err := io.ReadFull(f, buf)
	if err != io.ErrUnexpectedEOF || n != size {
		return buf[:0], false
	}
	return buf[:n], true
}

// fits reports whether fi is a regular file of at most max bytes.
func fits(fi fs.FileInfo, max int64) bool {
	return fi.Mode().IsRegular() && fi.Size() <= max
}
