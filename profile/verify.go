package profile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/nodegen/nodegen/internal/filekind"
)

// Tampered is an entry of a profile whose file on disk is not what the
// manifest says: edited, replaced, removed.
type Tampered struct {
	// Path is the entry's path, "etc/motd".
	Path string `json:"path"`
	// Why says what is there instead: "its sha256 is not the manifest's",
	// "missing", "a symlink to /x, not a file"...
	Why string `json:"why"`
}

// TamperedError is a profile some of whose files are not what its
// manifest says.
type TamperedError struct {
	Dir      string
	Tampered []Tampered
}

func (e *TamperedError) Error() string {
	s := fmt.Sprintf("%s was modified after it was written: ", e.Dir)
	for i, t := range e.Tampered {
		if i > 0 {
			s += "; "
		}
		s += t.Path + ": " + t.Why
	}
	return s
}

// Verify checks every entry of the profile in dir, whose manifest is m,
// against the manifest: a file must be a regular file of the manifest's
// size and sha256 (read through ReadEntry, so a link to /dev/zero or a
// FIFO is never read), a symlink a symlink to the manifest's target. It
// returns the entries that are not, in manifest order; an error only when
// dir cannot be read at all.
func Verify(dir string, m Manifest) ([]Tampered, error) {
	var out []Tampered
	for _, e := range m.Entries {
		p := filepath.Join(dir, filepath.FromSlash(e.Path))
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			out = append(out, Tampered{e.Path, "missing"})
			continue
		}
		if err != nil {
			return nil, err
		}
		if e.Type == TypeSymlink {
			target, err := os.Readlink(p)
			switch {
			case fi.Mode()&fs.ModeSymlink == 0:
				out = append(out, Tampered{e.Path, fmt.Sprintf("a %s, not a symlink", filekind.Of(fi.Mode()))})
			case err != nil:
				return nil, err
			case target != e.Target:
				out = append(out, Tampered{e.Path, fmt.Sprintf("a symlink to %s, not to %s", target, e.Target)})
			}
			continue
		}
		switch {
		case !fi.Mode().IsRegular():
			out = append(out, Tampered{e.Path, fmt.Sprintf("a %s, not a regular file", filekind.Of(fi.Mode()))})
		case e.Size == nil || fi.Size() != *e.Size:
			out = append(out, Tampered{e.Path, fmt.Sprintf("%d bytes, not the manifest's %d", fi.Size(), sizeOf(e))})
		default:
			// A file whose mode makes it unreadable to us (a secret,
			// for another user than root) is checked by its size only.
			if _, err := ReadEntry(dir, e); err != nil && !errors.Is(err, fs.ErrPermission) {
				out = append(out, Tampered{e.Path, "its sha256 is not the manifest's"})
			}
		}
	}
	return out, nil
}

// VerifyDir reads the manifest of the profile in dir and verifies it
// (see Verify): a *TamperedError when some file is not what the manifest
// says.
func VerifyDir(dir string) error {
	m, err := Read(dir)
	if err != nil {
		return err
	}
	t, err := Verify(dir, m)
	if err != nil {
		return err
	}
	if len(t) > 0 {
		return &TamperedError{Dir: dir, Tampered: t}
	}
	return nil
}

func sizeOf(e ManifestEntry) int64 {
	if e.Size == nil {
		return -1
	}
	return *e.Size
}
