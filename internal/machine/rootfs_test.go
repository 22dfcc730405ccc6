//go:build linux

package machine

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeRoot is a build function for ensureRoot that makes a tiny tree
// (a file, an executable and a symbolic link) and counts its calls.
type fakeRoot struct {
	calls atomic.Int32
}

// build makes the tiny tree in root.
func (f *fakeRoot) build(root string) error {
	f.calls.Add(1)
	// Give the other makers time to reach the lock while this one holds it.
	time.Sleep(100 * time.Millisecond)
	if err := os.MkdirAll(filepath.Join(root, "etc"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(root, "etc/os-release"), []byte("ID=fake\n"), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(root, "init"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		return err
	}
	return os.Symlink("/etc/os-release", filepath.Join(root, "os-release"))
}

// checkFakeTree fails t unless tree holds what fakeRoot.build makes, and
// dir holds nothing but the tree, its tarball and its lock.
func checkFakeTree(t *testing.T, dir, tree string) {
	t.Helper()
	if data, err := os.ReadFile(filepath.Join(tree, "etc/os-release")); err != nil || string(data) != "ID=fake\n" {
		t.Errorf("etc/os-release in the tree: %q, %v", data, err)
	}
	if info, err := os.Stat(filepath.Join(tree, "init")); err != nil || info.Mode().Perm() != 0o755 {
		t.Errorf("init in the tree: %v, %v", info, err)
	}
	if target, err := os.Readlink(filepath.Join(tree, "os-release")); err != nil || target != "/etc/os-release" {
		t.Errorf("os-release link in the tree: %q, %v", target, err)
	}
	if info, err := os.Stat(tree); err != nil || info.Mode().Perm() != 0o755 {
		t.Errorf("the tree's own mode: %v, %v", info, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{"k", "k.lock", "k.tar.zst"}, names); diff != "" {
		t.Errorf("cache directory (-want +got):\n%s", diff)
	}
}

func TestEnsureRootBuildsOnceUnderLock(t *testing.T) {
	requireTools(t, "tar", "zstd")
	dir := t.TempDir()
	var fake fakeRoot
	const makers = 4
	var wg sync.WaitGroup
	trees := make([]string, makers)
	built := make([]bool, makers)
	errs := make([]error, makers)
	for i := range makers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			trees[i], built[i], errs[i] = ensureRoot(dir, "k", fake.build)
		}()
	}
	wg.Wait()
	builders := 0
	for i := range makers {
		if errs[i] != nil {
			t.Fatalf("maker %d: %v", i, errs[i])
		}
		if trees[i] != filepath.Join(dir, "k") {
			t.Errorf("maker %d got %s, want %s", i, trees[i], filepath.Join(dir, "k"))
		}
		if built[i] {
			builders++
		}
	}
	if got := fake.calls.Load(); got != 1 || builders != 1 {
		t.Errorf("%d concurrent makers built %d times and %d said they built it, want 1 and 1", makers, got, builders)
	}
	checkFakeTree(t, dir, filepath.Join(dir, "k"))
}

func TestEnsureRootUnpacksTheTarball(t *testing.T) {
	requireTools(t, "tar", "zstd")
	dir := t.TempDir()
	var fake fakeRoot
	if _, _, err := ensureRoot(dir, "k", fake.build); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "k")); err != nil {
		t.Fatal(err)
	}
	tree, built, err := ensureRoot(dir, "k", fake.build)
	if err != nil {
		t.Fatal(err)
	}
	if !built || fake.calls.Load() != 1 {
		t.Errorf("built %v after %d builds, want the tree made again from the tarball, without a second build", built, fake.calls.Load())
	}
	checkFakeTree(t, dir, tree)
}

