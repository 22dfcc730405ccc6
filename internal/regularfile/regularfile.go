// Package regularfile reads files that must be regular files of a bounded
// size: a device, a FIFO, a socket or a directory is an error, never
// opened to wait on or read without end, and a file larger than the bound
// or changed while read is an error, never read whole.
//
// Whether a symbolic link at the file's name is followed is the caller's
// rule, stated at each call (Links):
//
//   - A file a user points at (a module, file()'s argument, a key file, a
//     token file) is followed through links, as every other program reads
//     a path it is given: /run/secrets/x is often one, and the file at the
//     end of the link is checked as strictly as any other.
//   - A file nodegen wrote and replaces atomically (a profile's manifest
//     and files, the marker of a profile being written) is never a link
//     in a profile nodegen made: one there was put by someone else, and
//     reading through it would read what they chose (/dev/zero, another
//     profile's file), so it is refused (RefuseLinks).
//
// Read reads through an fs.FS (following links, as os.DirFS does);
// ReadFile and Open take a host path and a Links rule; ReadFast is the
// fewest system calls for the loader and the parse cache, which read a
// thousand small files a run. DirFS is the fs.FS that opens without
// waiting.
package regularfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/nodegen/nodegen/internal/filekind"
)

// Links says whether a symbolic link at a file's name is followed.
type Links int

const (
	// FollowLinks reads the file a symbolic link points to: for a path a
	// user gives.
	FollowLinks Links = iota
	// RefuseLinks refuses a symbolic link at the name: for a file nodegen
	// wrote and replaces atomically, which is never a link.
	RefuseLinks
)

// ErrRefused is what the error of a file that is there but is not read
// matches (errors.Is): not a regular file (or a link under RefuseLinks),
// larger than allowed, replaced while opened, or not holding its size.
var ErrRefused = errors.New("not a regular file of the size allowed")

// ErrTooLarge is what the error of a file larger than allowed matches
// (errors.Is), besides ErrRefused: a caller names the limit to raise.
var ErrTooLarge = errors.New("larger than allowed")

// refused is the cause, in an *fs.PathError, of a file that is refused.
type refused struct {
	msg      string
	tooLarge bool // refused for its size
}

func (r refused) Error() string { return r.msg }

// Is makes refused match ErrRefused, and ErrTooLarge for its size.
func (r refused) Is(target error) bool {
	return target == ErrRefused || (r.tooLarge && target == ErrTooLarge)
}

func refuse(name, format string, args ...any) error {
	return &fs.PathError{Op: "read", Path: name, Err: refused{msg: fmt.Sprintf(format, args...)}}
}

// Read reads the file name of fsys, following symbolic links, which must
// end at a regular file of at most max bytes. The file is checked before
// it is opened and again once open; and it must hold as many bytes as its
// size says, which a file that the kernel makes up as it is read
// (/proc/self/environ, of size 0) does not. Errors are *fs.PathError
// naming name; a missing file's is fs.ErrNotExist.
func Read(fsys fs.FS, name string, max int64) ([]byte, error) {
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if err := check(name, fi, max); err != nil {
		return nil, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := check(name, fi, max); err != nil {
		return nil, err
	}
	return readAll(f, name, fi.Size())
}

// ReadFile reads the file at path, a host path, which must be a regular
// file of at most max bytes (see Read); links says whether a symbolic link
// at path is followed or refused.
func ReadFile(path string, max int64, links Links) ([]byte, error) {
	f, fi, err := Open(path, links)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := check(path, fi, max); err != nil {
		return nil, err
	}
	return readAll(f, path, fi.Size())
}

// Open opens the file at path, a host path, for reading when it is a
// regular file, and returns it with what its descriptor says of it (its
// mode and size, for a caller with more rules). It looks at path before it
// opens it, so that a device or FIFO is never opened; opens without
// waiting (O_NONBLOCK, and O_NOFOLLOW under RefuseLinks, where the system
// has them); and checks that what it opened is what it looked at.
func Open(path string, links Links) (*os.File, fs.FileInfo, error) {
	stat, flags := os.Stat, oNonblock
	if links == RefuseLinks {
		stat, flags = os.Lstat, oNonblock|oNofollow
	}
	before, err := stat(path)
	if err != nil {
		return nil, nil, err
	}
	if err := check(path, before, -1); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|flags, 0)
	if err != nil {
		if links == RefuseLinks && errors.Is(err, syscall.ELOOP) {
			err = notRegular(path, fs.ModeSymlink)
		}
		return nil, nil, err
	}
	after, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if err := check(path, after, -1); err != nil {
		f.Close()
		return nil, nil, err
	}
	if !os.SameFile(before, after) {
		f.Close()
		return nil, nil, refuse(path, "it was replaced while it was opened")
	}
	return f, after, nil
}

// readAll reads the size bytes of f, and one more to tell a file that
// grew or that the kernel makes up as it is read.
func readAll(f io.Reader, name string, size int64) ([]byte, error) {
	data := make([]byte, size+1)
	n, err := io.ReadFull(f, data)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	data = data[:n:n]
	if int64(n) != size {
		got := "more"
		if int64(n) < size {
			got = fmt.Sprint(n)
		}
		return nil, refuse(name, "it is not an ordinary file: its size is %d bytes, reading it gave %s", size, got)
	}
	return data, nil
}

// check checks that fi is a regular file of at most max bytes (any size
// when max is negative).
func check(name string, fi fs.FileInfo, max int64) error {
	if !fi.Mode().IsRegular() {
		return notRegular(name, fi.Mode())
	}
	if max >= 0 && fi.Size() > max {
		return &fs.PathError{Op: "read", Path: name, Err: refused{msg: fmt.Sprintf("it has %d bytes, more than %d", fi.Size(), max), tooLarge: true}}
	}
	return nil
}

func notRegular(name string, m fs.FileMode) error {
	return refuse(name, "it is a %s, not a regular file", filekind.Of(m))
}
