package profile

import (
	"bytes"
	"errors"
	"io/fs"
	"maps"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// reuser finds in the profile that a write replaces the files and symlinks
// that the new profile has unchanged, so that the new profile links to
// them instead of creating them again. Creating an inode is most of the
// time of writing a profile (tens of microseconds each on ext4); a link
// to an existing one is a directory entry. Once the old profile is
// removed, the new one is the only name of each inode it links to.
//
// An old entry is taken only when it is what creating it anew would give:
// a regular file with the same content, permission bits, owner and group
// as a file created now, the same extended attributes (ACLs, capabilities,
// security labels) as a file created now, and no name besides its place in
// the old profile (link count 1); a symlink with the same target, owner,
// group and extended attributes. The entry is opened without following a
// symlink anywhere on its path, checked as it is open, and that very inode
// is linked (through /proc/self/fd); if it has gained another name
// meanwhile, the link is undone. Anything else, or any error, and the entry
// is created as if there were no old profile.
type reuser struct {
	root     int    // the old profile's directory (O_PATH)
	rootPath string // and its path
	uid, gid uint32 // the owner and group of a file created in the new profile
	// xattrs are the extended attributes of a file created in the new
	// profile, by name.
	xattrs map[string]string
}

// newReuser returns the reuser for a profile being built in root whose
// old profile is at old, or nil when nothing can be taken from old. made is
// a file created in root, whose owner, group and extended attributes every
// new file gets.
func newReuser(old, made string) *reuser {
	var st unix.Stat_t
	if err := ignoringEINTR(func() error { return unix.Lstat(made, &st) }); err != nil {
		return nil
	}
	xattrs, ok := pathXattrs(made)
	if !ok {
		return nil
	}
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = unix.Open(old, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return nil
	}
	r := &reuser{root: fd, rootPath: old, uid: st.Uid, gid: st.Gid, xattrs: xattrs}
	// Without openat2 (Linux before 5.6, or a filter), every entry would
	// try and fail.
	if etc, ok := r.open(""); ok {
		unix.Close(etc)
		return r
	}
	unix.Close(fd)
	return nil
}

// close releases the old profile's directory.
func (r *reuser) close() {
	if r != nil {
		unix.Close(r.root)
	}
}

// open opens the old profile's entry for target (a path below etc/) as
// itself (O_PATH: a symlink is not followed, a FIFO not waited on) without
// following any symlink on the way.
func (r *reuser) open(target string) (int, bool) {
	how := unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_NOFOLLOW | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS | unix.RESOLVE_NO_XDEV,
	}
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = unix.Openat2(r.root, filepath.Join("etc", target), &how)
		return err
	})
	return fd, err == nil
}

// owned reports whether st is an inode of kind (unix.S_IFREG, S_IFLNK)
// with the owner and group a new file gets, and no other name.
func (r *reuser) owned(st *unix.Stat_t, kind uint32) bool {
	return st.Mode&unix.S_IFMT == kind && st.Nlink == 1 && st.Uid == r.uid && st.Gid == r.gid
}

