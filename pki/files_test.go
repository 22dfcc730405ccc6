package pki

import (
	"bytes"
	"context"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/nodegen/nodegen/internal/suitereport"
)

func TestWriteAtomic(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "secrets") // made by writeAtomic
	key := filepath.Join(dir, "k-key.pem")
	old := syscall.Umask(0) // the mode is the spec's whatever the umask
	defer syscall.Umask(old)
	for i, data := range []string{"first", "second"} {
		if err := writeAtomic(key, []byte(data), 0o640, -1, -1); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(key)
		if err != nil {
			t.Fatal(err)
		}
		if got := readFile(t, key); got != data || fi.Mode().Perm() != 0o640 {
			t.Errorf("write %d: %q with mode %v, want %q with 0640", i, got, fi.Mode().Perm(), data)
		}
	}
	checkNoTemporaries(t, dir)
	if err := writeAtomic(filepath.Join(dir, "missing", "x"), nil, 0o600, -1, -1); err != nil {
		t.Errorf("a missing directory is made: %v", err)
	}
}

// TestOwnership gives files to another user (as root only) and fixes
// them back.
func TestOwnership(t *testing.T) {
	const suite = "file ownership (pki)"
	suitereport.Root(t, suite, "changing a file's owner")
	nobody, err := user.Lookup("nobody")
	if err != nil {
		suitereport.Skip(t, suite, "no user nobody")
	}
	suitereport.Ran(t, suite)
	uid, _ := strconv.Atoi(nobody.Uid)
	f := File{Owner: "nobody", Group: "0"}
	u, g, err := f.ids()
	if err != nil || u != uid || g != 0 {
		t.Fatalf("ids: %d %d %v, want %d 0", u, g, err, uid)
	}
	p := filepath.Join(t.TempDir(), "k-key.pem")
	if err := writeAtomic(p, []byte("k"), 0o600, u, g); err != nil {
		t.Fatal(err)
	}
	owner := func() int {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return int(fi.Sys().(*syscall.Stat_t).Uid)
	}
	if owner() != uid {
		t.Errorf("owner %d, want nobody (%d)", owner(), uid)
	}
	if changed, err := fixOwnership(p, 0o600, u, g); changed || err != nil {
		t.Errorf("nothing to fix: changed %v, %v", changed, err)
	}
	if err := os.Chown(p, 0, 0); err != nil {
		t.Fatal(err)
	}
	if changed, err := fixOwnership(p, 0o600, u, g); !changed || err != nil || owner() != uid {
		t.Errorf("fixing: changed %v, %v, owner %d", changed, err, owner())
	}
}

func TestUnknownOwner(t *testing.T) {
	_, _, err := File{Owner: "no-such-user-nodegen"}.ids()
	if err == nil || err.Error() != `there is no user "no-such-user-nodegen" on this host` {
		t.Errorf("error %v", err)
	}
	_, _, err = File{Group: "no-such-group-nodegen"}.ids()
	if err == nil || err.Error() != `there is no group "no-such-group-nodegen" on this host` {
		t.Errorf("error %v", err)
	}
}

// TestRunActionsShell runs actions with /bin/sh, their output to Log,
// each distinct one once, and reports the one that fails.
func TestRunActionsShell(t *testing.T) {
	var log bytes.Buffer
	f := &Fetcher{Log: &log}
	spec := func(action string) *Spec { return &Spec{Action: action} }
	res := f.RunActions(context.Background(), []Outcome{
		{Spec: spec("echo one"), Changed: true},
		{Spec: spec("echo two"), Changed: false},
		{Spec: spec("echo one"), Changed: true},
		{Spec: spec(""), Changed: true},
		{Spec: spec("exit 3"), Changed: true},
	})
	if len(res) != 2 || res[0].Err != nil || res[1].Action != "exit 3" || res[1].Err == nil || !strings.Contains(res[1].Err.Error(), "exit status 3") {
		t.Errorf("results %+v", res)
	}
	if want := "running echo one\none\nrunning exit 3\n"; log.String() != want {
		t.Errorf("log %q, want %q", log.String(), want)
	}
}
