package keyset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestStageRoundTrip: staged keys read back sorted by path, root-only;
// a tampered content, a foreign file or a bad description is refused.
func TestStageRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "deploy", "keys", "attempt1")
	keys := []Key{
		{Name: "z", Dir: "/run/keys", User: "root", Group: "root", Mode: "0400"},
		{Name: "a", Dir: "/var/lib/app/keys", User: "app", Group: "app", Mode: "0600"},
	}
	for i, k := range keys {
		if err := Stage(dir, k, []byte{byte('0' + i)}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ReadStage(dir)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, e := range got {
		paths = append(paths, e.Path()+"="+string(e.Data))
	}
	if diff := cmp.Diff([]string{"/run/keys/z=0", "/var/lib/app/keys/a=1"}, paths); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("the stage: %v %v", fi, err)
	}
	if err := os.WriteFile(filepath.Join(dir, keys[0].FileID()+".key"), []byte("X"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadStage(dir); err == nil || !strings.Contains(err.Error(), "hash differs") {
		t.Errorf("a tampered key: %v", err)
	}
}

func TestKeyCheck(t *testing.T) {
	for _, k := range []Key{
		{Name: "../../etc/cron.d/x", Dir: "/run/keys", User: "root", Group: "root", Mode: "0400"},
		{Name: "db", Dir: "run/keys", User: "root", Group: "root", Mode: "0400"},
		{Name: "db", Dir: "/run/keys", User: "root:x", Group: "root", Mode: "0400"},
		{Name: "db", Dir: "/run/keys", User: "root", Group: "root", Mode: "4755"},
	} {
		if err := k.Check(); err == nil {
			t.Errorf("%+v was accepted", k)
		}
	}
	if err := Stage(filepath.Join(t.TempDir(), "s"), Key{Name: "a/b", Dir: "/run", User: "root", Group: "root", Mode: "0400"}, nil); err == nil {
		t.Error("a key named by a path was staged")
	}
}

func TestCleanStages(t *testing.T) {
	root := t.TempDir()
	for _, id := range []string{"old", "new"} {
		if err := os.Mkdir(filepath.Join(root, id), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	past := time.Now().Add(-2 * StaleAge)
	if err := os.Chtimes(filepath.Join(root, "old"), past, past); err != nil {
		t.Fatal(err)
	}
	removed, err := CleanStages(root, time.Now(), StaleAge)
	if err != nil || !cmp.Equal(removed, []string{"old"}) {
		t.Fatalf("removed %v, %v", removed, err)
	}
	if _, err := os.Stat(filepath.Join(root, "new")); err != nil {
		t.Error(err)
	}
}
