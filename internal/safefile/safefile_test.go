//go:build linux

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// withoutOpenat2 runs test twice: as it is, and as on a kernel without
// openat2, where every directory is walked one component at a time.
func withoutOpenat2(t *testing.T, test func(t *testing.T)) {
	t.Run("openat2", test)
	t.Run("walk", func(t *testing.T) {
		beneath = func(int, string) (int, error) { return -1, unix.ENOSYS }
		defer func() { beneath = openBeneath }()
		test(t)
	})
}

func self() Owner { return Owner{UID: os.Geteuid(), GID: os.Getegid()} }

// TestWriteFile creates a missing directory and writes a file there: the
// directory gets perm, its missing parents 0755, the file its content,
// owner and mode; writing again replaces it.
func TestWriteFile(t *testing.T) {
	withoutOpenat2(t, func(t *testing.T) {
		base := t.TempDir()
		dir := filepath.Join(base, "a", "keys")
		d, err := MkdirAll(dir, 0o751)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		for _, text := range []string{"s3cret\n", "second\n"} {
			if err := d.WriteFile("db", []byte(text), self(), 0o400); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(filepath.Join(dir, "db"))
			if err != nil || string(got) != text {
				t.Fatalf("db: %q, %v; want %q", got, err, text)
			}
		}
		for p, want := range map[string]fs.FileMode{
			filepath.Join(base, "a"): fs.ModeDir | 0o755,
			dir:                      fs.ModeDir | 0o751,
			filepath.Join(dir, "db"): 0o400,
		} {
			fi, err := os.Lstat(p)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode() != want {
				t.Errorf("%s: mode %v, want %v", p, fi.Mode(), want)
			}
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != 1 {
			t.Errorf("left in the directory: %v", entries)
		}
		// The directory exists now: opened as it is.
		d2, err := OpenDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		d2.Close()
	})
}

// TestWriteFileOwner gives the file to another user (root only).
func TestWriteFileOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		if os.Getenv("CI") != "" {
			t.Fatal("giving a file to another user needs root (CI is set, so this fails instead of skipping)")
		}
		t.Skip("giving a file to another user needs root")
	}
	d, err := MkdirAll(filepath.Join(t.TempDir(), "keys"), 0o751)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.WriteFile("db", []byte("x"), Owner{UID: 65534, GID: 65533}, 0o440); err != nil {
		t.Fatal(err)
	}
	var st unix.Stat_t
	if err := unix.Stat(filepath.Join(d.Path(), "db"), &st); err != nil {
		t.Fatal(err)
	}
	if st.Uid != 65534 || st.Gid != 65533 || st.Mode&0o7777 != 0o440 {
		t.Errorf("db: %d:%d %o", st.Uid, st.Gid, st.Mode&0o7777)
	}
}

