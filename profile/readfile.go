package profile

import (
	"fmt"
	"io"
	"os"

	"github.com/nodegen/nodegen/internal/filekind"
)

// maxManifestSize bounds how much of a manifest Read reads: a profile of
// 100,000 files has a manifest of some 40 MB.
const maxManifestSize = 256 << 20

// readRegular reads the file at p, which must be a regular file (not a
// symlink, device, FIFO or socket) of at most max bytes: a profile whose
// files were replaced, say by a symlink to /dev/zero, must not make a
// reader block or run out of memory. It checks the file before opening it,
// so that opening never blocks, and again after, in case it was replaced in
// between.
func readRegular(p string, max int64) ([]byte, error) {
	before, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if err := checkRegular(p, before, max); err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	after, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !os.SameFile(before, after) {
		return nil, fmt.Errorf("%s changed while it was read", p)
	}
	if err := checkRegular(p, after, max); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s is larger than %d bytes", p, max)
	}
	return data, nil
}

func checkRegular(p string, fi os.FileInfo, max int64) error {
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (it is a %s)", p, filekind.Of(fi.Mode()))
	}
	if fi.Size() > max {
		return fmt.Errorf("%s is larger than %d bytes", p, max)
	}
	return nil
}
