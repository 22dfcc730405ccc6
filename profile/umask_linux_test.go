package profile

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"github.com/nodegen/nodegen/internal/suitereport"
)

func TestParseUmask(t *testing.T) {
	tests := []struct {
		status string
		umask  uint32
		ok     bool
	}{
		{"Name:\tnodegen\nUmask:\t0022\nState:\tR (running)\n", 0o022, true},
		{"Umask:\t0077\n", 0o077, true},
		{"Umask:\t0000", 0, true},
		{"Name:\tnodegen\nState:\tR (running)\n", 0, false}, // before Linux 4.7
		{"Umask:\t0x22\n", 0, false},
		{"Umask:\t01777\n", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		umask, ok := parseUmask([]byte(tt.status))
		if umask != tt.umask || ok != tt.ok {
			t.Errorf("parseUmask(%q) = %04o, %v; want %04o, %v", tt.status, umask, ok, tt.umask, tt.ok)
		}
	}
}

// TestCreationUmask checks that the umask read is the process's, and that
// a directory with a default ACL makes it unknown.
func TestCreationUmask(t *testing.T) {
	dir := t.TempDir()
	old := syscall.Umask(0o027)
	umask, known := creationUmask(dir)
	syscall.Umask(old)
	if !known || umask != 0o027 {
		t.Errorf("creationUmask = %04o, %v; want 0027, true", umask, known)
	}
	if !setDefaultACL(t, dir) {
		return
	}
	if umask, known := creationUmask(dir); known {
		t.Errorf("creationUmask of a directory with a default ACL = %04o, known", umask)
	}
}

// TestWriteDefaultACL checks that modes do not depend on a default ACL of
// the output's parent, which decides the modes of new files instead of
// the umask: with umask 0 and a default ACL that gives the group and
// others nothing, a 0644 file would otherwise come out 0600.
func TestWriteDefaultACL(t *testing.T) {
	base := t.TempDir()
	want := filepath.Join(base, "want")
	mustWrite(t, want, sample())
	parent := filepath.Join(base, "acl")
	if err := os.Mkdir(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	if !setDefaultACL(t, parent) {
		return
	}
	old := syscall.Umask(0)
	err := Write(filepath.Join(parent, "result"), sample())
	syscall.Umask(old)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(snapshot(t, want), snapshot(t, filepath.Join(parent, "result"))); diff != "" {
		t.Errorf("a default ACL changed the tree (-want +got):\n%s", diff)
	}
}

// setDefaultACL gives dir the default ACL u::rwx,g::---,o::---, or skips
// the test where the file system has no ACLs; it returns false then.
func setDefaultACL(t *testing.T, dir string) bool {
	t.Helper()
	// The kernel's format of a POSIX ACL in an extended attribute:
	// version 2, then each entry as tag, permissions (16 bits each) and
	// id (32 bits), little-endian.
	acl := binary.LittleEndian.AppendUint32(nil, 2)
	for _, e := range []struct{ tag, perm uint16 }{{0x01, 7}, {0x04, 0}, {0x20, 0}} { // user, group, other
		acl = binary.LittleEndian.AppendUint16(acl, e.tag)
		acl = binary.LittleEndian.AppendUint16(acl, e.perm)
		acl = binary.LittleEndian.AppendUint32(acl, 0xffffffff)
	}
	err := unix.Setxattr(dir, "system.posix_acl_default", acl, 0)
	if errors.Is(err, unix.ENOTSUP) {
		suitereport.Skip(t, "file system features (profile)", "no ACLs on "+dir+"'s file system")
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	return true
}