// TestLinksRefused: a symbolic link at any component of the directory is
// an error naming it, whether the directory exists or is to be made, and
// nothing is written where the link points.
func TestLinksRefused(t *testing.T) {
	withoutOpenat2(t, func(t *testing.T) {
		for _, tc := range []struct {
			name  string
			plant func(t *testing.T, base, outside string) string // returns the directory to open
			want  string
		}{
			{"the directory", func(t *testing.T, base, outside string) string {
				symlink(t, outside, filepath.Join(base, "keys"))
				return filepath.Join(base, "keys")
			}, "keys is a symbolic link (to "},
			{"a parent", func(t *testing.T, base, outside string) string {
				symlink(t, outside, filepath.Join(base, "app"))
				return filepath.Join(base, "app", "keys")
			}, "app is a symbolic link (to "},
			{"a parent of a missing directory", func(t *testing.T, base, outside string) string {
				symlink(t, outside, filepath.Join(base, "app"))
				return filepath.Join(base, "app", "new", "keys")
			}, "app is a symbolic link (to "},
			{"a relative link", func(t *testing.T, base, outside string) string {
				symlink(t, "../"+filepath.Base(outside), filepath.Join(base, "keys"))
				return filepath.Join(base, "keys")
			}, "keys is a symbolic link (to ../"},
			{"a file", func(t *testing.T, base, outside string) string {
				os.WriteFile(filepath.Join(base, "keys"), nil, 0o644)
				return filepath.Join(base, "keys", "sub")
			}, "keys is a regular file, not a directory"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				top := t.TempDir()
				base, outside := filepath.Join(top, "base"), filepath.Join(top, "outside")
				for _, d := range []string{base, outside, filepath.Join(outside, "keys")} {
					if err := os.Mkdir(d, 0o755); err != nil {
						t.Fatal(err)
					}
				}
				dir := tc.plant(t, base, outside)
				for _, open := range []func(string) (*Dir, error){OpenDir, func(p string) (*Dir, error) { return MkdirAll(p, 0o751) }} {
					d, err := open(dir)
					if err == nil {
						d.WriteFile("db", []byte("x"), self(), 0o600)
						d.Close()
						t.Fatalf("%s opened", dir)
					}
					if !strings.Contains(err.Error(), tc.want) {
						t.Errorf("error %q, want %q", err, tc.want)
					}
				}
				assertEmpty(t, outside, "keys")
			})
		}
	})
}

// TestPathsRefused: a directory is a normalized absolute path, a file
// name one component.
func TestPathsRefused(t *testing.T) {
	for _, p := range []string{"", "keys", "/run/../etc", "/run/keys/", "/run//keys"} {
		if d, err := MkdirAll(p, 0o751); err == nil {
			d.Close()
			t.Errorf("MkdirAll(%q) worked", p)
		}
	}
	d, err := MkdirAll(filepath.Join(t.TempDir(), "keys"), 0o751)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, name := range []string{"", ".", "..", "../x", "a/b", "x\x00y", strings.Repeat("n", 256)} {
		if err := d.WriteFile(name, []byte("x"), self(), 0o600); err == nil {
			t.Errorf("WriteFile(%q) worked", name)
		}
	}
	assertEmpty(t, d.Path())
}

// TestReplacesLink: a symbolic link at the file's name is replaced, not
// written through.
func TestReplacesLink(t *testing.T) {
	d, victim := keysAndVictim(t)
	symlink(t, victim, filepath.Join(d.Path(), "db"))
	if err := d.WriteFile("db", []byte("key"), self(), 0o400); err != nil {
		t.Fatal(err)
	}
	assertVictim(t, victim, "root:x\n", 0o640)
	if fi, err := os.Lstat(filepath.Join(d.Path(), "db")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("db: %v, %v", fi, err)
	}
}

