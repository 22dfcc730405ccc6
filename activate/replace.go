package activate

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"

	"github.com/nodegen/nodegen/internal/safefile"
)

// An appearedError is what the place step found at a path when it came
// to replace it: not what the check saw there, nor what nodegen placed.
// It was left as it is.
type appearedError struct{ d onDisk }

func (e *appearedError) Error() string { return describe(e.d) + " appeared there after the check" }

// replace puts a new entry at rel in one rename: create makes it under
// the temporary name tmp in rel's directory (opened once, as root), and
// the rename is done through that directory's descriptor, never by
// walking the path again. With accept nil, whatever is at rel (but a
// directory) is replaced. Otherwise only what accept takes: nothing
// there is a rename that replaces nothing (renameat2 RENAME_NOREPLACE);
// an entry there is exchanged with the new one (RENAME_EXCHANGE) and
// looked at where it went, and exchanged back when accept refuses it.
// Either way a file that appears at rel between the check and the
// rename is never overwritten: the error is an *appearedError.
func (s *System) replace(verb, rel string, create func(dir *os.Root, tmp string) error, accept func(onDisk) bool) error {
	fail := func(err error) error {
		if errors.Is(err, errTooLarge) {
			return err
		}
		return fmt.Errorf("%s %s: %w", verb, s.show(rel), unwrapPath(err))
	}
	dir, d, err := s.openParent(rel)
	if err != nil {
		return fail(err)
	}
	defer dir.Close()
	defer d.Close()
	tmp := path.Base(tempName(rel))
	if err := create(dir, tmp); err != nil {
		dir.Remove(tmp)
		return fail(err)
	}
	if keep, err := s.commit(rel, dir, d, tmp, accept); err != nil {
		if !keep {
			dir.Remove(tmp)
		}
		var ae *appearedError
		if errors.As(err, &ae) {
			return err
		}
		return fail(err)
	}
	return d.Sync()
}

// openParent opens rel's directory once, as a root to work in by names
// and as a safefile.Dir of its own descriptor for the renames os.Root
// does not have.
func (s *System) openParent(rel string) (*os.Root, *safefile.Dir, error) {
	dir, err := s.r.OpenRoot(path.Dir(rel))
	if err != nil {
		return nil, nil, err
	}
	df, err := dir.Open(".")
	if err != nil {
		dir.Close()
		return nil, nil, err
	}
	defer df.Close()
	d, err := safefile.DirOf(df)
	if err != nil {
		dir.Close()
		return nil, nil, err
	}
	return dir, d, nil
}

// commit renames tmp over rel's name in d as replace says. keep is true when
// tmp holds what someone else put at name, which must stay.
func (s *System) commit(rel string, dir *os.Root, d *safefile.Dir, tmp string, accept func(onDisk) bool) (keep bool, err error) {
	name := path.Base(rel)
	if accept == nil {
		return false, dir.Rename(tmp, name)
	}
	old, err := inspectIn(dir, name)
	if err != nil {
		return false, err
	}
	if old.fi != nil && !accept(old) {
		return false, &appearedError{old}
	}
	// The window between the check and the rename, for tests to write in.
	if err := failpoint("commit:" + rel); err != nil {
		return false, err
	}
	if old.fi == nil {
		err := d.RenameNoReplace(tmp, name)
		switch {
		case errors.Is(err, fs.ErrExist):
			if now, ierr := inspectIn(dir, name); ierr == nil && now.fi != nil {
				return false, &appearedError{now}
			}
			return false, err
		case errors.Is(err, safefile.ErrRenameUnsupported):
			// What this file system allows: a rename right after the check.
			return false, dir.Rename(tmp, name)
		}
		return false, err
	}
	err = d.Exchange(tmp, name)
	switch {
	case errors.Is(err, safefile.ErrRenameUnsupported):
		return false, dir.Rename(tmp, name)
	case err != nil:
		return false, err
	}
	// What was at name is at tmp now: what the check accepted, which
	// goes, or what someone put there since, which goes back.
	was, err := inspectIn(dir, tmp)
	if err == nil && was.fi != nil && accept(was) {
		return false, dir.Remove(tmp)
	}
	if xerr := d.Exchange(tmp, name); xerr != nil {
		return true, fmt.Errorf("%s was changed while nodegen replaced it, and putting it back failed: it is at %s (%w)", name, tmp, xerr)
	}
	if err != nil {
		return false, err
	}
	return false, &appearedError{was}
}

