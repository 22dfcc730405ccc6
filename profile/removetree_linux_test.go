package profile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/nodegen/nodegen/internal/suitereport"
)

// TestRemoveTreeKeeps checks that what cannot be removed is reported, with
// the directories holding it kept, and everything else removed: here a
// directory made immutable (chattr +i), whose entries not even root can
// unlink.
func TestRemoveTreeKeeps(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	stuck := filepath.Join(root, "a", "stuck")
	for _, d := range []string{stuck, filepath.Join(root, "a", "free"), filepath.Join(root, "b")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "f"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if !setImmutable(t, stuck, true) {
		return
	}
	t.Cleanup(func() { setImmutable(t, stuck, false) })

	err := removeTree(root)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(stuck, "f")) {
		t.Fatalf("removeTree: %v, want the error of %s", err, filepath.Join(stuck, "f"))
	}
	var left []string
	filepath.WalkDir(root, func(p string, _ os.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, p)
		left = append(left, rel)
		return err
	})
	if got, want := strings.Join(left, " "), ". a a/stuck a/stuck/f"; got != want {
		t.Errorf("left %q, want %q", got, want)
	}
}

// fsImmutable is FS_IMMUTABLE_FL of linux/fs.h, the flag chattr +i sets.
const fsImmutable = 0x10

// setImmutable sets or clears the immutable flag of dir; it skips the
// test where that cannot be done, and returns false then.
func setImmutable(t *testing.T, dir string, on bool) bool {
	t.Helper()
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	flags, err := unix.IoctlGetUint32(int(f.Fd()), unix.FS_IOC_GETFLAGS)
	if err == nil {
		if on {
			flags |= fsImmutable
		} else {
			flags &^= fsImmutable
		}
		err = unix.IoctlSetPointerInt(int(f.Fd()), unix.FS_IOC_SETFLAGS, int(flags))
	}
	if err != nil {
		suitereport.Skip(t, "file system features (profile)", fmt.Sprintf("cannot make %s immutable: %v", dir, err))
		return false
	}
	return true
}
