// Package atomicfile writes a file so that a reader sees either its old
// content or its new one, never a part: the data goes into a temporary
// file in the same directory, is synced, and is renamed into place.
package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile writes data to name atomically; the file has mode perm.
func WriteFile(name string, data []byte, perm fs.FileMode) error {
	return Replace(name, data, func(fs.FileMode, bool) fs.FileMode { return perm })
}

// Replace writes data to name atomically, with the mode modeFor gives
// from the mode of the file it replaces (exists says whether there is
// one; old is 0 when there is not).
func Replace(name string, data []byte, modeFor func(old fs.FileMode, exists bool) fs.FileMode) error {
	var mode fs.FileMode
	if st, err := os.Stat(name); err == nil {
		mode = modeFor(st.Mode().Perm(), true)
	} else if errors.Is(err, fs.ErrNotExist) {
		mode = modeFor(0, false)
	} else {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}
