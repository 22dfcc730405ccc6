package activate

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/profile"
)

// TestCheckSeesWhatDownloadsBrought: an admin's edit, made while the
// switch downloads an asset, of a file the new profile drops is seen by
// the check (downloads come before it) and kept.
func TestCheckSeesWhatDownloadsBrought(t *testing.T) {
	root := newRoot(t, nil)
	one := writeProfile(t, file("hostname", "h\n"), exe("app/run", "nodegen's\n"))
	mustSwitch(t, root, one, SwitchOptions{})
	data := []byte("a program")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The admin edits /etc/app/run while the download is under way.
		os.WriteFile(filepath.Join(root, "etc/app/run"), []byte("the admin's edit\n"), 0o755)
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	two := filepath.Join(t.TempDir(), "profile")
	err := profile.Write(two, profile.Profile{Entries: []profile.Entry{file("hostname", "h\n")}, Assets: []profile.Asset{{
		Name: "prog", URL: srv.URL + "/prog", SHA256: sum256(data), Files: []profile.AssetFile{{Path: "/usr/local/bin/prog"}}, Option: "environment.assets.prog",
	}}})
	if err != nil {
		t.Fatal(err)
	}
	res := mustSwitch(t, root, two, SwitchOptions{})
	if got := readIn(t, root, "etc/app/run"); got != "the admin's edit\n" {
		t.Errorf("etc/app/run: %q, want the admin's edit", got)
	}
	if d := cmp.Diff([]string{"etc/app/run"}, res.Plan.LeftInPlace); d != "" {
		t.Errorf("left in place (-want +got):\n%s", d)
	}
}

// failpointDoing makes failpoint run f at stage (once), as if someone
// changed the system at that moment of the apply.
func failpointDoing(t *testing.T, stage string, f func()) {
	old := failpoint
	failpoint = func(s string) error {
		if s == stage && f != nil {
			f()
			f = nil
		}
		return nil
	}
	t.Cleanup(func() { failpoint = old })
}

// TestApplyInspectsEachPathAgain: every replace, remove and restore looks
// at its path again right before it acts: a file that appeared where the
// check saw nothing stops the apply (rolled back, the file kept), and a
// file edited after the check is not removed.
func TestApplyInspectsEachPathAgain(t *testing.T) {
	one := writeProfile(t, file("hostname", "one\n"), exe("gone/x", "x\n"))
	two := writeProfile(t, file("hostname", "two\n"), exe("new/y", "y\n"))

	t.Run("appeared", func(t *testing.T) {
		root := newRoot(t, nil)
		mustSwitch(t, root, one, SwitchOptions{})
		before := listing(t, root, "etc")
		failpointDoing(t, "static", func() {
			os.MkdirAll(filepath.Join(root, "etc/new"), 0o755)
			os.WriteFile(filepath.Join(root, "etc/new/y"), []byte("the admin's\n"), 0o644)
		})
		_, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Switch(two, SwitchOptions{}) })
		var fe *FailedError
		if !errors.As(err, &fe) || fe.Failure.Step != "place" || !fe.Failure.RolledBack {
			t.Fatalf("switch: %v, want a failure at place, rolled back", err)
		}
		if got := readIn(t, root, "etc/new/y"); got != "the admin's\n" {
			t.Errorf("etc/new/y: %q", got)
		}
		after := listing(t, root, "etc")
		delete(after, "etc/new")
		delete(after, "etc/new/y")
		if d := cmp.Diff(before, after); d != "" {
			t.Errorf("/etc after the rollback (-before +after):\n%s", d)
		}
	})
	t.Run("edited", func(t *testing.T) {
		root := newRoot(t, nil)
		mustSwitch(t, root, one, SwitchOptions{})
		failpointDoing(t, "place", func() {
			os.WriteFile(filepath.Join(root, "etc/gone/x"), []byte("edited after the check\n"), 0o755)
		})
		mustSwitch(t, root, two, SwitchOptions{})
		if got := readIn(t, root, "etc/gone/x"); got != "edited after the check\n" {
			t.Errorf("etc/gone/x: %q", got)
		}
		if _, managed := stateHas(readState(t, root), "etc/gone/x"); managed {
			t.Error("nodegen still manages the edited file")
		}
	})
}

// TestProfileReplacedDuringSwitch: the switch copies the profile first and
// reads only the copy: a profile directory replaced while it runs
// changes nothing of what it activates.
func TestProfileReplacedDuringSwitch(t *testing.T) {
	a := writeProfile(t, file("hostname", "a\n"), exe("nodegen/scripts/a", "a\n"), file("only-a", "a\n"))
	b := writeProfile(t, file("hostname", "b\n"), exe("nodegen/scripts/a", "b\n"), file("only-b", "b\n"))
	clean := newRoot(t, nil)
	mustSwitch(t, clean, a, SwitchOptions{})

	root := newRoot(t, nil)
	dir := filepath.Join(t.TempDir(), "profile")
	if err := os.Rename(a, dir); err != nil {
		t.Fatal(err)
	}
	replace := func(*Plan) {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(b, dir); err != nil {
			t.Fatal(err)
		}
	}
	mustSwitch(t, root, dir, SwitchOptions{Checked: replace})
	if d := cmp.Diff(listing(t, clean, "etc"), listing(t, root, "etc")); d != "" {
		t.Errorf("/etc (-profile a +got):\n%s", d)
	}
	if got := readIn(t, root, "var/lib/nodegen/generations/1/etc/nodegen/scripts/a"); got != "a\n" {
		t.Errorf("the generation's script: %q", got)
	}
}

// TestTakeOverAfterACrash: the journal records the paths a switch takes
// over, so the next command completes the switch as it was asked: the
// edited file kept below taken-over/, the profile's in its place.
func TestTakeOverAfterACrash(t *testing.T) {
	root := newRoot(t, nil)
	mustSwitch(t, root, writeProfile(t, exe("app/run", "one\n")), SwitchOptions{})
	if err := os.WriteFile(filepath.Join(root, "etc/app/run"), []byte("the admin's edit\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	two := writeProfile(t, exe("app/run", "two\n"))
	setFailpoint(t, "stop")
	_, err := run(t, root, nil, func(s *System) (*Result, error) {
		return s.Switch(two, SwitchOptions{TakeOver: []string{"/etc/app/run"}})
	})
	if !errors.Is(err, errCrash) {
		t.Fatalf("switch: %v, want the crash", err)
	}
	failpoint = func(string) error { return nil }
	res := mustSwitch(t, root, two, SwitchOptions{})
	if res.Recovered == nil || len(res.Recovered.TakeOver) != 1 {
		t.Errorf("recovered %+v", res.Recovered)
	}
	if got := readIn(t, root, "etc/app/run"); got != "two\n" {
		t.Errorf("etc/app/run: %q", got)
	}
	kept, _ := filepath.Glob(filepath.Join(root, takenOverDir, "*", "etc/app/run"))
	if len(kept) != 1 {
		t.Fatalf("taken over: %v", kept)
	}
	if data, err := os.ReadFile(kept[0]); err != nil || string(data) != "the admin's edit\n" {
		t.Errorf("the kept file: %q, %v", data, err)
	}
}
