package regularfile

import (
	"errors"
	"io/fs"
	"os"
	"path"
)

// DirFS is the files below dir, as os.DirFS(dir), but that it opens a file
// without waiting (O_NONBLOCK where the system has it): Read looks
// at a file before it opens it, and a FIFO put in its place in between
// then makes the open fail or return at once (and the look at the open
// file refuse it) instead of blocking until a writer comes. It implements
// fs.StatFS and fs.ReadDirFS through os.DirFS, which open nothing to stat.
func DirFS(dir string) fs.FS { return dirFS{os.DirFS(dir), dir} }

type dirFS struct {
	disk fs.FS // os.DirFS(dir)
	dir  string
}

// Open implements fs.FS.
func (d dirFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := os.OpenFile(path.Join(d.dir, name), os.O_RDONLY|oNonblock, 0)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Path = name // as os.DirFS names it
		}
		return nil, err
	}
	return f, nil
}

// Stat implements fs.StatFS.
func (d dirFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(d.disk, name) }

// ReadDir implements fs.ReadDirFS.
func (d dirFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(d.disk, name) }
