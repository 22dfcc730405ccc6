//go:build unix

package safefile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/nodegen/nodegen/internal/filekind"
)

// Dir is a directory opened without following a symbolic link.
type Dir struct {
	fd   int
	path string
}

// Path returns the path the directory was opened by.
func (d *Dir) Path() string { return d.path }

// Close releases the directory's descriptor.
func (d *Dir) Close() error {
	if d.fd < 0 {
		return nil
	}
	err := unix.Close(d.fd)
	d.fd = -1
	return err
}

// OpenDir opens the directory at path, a normalized absolute path no
// component of which may be a symbolic link.
func OpenDir(path string) (*Dir, error) {
	return openDir(path, false, 0)
}

// MkdirAll opens the directory at path as OpenDir does, and creates the
// components that are missing on the way: owned by the caller, the
// directory itself with perm, the ones above it 0755. A component that
// exists is left as it is.
func MkdirAll(path string, perm fs.FileMode) (*Dir, error) {
	return openDir(path, true, perm)
}

func openDir(path string, create bool, perm fs.FileMode) (*Dir, error) {
	if !filepath.IsAbs(path) || filepath.Clean(path) != path {
		return nil, fmt.Errorf("%q is not a normalized absolute path", path)
	}
	root, err := openat(unix.AT_FDCWD, "/", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: "/", Err: err}
	}
	if path == "/" {
		return &Dir{fd: root, path: path}, nil
	}
	// One call for the whole path where the kernel can refuse every
	// link on the way; the walk below is for what it cannot do (create a
	// missing directory, say which component is a link) and for kernels
	// without openat2.
	fd, err := beneath(root, path[1:])
	if err == nil {
		unix.Close(root)
		return &Dir{fd: fd, path: path}, nil
	}
	fd, err = walk(root, path, create, perm)
	if err != nil {
		return nil, err
	}
	return &Dir{fd: fd, path: path}, nil
}

// beneath is openBeneath; the tests take it away, to test the walk alone.
var beneath = openBeneath

// walk opens path from the directory root (which it closes) one
// component at a time, with O_NOFOLLOW: a symbolic link anywhere is an
// error naming it.
func walk(root int, path string, create bool, perm fs.FileMode) (int, error) {
	fd := root
	comps := strings.Split(path[1:], "/")
	for i, c := range comps {
		sofar := "/" + strings.Join(comps[:i+1], "/")
		next, err := openat(fd, c, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC)
		if errors.Is(err, unix.ENOENT) && create {
			mode := uint32(0o755)
			if i == len(comps)-1 {
				mode = uint32(perm.Perm())
			}
			next, err = mkdirat(fd, c, mode)
		}
		if err != nil {
			err = explain(fd, c, sofar, err)
			unix.Close(fd)
			return -1, err
		}
		unix.Close(fd)
		fd = next
	}
	return fd, nil
}

// mkdirat creates the directory name in dir and opens it; the new
// directory's mode is set on its descriptor (no umask), when it is the
// caller's: one that another user made in between is opened as it is.
func mkdirat(dir int, name string, mode uint32) (int, error) {
	if err := unix.Mkdirat(dir, name, 0o700); err != nil && !errors.Is(err, unix.EEXIST) {
		return -1, err
	}
	fd, err := openat(dir, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC)
	if err != nil {
		return -1, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, err
	}
	if int(st.Uid) == os.Geteuid() {
		// A parent with the set-group-ID bit gives its group: the
		// directory is the caller's, group too.
		if err := unix.Fchown(fd, os.Geteuid(), os.Getegid()); err != nil {
			unix.Close(fd)
			return -1, err
		}
		if err := unix.Fchmod(fd, mode); err != nil {
			unix.Close(fd)
			return -1, err
		}
	}
	return fd, nil
}

// explain turns the error of opening name in dir (at path) into one that
// says what is there: a symbolic link and where it points, or another kind
// of file.
func explain(dir int, name, path string, err error) error {
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		var st unix.Stat_t
		if unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
			if st.Mode&unix.S_IFMT == unix.S_IFLNK {
				buf := make([]byte, 4096)
				n, err := unix.Readlinkat(dir, name, buf)
				if err != nil {
					n = 0
				}
				return fmt.Errorf("%s is a symbolic link (to %s): a link is never followed here; name the directory itself", path, buf[:n])
			}
			return fmt.Errorf("%s is a %s, not a directory", path, filekind.Of(fileMode(uint32(st.Mode))))
		}
	}
	return &fs.PathError{Op: "open", Path: path, Err: err}
}

// fileMode turns st_mode's type into an fs.FileMode, for filekind.
func fileMode(m uint32) fs.FileMode {
	switch m & unix.S_IFMT {
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	case unix.S_IFREG:
		return 0
	}
	return fs.ModeIrregular
}

// Owner is the owner and group a file is given.
type Owner struct{ UID, GID int }

// WriteFile writes content as the file name of d, owned by owner with
// mode perm: created under a temporary name with O_EXCL (so nothing that
// was there is opened), owner and mode set on its descriptor while it is
// empty, the content written and synced, then renamed over name within d
// and d synced. What was at name (a file, a symbolic link) is replaced,
// never written through. It fails, leaving no temporary file, when d is a
// directory that someone changed so that name is not the file written
// once renamed.
func (d *Dir) WriteFile(name string, content []byte, owner Owner, perm fs.FileMode) error {
	if p := NameProblem(name); p != "" {
		return fmt.Errorf("%q is not a file name: %s", name, p)
	}
	full := filepath.Join(d.path, name)
	var rnd [8]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return err
	}
	tmp := ".nodegen-" + hex.EncodeToString(rnd[:]) + ".tmp"
	// Mode 0 until it has its owner: no one else can open it meanwhile.
	fd, err := openatMode(d.fd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return &fs.PathError{Op: "create", Path: full, Err: err}
	}
	f := os.NewFile(uintptr(fd), filepath.Join(d.path, tmp))
	fail := func(op string, err error) error {
		f.Close()
		unix.Unlinkat(d.fd, tmp, 0)
		return &fs.PathError{Op: op, Path: full, Err: err}
	}
	if err := f.Chown(owner.UID, owner.GID); err != nil {
		return fail("chown", unwrap(err))
	}
	if err := f.Chmod(perm); err != nil {
		return fail("chmod", unwrap(err))
	}
	if _, err := f.Write(content); err != nil {
		return fail("write", unwrap(err))
	}
	if err := f.Sync(); err != nil {
		return fail("sync", unwrap(err))
	}
	var written unix.Stat_t
	if err := unix.Fstat(fd, &written); err != nil {
		return fail("stat", err)
	}
	if err := ignoringEINTR(func() error { return unix.Renameat(d.fd, tmp, d.fd, name) }); err != nil {
		return fail("rename", err)
	}
	f.Close()
	if err := unix.Fsync(d.fd); err != nil {
		return &fs.PathError{Op: "sync", Path: d.path, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil || st.Dev != written.Dev || st.Ino != written.Ino {
		return fmt.Errorf("%s: its directory was changed while the file was written (by another user who can write %s): %s is not the file written", full, d.path, name)
	}
	return nil
}

// unwrap is the errno of an *os.File method's error.
func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func openat(dir int, name string, flags int) (int, error) {
	return openatMode(dir, name, flags, 0)
}

func openatMode(dir int, name string, flags int, mode uint32) (int, error) {
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = unix.Openat(dir, name, flags, mode)
		return err
	})
	return fd, err
}

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}