// removeIf removes what is at rel when accept takes it, and reports
// whether nothing is left there (removed, or gone already). What is there is first renamed to a temporary name
// through its directory's descriptor, and looked at there: an entry
// that someone put at rel since the caller's check is renamed back
// (never over anything: RENAME_NOREPLACE), so it is never removed.
func (s *System) removeIf(rel string, accept func(onDisk) bool) (bool, error) {
	fail := func(err error) (bool, error) {
		return false, fmt.Errorf("removing %s: %w", s.show(rel), unwrapPath(err))
	}
	dir, d, err := s.openParent(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	} else if err != nil {
		return fail(err)
	}
	defer dir.Close()
	defer d.Close()
	name, tmp := path.Base(rel), path.Base(tempName(rel))
	switch old, err := inspectIn(dir, name); {
	case err != nil:
		return fail(err)
	case old.fi == nil:
		return true, nil // gone already
	case !accept(old):
		return false, nil
	}
	// The window between the check and the rename, for tests to write in.
	if err := failpoint("remove:" + rel); err != nil {
		return fail(err)
	}
	switch err := d.RenameNoReplace(name, tmp); {
	case errors.Is(err, fs.ErrNotExist):
		return true, nil
	case errors.Is(err, safefile.ErrRenameUnsupported):
		// What this file system allows: a removal right after the check.
		if err := dir.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fail(err)
		}
		return true, d.Sync()
	case err != nil:
		return fail(err)
	}
	was, err := inspectIn(dir, tmp)
	if err == nil && was.fi != nil && accept(was) {
		if err := dir.Remove(tmp); err != nil {
			return fail(err)
		}
		return true, d.Sync()
	}
	if err := d.RenameNoReplace(tmp, name); err != nil {
		return false, fmt.Errorf("%s was changed while nodegen removed it, and putting it back failed: it is at %s (%w)", s.show(rel), s.show(path.Join(path.Dir(rel), tmp)), err)
	}
	return false, nil
}

// renameNoReplace renames src to dst, each opened through its directory
// once, only if nothing is at dst (RENAME_NOREPLACE; a plain rename where
// the file system cannot, after a look).
func (s *System) renameNoReplace(src, dst string) error {
	from, fd, err := s.openParent(src)
	if err != nil {
		return err
	}
	defer from.Close()
	defer fd.Close()
	to, td, err := s.openParent(dst)
	if err != nil {
		return err
	}
	defer to.Close()
	defer td.Close()
	err = fd.MoveNoReplace(path.Base(src), td, path.Base(dst))
	if !errors.Is(err, safefile.ErrRenameUnsupported) {
		return err
	}
	if _, err := to.Lstat(path.Base(dst)); err == nil {
		return &fs.PathError{Op: "rename", Path: dst, Err: fs.ErrExist}
	}
	return s.r.Rename(src, dst)
}

// fileMaker makes a regular file of what r holds (at most limit bytes,
// else errTooLarge), with mode and (when uid >= 0) owner, synced: the
// new entry of a replace of rel.
func fileMaker(rel string, r io.Reader, limit int64, mode fs.FileMode, uid, gid int) func(*os.Root, string) error {
	return func(dir *os.Root, tmp string) error {
		f, err := dir.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return err
		}
		defer f.Close()
		n, err := io.Copy(f, io.LimitReader(r, limit+1))
		if err != nil {
			return err
		}
		if n > limit {
			return errTooLarge
		}
		if err := failpoint("temp:" + rel); err != nil {
			return err
		}
		if uid >= 0 {
			if err := f.Chown(uid, gid); err != nil {
				return err
			}
		}
		// Chmod after Chown: chown clears the set-id bits.
		if err := f.Chmod(mode); err != nil {
			return err
		}
		if err := f.Sync(); err != nil {
			return err
		}
		return f.Close()
	}
}

// linkMaker makes a symlink to target: the new entry of a replace.
func linkMaker(target string) func(*os.Root, string) error {
	return func(dir *os.Root, tmp string) error { return dir.Symlink(target, tmp) }
}
