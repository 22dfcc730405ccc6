package activate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/nodegen/nodegen/internal/keyset"
)

// keyRoot is a root whose etc/passwd and etc/group name the test's own
// user "me", so that keys owned by it can be placed without privileges.
func keyRoot(t *testing.T) string {
	t.Helper()
	return newRoot(t, map[string]string{
		"etc/passwd": fmt.Sprintf("me:x:%d:%d::/:/bin/sh\n", os.Geteuid(), os.Getegid()),
		"etc/group":  fmt.Sprintf("me:x:%d:\n", os.Getegid()),
	})
}

// dbKey is the key db in /run/keys of root, with text.
func dbKey(root, text string) []keyset.Entry {
	return []keyset.Entry{{Key: keyset.Key{Name: "db", Dir: "/run/keys", User: "me", Group: "me", Mode: "0400"}, Data: []byte(text)}}
}

func keyText(t *testing.T, root string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "run/keys/db"))
	if errors.Is(err, os.ErrNotExist) {
		return "(none)"
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestKeysBelongToAGeneration is N5: a deploy's keys are the generation's;
// a change of keys alone makes a generation; a refused switch leaves the
// active generation's keys; a rollback brings back the old ones; a switch
// without keys removes them; gc takes them with the generations.
func TestKeysBelongToAGeneration(t *testing.T) {
	root := keyRoot(t)
	dir := writeProfile(t, file("app.conf", "uses the key\n"))
	res := mustSwitch(t, root, dir, SwitchOptions{Keys: dbKey(root, "password-1\n")})
	if res.Generation != 1 || keyText(t, root) != "password-1\n" {
		t.Fatalf("generation %d, key %q", res.Generation, keyText(t, root))
	}
	fi, err := os.Stat(filepath.Join(root, "run/keys/db"))
	if err != nil || fi.Mode().Perm() != 0o400 {
		t.Fatalf("the key's mode: %v %v", fi, err)
	}
	if m := modeOf(t, filepath.Join(root, generationDir(1), keysDir)); m != 0o700 {
		t.Errorf("the generation's keys have mode %o, want 700", m)
	}
	if m := modeOf(t, filepath.Join(root, stateFile)); m != 0o600 {
		t.Errorf("state.json, holding the keys' hashes, has mode %o, want 600", m)
	}

	// The same profile with the same keys: no new generation.
	if res := mustSwitch(t, root, dir, SwitchOptions{Keys: dbKey(root, "password-1\n")}); !res.Unchanged {
		t.Errorf("the same profile and keys made generation %d", res.Generation)
	}
	// A change of keys alone: a new generation.
	if res := mustSwitch(t, root, dir, SwitchOptions{Keys: dbKey(root, "password-2\n")}); res.Unchanged || res.Generation != 2 {
		t.Fatalf("a change of keys: %+v", res)
	}
	if got := keyText(t, root); got != "password-2\n" {
		t.Fatalf("key %q", got)
	}

	// A refused switch (a file in the way) leaves generation 2's key.
	if err := os.WriteFile(filepath.Join(root, "etc/new-entry"), []byte("admin\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir3 := writeProfile(t, file("app.conf", "uses key 3\n"), file("new-entry", "x\n"))
	if _, err := run(t, root, nil, func(s *System) (*Result, error) {
		return s.Switch(dir3, SwitchOptions{Keys: dbKey(root, "password-3\n")})
	}); err == nil {
		t.Fatal("the switch was not refused")
	}
	if got := keyText(t, root); got != "password-2\n" {
		t.Errorf("after a refused switch the key is %q, want generation 2's", got)
	}

	// A rollback brings back generation 1's key.
	if _, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Rollback(1, SwitchOptions{}) }); err != nil {
		t.Fatal(err)
	}
	if got := keyText(t, root); got != "password-1\n" {
		t.Errorf("after the rollback the key is %q, want generation 1's", got)
	}
	if st := readState(t, root); len(st.Keys) != 1 || st.Keys[0].SHA256 != keyset.Hash([]byte("password-1\n")) {
		t.Errorf("state.json records %+v", st.Keys)
	}

	// A switch without keys keeps none.
	mustSwitch(t, root, dir, SwitchOptions{})
	if got := keyText(t, root); got != "(none)" {
		t.Errorf("a switch without keys left %q", got)
	}
	// gc takes the generations' keys with them.
	if _, err := run(t, root, nil, func(s *System) ([]int, error) { return s.GC(0) }); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 2} {
		if _, err := os.Stat(filepath.Join(root, generationDir(n), keysDir)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("generation %d's keys are still there: %v", n, err)
		}
	}
}

// TestKeysKeepWhatIsInTheWay: a file nodegen did not place at a key's path
// is kept as NAME.nodegen-kept, and never overwritten; a second one in the
// way with a kept one there already stops the activation, which goes back.
func TestKeysKeepWhatIsInTheWay(t *testing.T) {
	root := keyRoot(t)
	live := filepath.Join(root, "run/keys/db")
	if err := os.MkdirAll(filepath.Dir(live), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(live, []byte("the admin's\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := writeProfile(t, file("motd", "hi\n"))
	mustSwitch(t, root, dir, SwitchOptions{Keys: dbKey(root, "one\n")})
	if got := keyText(t, root); got != "one\n" {
		t.Fatalf("key %q", got)
	}
	if got, _ := os.ReadFile(live + keptSuffix); string(got) != "the admin's\n" {
		t.Errorf("the admin's file was not kept: %q", got)
	}
	// nodegen's own key is replaced, not kept.
	mustSwitch(t, root, dir, SwitchOptions{Keys: dbKey(root, "two\n")})
	if got, _ := os.ReadFile(live + keptSuffix); string(got) != "the admin's\n" {
		t.Errorf("the kept file was overwritten: %q", got)
	}
	// Another file of the admin's: the kept one is never overwritten.
	if err := os.WriteFile(live, []byte("the admin's again\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := run(t, root, nil, func(s *System) (*Result, error) {
		return s.Switch(dir, SwitchOptions{Keys: dbKey(root, "three\n")})
	})
	var fe *FailedError
	if !errors.As(err, &fe) || fe.Failure.Step != "keys" {
		t.Fatalf("want the keys step to fail, got %v", err)
	}
	if got := keyText(t, root); got != "the admin's again\n" {
		t.Errorf("the admin's second file is now %q", got)
	}
}

// TestKeysNeverThroughALink: a key whose directory is a symbolic link is
// not written (the activation's keys step fails and goes back), and the
// link's target is untouched.
func TestKeysNeverThroughALink(t *testing.T) {
	root := keyRoot(t)
	victim := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "run"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(root, "run/keys")); err != nil {
		t.Fatal(err)
	}
	_, err := run(t, root, nil, func(s *System) (*Result, error) {
		return s.Switch(writeProfile(t, file("motd", "hi\n")), SwitchOptions{Keys: dbKey(root, "one\n")})
	})
	var fe *FailedError
	if !errors.As(err, &fe) || fe.Failure.Step != "keys" || !fe.Failure.RolledBack {
		t.Fatalf("want the keys step to fail and go back, got %v", err)
	}
	if entries, _ := os.ReadDir(victim); len(entries) != 0 {
		t.Errorf("written through the link: %v", entries)
	}
}
