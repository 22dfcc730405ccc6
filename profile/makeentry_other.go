//go:build !unix

package profile

import (
	"errors"
	"io/fs"
	"os"
)

// entryMaker creates the directories (0755), files and symlinks of a
// profile, with the modes asked for whatever the umask.
type entryMaker struct{}

func newEntryMaker(root string) entryMaker { return entryMaker{} }

// dir creates the directory p, 0755.
func (entryMaker) dir(p string) error {
	if err := os.Mkdir(p, 0o755); err != nil {
		return err
	}
	return os.Chmod(p, 0o755)
}

// file creates p, which must not exist, with content and mode.
func (entryMaker) file(p string, content []byte, mode uint32) error {
	return writeFile(p, content, fs.FileMode(mode))
}

// symlink creates p as a symlink to link.
func (entryMaker) symlink(link, p string) error { return os.Symlink(link, p) }

// errNotDir is readDirNoFollow's error for a path that is not a directory
// or is a symlink.
var errNotDir = errors.New("not a directory")

// readDirNoFollow reads the entries of the directory p without following p
// if it is a symlink (errNotDir then).
func readDirNoFollow(p string) ([]fs.DirEntry, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: p, Err: errNotDir}
	}
	return os.ReadDir(p)
}
