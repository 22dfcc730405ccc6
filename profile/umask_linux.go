package profile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// creationUmask returns the umask the kernel applies to the modes of
// inodes created below dir; known is false when it cannot be told, or
// when dir has a default ACL, which decides those modes instead of the
// umask. The umask is read from /proc/self/status (Linux 4.7 and later):
// umask(2) would have to set it to read it, and another goroutine could
// create a file meanwhile.
func creationUmask(dir string) (umask uint32, known bool) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	umask, known = parseUmask(status)
	if !known {
		return 0, false
	}
	_, err = unix.Getxattr(dir, "system.posix_acl_default", nil)
	if errors.Is(err, unix.ENODATA) || errors.Is(err, unix.ENOTSUP) {
		return umask, true // no default ACL, or no ACLs at all here
	}
	return 0, false
}

// parseUmask returns the umask in the content of /proc/self/status: the
// line "Umask:\t0022".
func parseUmask(status []byte) (uint32, bool) {
	for line := range bytes.Lines(status) {
		value, ok := bytes.CutPrefix(line, []byte("Umask:"))
		if !ok {
			continue
		}
		u, err := strconv.ParseUint(string(bytes.TrimSpace(value)), 8, 32)
		if err != nil || u > 0o777 {
			return 0, false
		}
		return uint32(u), true
	}
	return 0, false
}

// Umask returns the process's umask, read from /proc/self/status (Linux
// 4.7 and later); known is false when it cannot be read.
func Umask() (umask fs.FileMode, known bool) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	u, known := parseUmask(status)
	return fs.FileMode(u), known
}