// TestRaceDirectorySwap: while keys are written, another goroutine keeps
// exchanging the key's directory with a symbolic link to another
// directory (the owner of its parent can): each file lands in the real
// directory or its write fails, and nothing ever lands where the link
// points.
func TestRaceDirectorySwap(t *testing.T) {
	withoutOpenat2(t, func(t *testing.T) {
		top := t.TempDir()
		parent, outside := filepath.Join(top, "app"), filepath.Join(top, "outside")
		keys, link := filepath.Join(parent, "keys"), filepath.Join(parent, "link")
		for _, d := range []string{parent, outside, keys} {
			if err := os.Mkdir(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		symlink(t, outside, link)
		var stop atomic.Bool
		var swaps atomic.Int64
		done := make(chan struct{})
		go func() {
			defer close(done)
			for !stop.Load() {
				if unix.Renameat2(unix.AT_FDCWD, keys, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE) != nil {
					return
				}
				swaps.Add(1)
			}
		}()
		written, refused := 0, 0
		for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline) && (written < 20 || refused < 20); {
			d, err := MkdirAll(keys, 0o751)
			if err != nil {
				refused++
				continue
			}
			if err := d.WriteFile("db", []byte("key"), self(), 0o600); err != nil {
				refused++
			} else {
				written++
			}
			d.Close()
		}
		stop.Store(true)
		<-done
		t.Logf("%d swaps; %d written, %d refused", swaps.Load(), written, refused)
		assertEmpty(t, outside)
		if swaps.Load() == 0 {
			t.Error("the directory was never swapped: the race was not exercised")
		}
	})
}

// TestRaceTemporarySwap is putKey's race (N1): the directory is the
// key's user's, who watches it with inotify and, as soon as the
// temporary file appears, renames it away and puts a symbolic link to
// another file in its place. The file linked to is left as it was: the
// owner, mode and content go to the file created, through its
// descriptor, and the write fails saying that the directory changed.
func TestRaceTemporarySwap(t *testing.T) {
	d, victim := keysAndVictim(t)
	in, err := unix.InotifyInit1(unix.IN_CLOEXEC)
	if err != nil {
		t.Skipf("no inotify: %v", err)
	}
	defer unix.Close(in)
	if _, err := unix.InotifyAddWatch(in, d.Path(), unix.IN_CREATE); err != nil {
		t.Fatal(err)
	}
	swapped := make(chan string, 1)
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := unix.Read(in, buf)
			if err != nil || n <= 0 {
				swapped <- ""
				return
			}
			for off := 0; off < n; {
				ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
				name := strings.TrimRight(string(buf[off+unix.SizeofInotifyEvent:off+unix.SizeofInotifyEvent+int(ev.Len)]), "\x00")
				off += unix.SizeofInotifyEvent + int(ev.Len)
				if strings.HasPrefix(name, ".nodegen-") {
					p := filepath.Join(d.Path(), name)
					os.Rename(p, p+".away")
					os.Symlink(victim, p)
					swapped <- name
					return
				}
			}
		}
	}()
	err = d.WriteFile("db", []byte("key"), Owner{UID: os.Geteuid(), GID: os.Getegid()}, 0o600)
	name := <-swapped
	t.Logf("swapped %s; WriteFile: %v", name, err)
	assertVictim(t, victim, "root:x\n", 0o640)
	if err == nil {
		// The swap came after the rename: db is the file written.
		if got, err := os.ReadFile(filepath.Join(d.Path(), "db")); err != nil || string(got) != "key" {
			t.Errorf("db: %q, %v", got, err)
		}
	} else if !strings.Contains(err.Error(), "its directory was changed while the file was written") {
		t.Errorf("error %v", err)
	}
	// The file created holds the key, with its mode: the descriptor's.
	if name != "" && err != nil {
		fi, err := os.Lstat(filepath.Join(d.Path(), name+".away"))
		if err != nil || fi.Mode() != 0o600 {
			t.Errorf("the file created: %v, %v", fi, err)
		}
	}
}

// keysAndVictim makes a directory keys, open (closed when the test ends),
// and beside it a file shadow, which assertVictim checks.
func keysAndVictim(t *testing.T) (*Dir, string) {
	t.Helper()
	top := t.TempDir()
	victim := filepath.Join(top, "shadow")
	if err := os.WriteFile(victim, []byte("root:x\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	d, err := MkdirAll(filepath.Join(top, "keys"), 0o751)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d, victim
}

func symlink(t *testing.T, target, p string) {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

// assertEmpty fails unless dir holds only the entries named keep, each
// an empty directory.
func assertEmpty(t *testing.T, dir string, keep ...string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		for _, k := range keep {
			if rel == k && e.IsDir() {
				return nil
			}
		}
		return errors.New(rel + " was written")
	})
	if err != nil {
		t.Errorf("%s: %v", dir, err)
	}
}

func assertVictim(t *testing.T, p, content string, mode fs.FileMode) {
	t.Helper()
	var st unix.Stat_t
	if err := unix.Lstat(p, &st); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	if string(got) != content || fs.FileMode(st.Mode&0o777) != mode || int(st.Uid) != os.Geteuid() {
		t.Errorf("%s was changed: %q, mode %o, owner %d", p, got, st.Mode&0o7777, st.Uid)
	}
}
