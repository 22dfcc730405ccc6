package deploy

import (
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
)

// currentOwner is the user and group of this process, by name.
func currentOwner(t *testing.T) (string, string) {
	t.Helper()
	u, err := user.Current()
	if err != nil {
		t.Skipf("no user name for this process: %v", err)
	}
	g, err := user.LookupGroupId(u.Gid)
	if err != nil {
		t.Skipf("no group name for this process: %v", err)
	}
	return u.Username, g.Name
}

// TestPutKey is the host's side of a key: written with its mode into a
// directory it makes (0751), replaced by the next deploy.
func TestPutKey(t *testing.T) {
	u, g := currentOwner(t)
	dir := filepath.Join(t.TempDir(), "run", "keys")
	for _, text := range []string{"first\n", "second\n"} {
		k := Key{Name: "db", DestDir: dir, User: u, Group: g, Permissions: "0440"}
		if err := PutKey(k, strings.NewReader(text)); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(filepath.Join(dir, "db")); err != nil || string(got) != text {
			t.Fatalf("db: %q, %v", got, err)
		}
	}
	for p, want := range map[string]os.FileMode{dir: os.ModeDir | 0o751, filepath.Join(dir, "db"): 0o440} {
		if fi, err := os.Stat(p); err != nil || fi.Mode() != want {
			t.Errorf("%s: %v, %v; want mode %v", p, fi.Mode(), err, want)
		}
	}
}

// TestPutKeyRefuses: the host refuses a name that is a path (N18), a
// directory through a symbolic link (N1), a bad mode, owner or size, and
// writes nothing.
func TestPutKeyRefuses(t *testing.T) {
	u, g := currentOwner(t)
	top := t.TempDir()
	outside := filepath.Join(top, "apt.conf.d")
	if err := os.Mkdir(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(top, "app"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(top, "app", "keys")); err != nil {
		t.Fatal(err)
	}
	keys := filepath.Join(top, "keys")
	for _, tc := range []struct {
		name string
		k    Key
		size int
		want string
	}{
		{"a path", Key{Name: "../../etc/cron.d/x", DestDir: keys}, 1, `the key's name "../../etc/cron.d/x" is refused: it holds /, which makes it a path`},
		{"dot dot", Key{Name: "..", DestDir: keys}, 1, `the key's name ".." is refused: it is .., a directory`},
		{"empty", Key{Name: "", DestDir: keys}, 1, `the key's name "" is refused: it is empty`},
		{"NUL", Key{Name: "a\x00b", DestDir: keys}, 1, `the key's name "a\x00b" is refused: it holds the character U+0000`},
		{"a relative directory", Key{Name: "k", DestDir: "keys"}, 1, `the key's directory "keys" is refused: it is not an absolute path`},
		{"a directory through a link", Key{Name: "k", DestDir: filepath.Join(top, "app", "keys")}, 1, filepath.Join(top, "app", "keys") + " is a symbolic link (to " + outside + ")"},
		{"a mode", Key{Name: "k", DestDir: keys, Permissions: "4755"}, 1, `the key's mode "4755" is refused`},
		{"an owner", Key{Name: "k", DestDir: keys, User: "evil root"}, 1, `the key's owner "evil root" is refused: it holds a space`},
		{"an unknown user", Key{Name: "k", DestDir: keys, User: "no-such-user-here"}, 1, `the key's user: user: unknown user no-such-user-here`},
		{"too large", Key{Name: "k", DestDir: keys}, MaxKeySize + 1, "the key has more than 1048576 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := tc.k
			if k.User == "" {
				k.User = u
			}
			if k.Group == "" {
				k.Group = g
			}
			if k.Permissions == "" {
				k.Permissions = "0600"
			}
			err := PutKey(k, strings.NewReader(strings.Repeat("x", tc.size)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			for _, d := range []string{outside, keys} {
				if entries, _ := os.ReadDir(d); len(entries) > 0 {
					t.Errorf("%s: %v written", d, entries)
				}
			}
		})
	}
}
