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

// HostPath returns the host path of the file name of fsys, when fsys is a
// DirFS and name a valid path in it: a caller that reads many files of
// such a directory reads them with ReadFast's fewer system calls (an
// os.DirFS file is opened through the poller: four fcntl calls and an
// epoll_ctl more a file).
func HostPath(fsys fs.FS, name string) (string, bool) {
	d, ok := fsys.(dirFS)
	if !ok || !fs.ValidPath(name) {
		return "", false
	}
	return path.Join(d.dir, name), true
}

// ReadDir implements fs.ReadDirFS.
func (d dirFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(d.disk, name) }
