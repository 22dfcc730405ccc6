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

// newEntryMaker returns the entryMaker for the profile being built in
// root, which replaces the profile at old: here, nothing is taken from the
// old profile.
func newEntryMaker(root, old string) entryMaker { return entryMaker{} }

// close releases what the entryMaker holds: nothing here.
func (entryMaker) close() {}

// dir creates the directory p, 0755.
func (entryMaker) dir(p string) error {
	if err := os.Mkdir(p, 0o755); err != nil {
		return err
	}
	return os.Chmod(p, 0o755)
}

// file creates p, which must not exist, with content and mode: the
// profile's file for target.
func (entryMaker) file(p, target string, content []byte, mode uint32) error {
	return writeFile(p, content, fs.FileMode(mode))
}

// symlink creates p as a symlink to link: the profile's symlink for
// target.
func (entryMaker) symlink(link, p, target string) error { return os.Symlink(link, p) }

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