// file links p, a file to create with content and mode (permission bits),
// to the old profile's file for target when that one is the same (see
// reuser); it reports whether it did. The error is for p left in the way.
func (r *reuser) file(target, p string, content []byte, mode uint32) (bool, error) {
	fd, ok := r.open(target)
	if !ok {
		return false, nil
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || !r.owned(&st, unix.S_IFREG) ||
		st.Mode&0o7777 != mode || st.Size != int64(len(content)) {
		return false, nil
	}
	// The inode checked, opened again to read it: a regular file.
	var rfd int
	err := ignoringEINTR(func() (err error) {
		rfd, err = unix.Open(fdPath(fd), unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return false, nil
	}
	defer unix.Close(rfd)
	if x, ok := fdXattrs(rfd); !ok || !maps.Equal(x, r.xattrs) || !sameContent(rfd, content) {
		return false, nil
	}
	return r.link(fd, p)
}

// symlink links p, a symlink to create pointing to link, to the old
// profile's symlink for target when that one points to link too; it
// reports whether it did.
func (r *reuser) symlink(target, p, link string) (bool, error) {
	fd, ok := r.open(target)
	if !ok {
		return false, nil
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || !r.owned(&st, unix.S_IFLNK) || st.Size != int64(len(link)) {
		return false, nil
	}
	buf := make([]byte, len(link)+1)
	n, err := unix.Readlinkat(fd, "", buf)
	if err != nil || n != len(link) || string(buf[:n]) != link {
		return false, nil
	}
	// A symlink's extended attributes are read by path; the inode linked
	// is the one checked above whatever happens to the path.
	if x, ok := pathXattrs(filepath.Join(r.rootPath, "etc", target)); !ok || !maps.Equal(x, r.xattrs) {
		return false, nil
	}
	return r.link(fd, p)
}

// link makes p a name of the inode open at fd, which must then have no
// other name than its place in the old profile: if it gained one since it
// was checked, p is removed again.
func (r *reuser) link(fd int, p string) (bool, error) {
	if ignoringEINTR(func() error {
		return unix.Linkat(unix.AT_FDCWD, fdPath(fd), unix.AT_FDCWD, p, unix.AT_SYMLINK_FOLLOW)
	}) != nil {
		return false, nil
	}
	var st unix.Stat_t
	if unix.Fstat(fd, &st) == nil && st.Nlink == 2 {
		return true, nil
	}
	if err := ignoringEINTR(func() error { return unix.Unlink(p) }); err != nil {
		return false, &fs.PathError{Op: "unlink", Path: p, Err: err}
	}
	return false, nil
}

// fdPath is the path of /proc that names the file open at fd.
func fdPath(fd int) string { return "/proc/self/fd/" + strconv.Itoa(fd) }

// sameContent reports whether the file open at fd, of len(content) bytes,
// holds content.
func sameContent(fd int, content []byte) bool {
	buf := make([]byte, len(content))
	for off := 0; off < len(buf); {
		n, err := unix.Pread(fd, buf[off:], int64(off))
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil || n == 0 {
			return false
		}
		off += n
	}
	return bytes.Equal(buf, content)
}

// fdXattrs returns the extended attributes of the file open at fd, by
// name (none where the file system has none); false when they cannot be
// read.
func fdXattrs(fd int) (map[string]string, bool) {
	return readXattrs(
		func(dest []byte) (int, error) { return unix.Flistxattr(fd, dest) },
		func(name string, dest []byte) (int, error) { return unix.Fgetxattr(fd, name, dest) })
}

// pathXattrs returns the extended attributes of p itself (not followed),
// as fdXattrs does.
func pathXattrs(p string) (map[string]string, bool) {
	return readXattrs(
		func(dest []byte) (int, error) { return unix.Llistxattr(p, dest) },
		func(name string, dest []byte) (int, error) { return unix.Lgetxattr(p, name, dest) })
}

// readXattrs reads extended attributes through list and get, which take a
// buffer and return the size (of the list of names, or of a value) as
// listxattr(2) and getxattr(2) do.
func readXattrs(list func([]byte) (int, error), get func(string, []byte) (int, error)) (map[string]string, bool) {
	n, err := list(nil)
	if errors.Is(err, unix.ENOTSUP) || err == nil && n == 0 {
		return nil, true
	}
	if err != nil {
		return nil, false
	}
	names := make([]byte, n)
	if n, err = list(names); err != nil {
		return nil, false
	}
	out := map[string]string{}
	for name := range bytes.SplitSeq(names[:n], []byte{0}) {
		if len(name) == 0 {
			continue
		}
		size, err := get(string(name), nil)
		if err != nil {
			return nil, false
		}
		value := make([]byte, size)
		if size, err = get(string(name), value); err != nil {
			return nil, false
		}
		out[string(name)] = string(value[:size])
	}
	return out, true
}
