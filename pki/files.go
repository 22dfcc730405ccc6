package pki

import (
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/nodegen/nodegen/internal/flock"
)

// ids resolves a file's owner and group to numeric ids; -1 leaves one as
// it is. A name that is a number is taken as the id itself.
func (f File) ids() (uid, gid int, err error) {
	uid, gid = -1, -1
	if f.Owner != "" {
		if uid, err = lookupID(f.Owner, "user", func(n string) (string, error) {
			u, err := user.Lookup(n)
			if err != nil {
				return "", err
			}
			return u.Uid, nil
		}); err != nil {
			return -1, -1, err
		}
	}
	if f.Group != "" {
		if gid, err = lookupID(f.Group, "group", func(n string) (string, error) {
			g, err := user.LookupGroup(n)
			if err != nil {
				return "", err
			}
			return g.Gid, nil
		}); err != nil {
			return -1, -1, err
		}
	}
	return uid, gid, nil
}

func lookupID(name, kind string, lookup func(string) (string, error)) (int, error) {
	if n, err := strconv.Atoi(name); err == nil && n >= 0 {
		return n, nil
	}
	id, err := lookup(name)
	if err != nil {
		return -1, fmt.Errorf("there is no %s %q on this host", kind, name)
	}
	return strconv.Atoi(id)
}

// writeAtomic replaces path with data, owned by uid:gid (-1 leaves the
// process's) with mode perm: it writes a temporary file in the same
// directory, created with mode 0600 so that no one else can read it at
// any moment, syncs it, sets its owner and mode, renames it over path and
// syncs the directory. A crash leaves either the old file or the new one.
// The directory is made (0755) if it is missing.
func writeAtomic(path string, data []byte, perm fs.FileMode, uid, gid int) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if uid != -1 || gid != -1 {
		if err = f.Chown(uid, gid); err != nil {
			return err
		}
	}
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	return syncDir(dir)
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// fixOwnership gives an existing file the mode perm and the owner uid:gid
// (-1 leaves one as it is) when it has others, and reports whether it
// changed anything.
func fixOwnership(path string, perm fs.FileMode, uid, gid int) (bool, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return false, err
	}
	changed := false
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && (uid != -1 && int(st.Uid) != uid || gid != -1 && int(st.Gid) != gid) {
		if err := os.Chown(path, uid, gid); err != nil {
			return false, err
		}
		changed = true
	}
	if fi.Mode().Perm() != perm {
		if err := os.Chmod(path, perm); err != nil {
			return false, err
		}
		changed = true
	}
	return changed, nil
}

// lockDir takes an exclusive lock of a directory (made, 0755, if it is
// missing), which the returned function releases: two runs that keep the
// same files do not interleave their checks and writes.
func lockDir(dir string) (func(), error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := flock.Lock(d); err != nil {
		d.Close()
		return nil, err
	}
	return func() { d.Close() }, nil
}