func TestEnsureRootLeavesNothingOfAFailedOrKilledBuild(t *testing.T) {
	requireTools(t, "tar", "zstd")
	dir := t.TempDir()
	// A build killed halfway leaves its temporary directory behind.
	killed := filepath.Join(dir, "k.tmp-123", "root", "etc")
	if err := os.MkdirAll(killed, 0o755); err != nil {
		t.Fatal(err)
	}
	failing := func(root string) error {
		if err := os.WriteFile(filepath.Join(root, "half"), nil, 0o644); err != nil {
			return err
		}
		return errors.New("mirror unreachable")
	}
	if _, _, err := ensureRoot(dir, "k", failing); err == nil || err.Error() != "mirror unreachable" {
		t.Fatalf("a failing build returned %v, want its error", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "k.lock" {
		t.Errorf("after a failed build the cache holds %v, want only the lock", entries)
	}
	var fake fakeRoot
	tree, built, err := ensureRoot(dir, "k", fake.build)
	if err != nil || !built {
		t.Fatalf("the build after a failed one: built %v, %v", built, err)
	}
	checkFakeTree(t, dir, tree)
}

func TestAptMirror(t *testing.T) {
	tests := []struct {
		name, file, text, want string
	}{
		{
			name: "deb822 picks the stanza of the suite",
			file: "debian.sources",
			text: "Types: deb\nURIs: http://security.example/debian-security\nSuites: bookworm-security\n\n" +
				"Types: deb\n# a comment: here\nURIs: http://mirror.example/debian http://other.example/debian\nSuites: bookworm bookworm-updates\nComponents: main\n",
			want: "http://mirror.example/debian",
		},
		{
			name: "deb822 without the suite",
			file: "ubuntu.sources",
			text: "Types: deb\nURIs: http://archive.ubuntu.com/ubuntu\nSuites: noble\n",
			want: "",
		},
		{
			name: "one-line list with options",
			file: "sources.list",
			text: "# deb http://old.example/debian bookworm main\ndeb-src http://src.example/debian bookworm main\n" +
				"deb [arch=amd64 signed-by=/k.gpg] http://mirror.example/debian bookworm main\n",
			want: "http://mirror.example/debian",
		},
		{
			name: "one-line list of another suite",
			file: "sources.list",
			text: "deb http://mirror.example/debian trixie main\n",
			want: "",
		},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), test.file)
			if err := os.WriteFile(path, []byte(test.text), 0o644); err != nil {
				t.Fatal(err)
			}
			parse := oneLineMirror
			if filepath.Ext(path) == ".sources" {
				parse = deb822Mirror
			}
			if got := parse(path); got != test.want {
				t.Errorf("got %q, want %q", got, test.want)
			}
		})
	}
}

// requireTools skips t unless the commands are installed (and fails it
// under CI).
func requireTools(t *testing.T, names ...string) {
	t.Helper()
	if missing := MissingTools(names...); len(missing) > 0 {
		unavailable(t, "missing %v", missing)
	}
}

func TestRootKey(t *testing.T) {
	plain := Root{}.key()
	if plain != "debian-bookworm-d831557a" {
		// The default root's name must not change with the code, or every
		// cache builds it again (it changed once, when the roots began to
		// keep debootstrap's /etc/hostname).
		t.Errorf("the default root is named %s, want debian-bookworm-d831557a", plain)
	}
	if got := (Root{CacheDir: "/elsewhere"}).key(); got != plain {
		t.Errorf("the cache directory changed the name: %s", got)
	}
	names := map[string]bool{plain: true}
	if got := (Root{Packages: []string{"procps"}}).key(); got != plain {
		t.Errorf("a package the default root has made another root: %s", got)
	}
	for _, r := range []Root{
		{Packages: []string{"curl"}},
		{Packages: []string{"curl", "socat"}},
		{Packages: []string{"containerd"}, Disable: []string{"containerd.service"}},
	} {
		key := r.key()
		if names[key] {
			t.Errorf("%+v shares the name %s with another root", r, key)
		}
		names[key] = true
	}
}
