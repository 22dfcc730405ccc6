//go:build unix

package profile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// entryMaker creates the directories (0755), files and symlinks of a
// profile, with the modes asked for whatever the umask. It calls the
// system directly: an os.File would cost five more system calls a file.
type entryMaker struct {
	// umask is the mask the kernel applies to the modes of new inodes
	// below the profile, when known is true; a mode it leaves whole needs
	// no chmod after the creation.
	umask uint32
	known bool
	// reuse, when not nil, links files and symlinks the old profile has
	// unchanged instead of creating them (see reuser).
	reuse *reuser
}

// newEntryMaker returns the entryMaker for the profile being built in
// root, a directory Write made (see creationUmask), which replaces the
// profile at old ("" when there is none). The old profile's entries are
// reused only where new inodes get exactly the modes asked for: with a
// default ACL, what creating one gives is not the old entry's.
func newEntryMaker(root, old string) entryMaker {
	umask, known := creationUmask(root)
	m := entryMaker{umask: umask, known: known}
	if old != "" && known {
		m.reuse = newReuser(old, filepath.Join(root, markerName))
	}
	return m
}

// close releases what m holds open.
func (m entryMaker) close() { m.reuse.close() }

// exact reports whether an inode created with mode gets mode, so that it
// needs no chmod.
func (m entryMaker) exact(mode uint32) bool { return m.known && mode&m.umask == 0 }

// dir creates the directory p, 0755.
func (m entryMaker) dir(p string) error {
	const mode = 0o755
	if err := ignoringEINTR(func() error { return unix.Mkdir(p, mode) }); err != nil {
		return &fs.PathError{Op: "mkdir", Path: p, Err: err}
	}
	if m.exact(mode) {
		return nil
	}
	if err := ignoringEINTR(func() error { return unix.Chmod(p, mode) }); err != nil {
		return &fs.PathError{Op: "chmod", Path: p, Err: err}
	}
	return nil
}

// file creates p, which must not exist, with content and mode (permission
// bits): the profile's file for target.
func (m entryMaker) file(p, target string, content []byte, mode uint32) (err error) {
	if m.reuse != nil {
		if done, err := m.reuse.file(target, p, content, mode); done || err != nil {
			return err
		}
	}
	var fd int
	err = ignoringEINTR(func() (err error) {
		fd, err = unix.Open(p, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC, mode)
		return err
	})
	if err != nil {
		return &fs.PathError{Op: "open", Path: p, Err: err}
	}
	defer func() {
		if cerr := unix.Close(fd); cerr != nil && err == nil {
			err = &fs.PathError{Op: "close", Path: p, Err: cerr}
		}
	}()
	for len(content) > 0 {
		n, err := unix.Write(fd, content)
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return &fs.PathError{Op: "write", Path: p, Err: err}
		case n == 0:
			return &fs.PathError{Op: "write", Path: p, Err: io.ErrShortWrite}
		}
		content = content[n:]
	}
	if m.exact(mode) {
		return nil
	}
	if err := ignoringEINTR(func() error { return unix.Fchmod(fd, mode) }); err != nil {
		return &fs.PathError{Op: "chmod", Path: p, Err: err}
	}
	return nil
}

// symlink creates p as a symlink to link: the profile's symlink for
// target.
func (m entryMaker) symlink(link, p, target string) error {
	if m.reuse != nil {
		if done, err := m.reuse.symlink(target, p, link); done || err != nil {
			return err
		}
	}
	if err := ignoringEINTR(func() error { return unix.Symlink(link, p) }); err != nil {
		return &os.LinkError{Op: "symlink", Old: link, New: p, Err: err}
	}
	return nil
}

// ignoringEINTR calls f again while it is interrupted by a signal (the Go
// runtime's, for one), as package os does.
func ignoringEINTR(f func() error) error {
	for {
		if err := f(); !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

// errNotDir is readDirNoFollow's error for a path that is not a directory
// or is a symlink.
var errNotDir = unix.ENOTDIR

// readDirNoFollow reads the entries of the directory p, unsorted, without
// following p if it is a symlink (errNotDir then), even one that took the
// place of a directory since p was listed, as os.RemoveAll does.
func readDirNoFollow(p string) ([]fs.DirEntry, error) {
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = unix.Open(p, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		return err
	})
	if errors.Is(err, unix.ELOOP) {
		err = errNotDir
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	f := os.NewFile(uintptr(fd), p)
	defer f.Close()
	return f.ReadDir(-1)
}
