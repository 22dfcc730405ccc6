package profile

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"

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
// a file with the same content, permission bits, owner and group as a file
// created now, no access ACL, and no name besides its place in the old
// profile (link count 1); a symlink with the same target. Anything else,
// or any error, and the entry is created as if there were no old profile.
type reuser struct {
	root     int    // the old profile's directory (O_PATH)
	uid, gid uint32 // the owner and group of a file created in the new profile
}

// newReuser returns the reuser for a profile being built in root whose
// old profile is at old, or nil when nothing can be taken from old. made is
// a file created in root, whose owner and group every new file gets.
func newReuser(old, made string) *reuser {
	var st unix.Stat_t
	if err := ignoringEINTR(func() error { return unix.Lstat(made, &st) }); err != nil {
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
	return &reuser{root: fd, uid: st.Uid, gid: st.Gid}
}

// close releases the old profile's directory.
func (r *reuser) close() {
	if r != nil {
		unix.Close(r.root)
	}
}

// open opens the old profile's entry for target (a path below etc/)
// without following any symlink on the way, the last component included
// (with O_PATH, a symlink is opened as itself).
func (r *reuser) open(target string, flags uint64) (int, bool) {
	how := unix.OpenHow{
		Flags:   flags | unix.O_NOFOLLOW | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS | unix.RESOLVE_NO_XDEV,
	}
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = unix.Openat2(r.root, "etc/"+target, &how)
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
	fd, ok := r.open(target, unix.O_RDONLY)
	if !ok {
		return false, nil
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || !r.owned(&st, unix.S_IFREG) ||
		st.Mode&0o7777 != mode || st.Size != int64(len(content)) {
		return false, nil
	}
	if _, err := unix.Fgetxattr(fd, "system.posix_acl_access", nil); !errors.Is(err, unix.ENODATA) && !errors.Is(err, unix.ENOTSUP) {
		return false, nil
	}
	if !sameContent(fd, content) {
		return false, nil
	}
	return r.link(target, p, &st)
}

// symlink links p, a symlink to create pointing to link, to the old
// profile's symlink for target when that one points to link too; it
// reports whether it did.
func (r *reuser) symlink(target, p, link string) (bool, error) {
	fd, ok := r.open(target, unix.O_PATH)
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
	return r.link(target, p, &st)
}

// link makes p a name of the old profile's entry for target, which is the
// inode st describes: if the entry is another inode by the time it is
// linked (the old profile changed meanwhile), p is removed again.
func (r *reuser) link(target, p string, st *unix.Stat_t) (bool, error) {
	if ignoringEINTR(func() error { return unix.Linkat(r.root, "etc/"+target, unix.AT_FDCWD, p, 0) }) != nil {
		return false, nil
	}
	var linked unix.Stat_t
	err := ignoringEINTR(func() error { return unix.Lstat(p, &linked) })
	if err == nil && linked.Ino == st.Ino && linked.Dev == st.Dev {
		return true, nil
	}
	if err := ignoringEINTR(func() error { return unix.Unlink(p) }); err != nil {
		return false, &fs.PathError{Op: "unlink", Path: filepath.Clean(p), Err: err}
	}
	return false, nil
}

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
