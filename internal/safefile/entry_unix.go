//go:build unix

package safefile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// ReadFile reads the entry name of d, which must be a regular file of at
// most max bytes: opened with O_NOFOLLOW and O_NONBLOCK (a link, a FIFO or
// a device is refused, never read or waited on). A missing entry is an
// error that is fs.ErrNotExist.
func (d *Dir) ReadFile(name string, max int64) ([]byte, error) {
	if p := NameProblem(name); p != "" {
		return nil, fmt.Errorf("%q is not a file name: %s", name, p)
	}
	full := filepath.Join(d.path, name)
	fd, err := openat(d.fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC)
	if err != nil {
		if err == unix.ELOOP {
			return nil, fmt.Errorf("%s is a symbolic link, which nodegen does not follow", full)
		}
		return nil, &fs.PathError{Op: "open", Path: full, Err: err}
	}
	f := os.NewFile(uintptr(fd), full)
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: full, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, fmt.Errorf("%s is not a regular file", full)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: full, Err: unwrap(err)}
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s has more than %d bytes", full, max)
	}
	return data, nil
}

// Lstat returns what the entry name of d is, without following a link;
// a missing entry is an error that is fs.ErrNotExist.
func (d *Dir) Lstat(name string) (unix.Stat_t, error) {
	var st unix.Stat_t
	if p := NameProblem(name); p != "" {
		return st, fmt.Errorf("%q is not a file name: %s", name, p)
	}
	err := ignoringEINTR(func() error { return unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) })
	if err != nil {
		return st, &fs.PathError{Op: "lstat", Path: filepath.Join(d.path, name), Err: err}
	}
	return st, nil
}

// Remove removes the entry name of d, a file or a link (never a
// directory); a missing entry is no error.
func (d *Dir) Remove(name string) error {
	if p := NameProblem(name); p != "" {
		return fmt.Errorf("%q is not a file name: %s", name, p)
	}
	err := ignoringEINTR(func() error { return unix.Unlinkat(d.fd, name, 0) })
	if err != nil && err != unix.ENOENT {
		return &fs.PathError{Op: "remove", Path: filepath.Join(d.path, name), Err: err}
	}
	return nil
}

// Names lists the entries of d.
func (d *Dir) Names() ([]string, error) {
	fd, err := unix.Openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: d.path, Err: err}
	}
	f := os.NewFile(uintptr(fd), d.path)
	defer f.Close()
	return f.Readdirnames(-1)
}
