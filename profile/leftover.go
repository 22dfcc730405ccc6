package profile

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/nodegen/nodegen/internal/filekind"
	"github.com/nodegen/nodegen/internal/regularfile"
)

// The names of the siblings of a profile directory BASE that Write makes:
// it builds the new profile in .BASE.nodegen-new-ID and, where it cannot
// exchange two directories in one step, moves the old profile aside to
// .BASE.nodegen-old-ID. ID is 16 random hexadecimal digits, new for each
// Write.
const (
	newInfix = ".nodegen-new-"
	oldInfix = ".nodegen-old-"
	idLen    = 16
)

// markerName is the file that marks a directory as a profile Write is
// still building: it is the first thing Write puts in .BASE.nodegen-new-ID,
// and it is removed once the profile is whole (and recognisable by its
// manifest). Its content is markerContent of the directory.
const markerName = ".nodegen-unfinished"

// markerContent is what the marker in the directory dir says: it names the
// directory, so that a marker copied elsewhere proves nothing.
func markerContent(dir string) []byte {
	return []byte(fmt.Sprintf("nodegen is writing a profile in %s; a later write removes it if this one is interrupted\n", filepath.Base(dir)))
}

// newSiblingID returns a fresh random ID for a Write's sibling names.
func newSiblingID() (string, error) {
	var b [idLen / 2]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// isSiblingName reports whether name is prefix followed by an ID.
func isSiblingName(name, prefix string) bool {
	id, ok := strings.CutPrefix(name, prefix)
	return ok && isLowerHex(id, idLen)
}

// leftBehind reports whether the sibling directory dir is provably what an
// interrupted Write left, and so safe to remove: an empty directory, a
// directory holding the marker that names it (an unfinished profile), or a
// whole profile (checkProfile). A symlink or anything else is not.
func leftBehind(dir string) bool {
	if !isDir(dir) {
		return false
	}
	names, err := readNames(dir)
	if err != nil {
		return false
	}
	if len(names) == 0 {
		return true
	}
	if marker, err := regularfile.ReadFile(filepath.Join(dir, markerName), 4096, regularfile.RefuseLinks); err == nil && bytes.Equal(marker, markerContent(dir)) {
		return true
	}
	return checkProfile(dir) == nil
}

func isDir(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}

// checkProfile returns why the directory dir is not a profile as Write
// leaves it, or nil: it must hold a manifest that Read accepts and, besides
// it, only etc/ holding exactly the manifest's paths: each file a regular
// file of the manifest's size, each symlink a symlink to the manifest's
// target, and no other file, symlink or directory (but the directories
// leading to them). Contents are not hashed: this is a check of whose
// directory it is, not of tampering (Diff checks contents).
func checkProfile(dir string) error {
	if _, err := os.Lstat(filepath.Join(dir, ManifestName)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("it has no %s", ManifestName)
		}
		return err
	}
	m, err := Read(dir)
	if err != nil {
		return err
	}
	names, err := readNames(dir)
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, n := range names {
		if n != "etc" && n != ManifestName {
			return fmt.Errorf("it has %s, which its manifest does not list", printable(n))
		}
	}
	want := make(map[string]ManifestEntry, len(m.Entries))
	dirs := map[string]bool{"etc": true}
	for _, e := range m.Entries {
		want[e.Path] = e
		for d := path.Dir(e.Path); d != "etc"; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	etc := filepath.Join(dir, "etc")
	if fi, err := os.Lstat(etc); errors.Is(err, fs.ErrNotExist) && len(m.Entries) == 0 {
		return nil
	} else if err != nil {
		return err
	} else if !fi.IsDir() {
		return fmt.Errorf("its etc is a %s, not a directory", filekind.Of(fi.Mode()))
	}
	err = filepath.WalkDir(etc, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if !dirs[rel] {
				return fmt.Errorf("it has a directory %s, which its manifest does not list", printable(rel))
			}
			return nil
		}
		e, ok := want[rel]
		if !ok {
			return fmt.Errorf("it has %s, which its manifest does not list", printable(rel))
		}
		delete(want, rel)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		switch e.Type {
		case TypeFile:
			if !fi.Mode().IsRegular() {
				return fmt.Errorf("%s is a %s, its manifest says a file", rel, filekind.Of(fi.Mode()))
			}
			if fi.Size() != *e.Size {
				return fmt.Errorf("%s has %d bytes, its manifest says %d", rel, fi.Size(), *e.Size)
			}
		case TypeSymlink:
			if fi.Mode()&fs.ModeSymlink == 0 {
				return fmt.Errorf("%s is a %s, its manifest says a symlink", rel, filekind.Of(fi.Mode()))
			}
			if to, err := os.Readlink(p); err != nil || to != e.Target {
				return fmt.Errorf("%s does not point where its manifest says", rel)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, e := range m.Entries {
		if _, missing := want[e.Path]; missing {
			return fmt.Errorf("%s is missing", e.Path)
		}
	}
	return nil
}

// removeOwnDir removes dir, a directory Write made (a profile, whole or
// not), so that a crash midway leaves something the next Write can still
// prove a Write left: it marks dir first (see markerName), then removes
// etc/, the manifest, and last the marker with the directory.
func removeOwnDir(dir string) error {
	marker := filepath.Join(dir, markerName)
	os.Remove(marker) // the marker is written afresh: writeFile needs a new file
	if err := writeFile(marker, markerContent(dir), 0o644); err != nil {
		return os.RemoveAll(dir)
	}
	if err := removeTree(filepath.Join(dir, "etc")); err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(dir, ManifestName)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return os.RemoveAll(dir)
}
