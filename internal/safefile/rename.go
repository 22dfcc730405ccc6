//go:build unix

package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// ErrRenameUnsupported is the error of RenameNoReplace and Exchange where
// the kernel or the file system cannot do them (no renameat2, or a file
// system without its flags): the caller falls back to a plain rename
// after a check, and knows a window remains.
var ErrRenameUnsupported = errors.New("the file system cannot rename without replacing or exchange two entries")

// DirOf is the directory f, which the caller opened by its own rules (an
// *os.Root's Open of a directory below it, say), as a Dir: what is done
// through the Dir is done by names relative to that descriptor, never by
// walking a path again. f stays the caller's; the Dir has a descriptor
// of its own, which Close releases.
func DirOf(f *os.File) (*Dir, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: f.Name(), Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return nil, fmt.Errorf("%s is not a directory", f.Name())
	}
	fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "dup", Path: f.Name(), Err: err}
	}
	return &Dir{fd: fd, path: f.Name()}, nil
}

// RenameNoReplace renames the entry from of d to to, within d, only if
// nothing is at to: fs.ErrExist (wrapped) when something is, and nothing
// changes. It is one renameat2 with RENAME_NOREPLACE, so nothing that
// appears at to in the meantime is ever replaced.
func (d *Dir) RenameNoReplace(from, to string) error {
	return d.rename("rename", from, d, to, renameNoReplace)
}

// MoveNoReplace is RenameNoReplace from the entry name of d to the entry
// toName of the directory to, on the same file system (else an error
// that is syscall.EXDEV).
func (d *Dir) MoveNoReplace(name string, to *Dir, toName string) error {
	return d.rename("rename", name, to, toName, renameNoReplace)
}

// Exchange swaps the entries a and b of d in one step (renameat2 with
// RENAME_EXCHANGE): both must exist. The caller then looks at what came
// to a, and exchanges them back when it was not what it may replace.
func (d *Dir) Exchange(a, b string) error {
	return d.rename("exchange", a, d, b, renameExchange)
}

func (d *Dir) rename(op, from string, toDir *Dir, to string, flags uint) error {
	for _, n := range []string{from, to} {
		if p := NameProblem(n); p != "" {
			return fmt.Errorf("%q is not a file name: %s", n, p)
		}
	}
	err := renameat2(d.fd, from, toDir.fd, to, flags)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.ENOTSUP):
		return fmt.Errorf("%s %s: %w", op, filepath.Join(toDir.path, to), ErrRenameUnsupported)
	}
	return &fs.PathError{Op: op, Path: filepath.Join(toDir.path, to), Err: err}
}

// Sync makes the entries of d durable.
func (d *Dir) Sync() error {
	if err := unix.Fsync(d.fd); err != nil && !errors.Is(err, unix.EINVAL) {
		return &fs.PathError{Op: "sync", Path: d.path, Err: err}
	}
	return nil
}
