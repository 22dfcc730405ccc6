package activate

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nodegen/nodegen/internal/suitereport"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/profile"
)

// needTool skips a test that runs a systemd tool this machine lacks
// (CI has them).
func needTool(t *testing.T, tool string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		suitereport.Skip(t, "activate "+tool, tool+" is not installed (Debian's systemd)")
	}
}

// setManifestMode rewrites the mode of one entry in a profile's manifest,
// as a hand-edited or foreign profile could have it: profile.Read accepts
// any string.
func setManifestMode(t *testing.T, dir, path, mode string) {
	t.Helper()
	editManifest(t, dir, path, func(e map[string]any) { e["mode"] = mode })
}

// renameEntry moves one entry of a profile to another path, in its
// manifest and on disk, as an older nodegen that did not check unit names
// could have written it.
func renameEntry(t *testing.T, dir, from, to string) {
	t.Helper()
	editManifest(t, dir, from, func(e map[string]any) { e["path"] = to })
	if err := os.Rename(filepath.Join(dir, from), filepath.Join(dir, to)); err != nil {
		t.Fatal(err)
	}
}

// editManifest changes the manifest entry at path with f.
func editManifest(t *testing.T, dir, path string, f func(map[string]any)) {
	t.Helper()
	file := filepath.Join(dir, profile.ManifestName)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, e := range m["entries"].([]any) {
		if e := e.(map[string]any); e["path"] == path {
			f(e)
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := profile.Read(dir); err != nil {
		t.Fatalf("profile.Read refuses the edited manifest: %v", err)
	}
}

// TestCheckRefusesWhatTheApplyWouldFailOn: a tmpfiles.d owner nobody
// creates, a login shell systemd-sysusers rejects, a mode the apply cannot
// parse and a unit name systemd refuses all stop the switch in its check
// stage, each with its file and line, before the journal: the active
// generation stays as it was and the next switch works.
func TestCheckRefusesWhatTheApplyWouldFailOn(t *testing.T) {
	needTool(t, "systemd-sysusers")
	needTool(t, "systemd-tmpfiles")
	root := newRoot(t, map[string]string{"etc/passwd": "root:x:0:0::/root:/bin/sh\n", "etc/group": "root:x:0:\n"})
	one := writeProfile(t, file("hostname", "one\n"))
	mustSwitch(t, root, one, SwitchOptions{})
	before := listing(t, root, "etc")

	bad := writeProfile(t,
		file("hostname", "two\n"),
		file("tmpfiles.d/myapp.conf", "# dirs\nd /var/lib/myapp 0750 myapp myapp -\nd /var/lib/svc 0750 svc svc -\n"),
		file("sysusers.d/svc.conf", "u svc - \"Service\" /var/lib/svc nologin\n"),
		exe("nodegen/scripts/run", "#!/bin/sh\n"),
		file("systemd/system/web.service", "[Service]\n"),
	)
	setManifestMode(t, bad, "etc/nodegen/scripts/run", "0x755")
	renameEntry(t, bad, "etc/systemd/system/web.service", "etc/systemd/system/-web.service")
	_, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Switch(bad, SwitchOptions{}) })
	var ie *InvalidError
	if !errors.As(err, &ie) {
		t.Fatalf("switch: %v, want an *InvalidError", err)
	}
	var got []string
	for _, p := range ie.Problems {
		got = append(got, p.Path)
	}
	want := []string{
		filepath.Join(root, "etc/nodegen/scripts/run"),
		filepath.Join(root, "etc/systemd/system/-web.service"),
		filepath.Join(root, "etc/sysusers.d/svc.conf") + ":1",
		filepath.Join(root, "etc/tmpfiles.d/myapp.conf") + ":2",
		filepath.Join(root, "etc/tmpfiles.d/myapp.conf") + ":2",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("problems (-want +got):\n%s\n%v", d, err)
	}
	for _, frag := range []string{`"nologin" is not a valid login shell`, `user "myapp"`, `group "myapp"`, `mode "0x755"`, `"-web.service" is no unit name systemd accepts: it starts with -, which systemctl reads as an option (from environment.etc.systemd/system/web.service)`} {
		if !strings.Contains(err.Error(), frag) {
			t.Errorf("the error does not say %q:\n%v", frag, err)
		}
	}
	// svc is created by the profile's own sysusers.d: its tmpfiles line is
	// fine.
	if strings.Contains(err.Error(), `user "svc"`) {
		t.Errorf("svc, which the profile's sysusers.d creates, is refused:\n%v", err)
	}
	if _, err := os.Stat(filepath.Join(root, journalFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("journal written: %v", err)
	}
	if d := cmp.Diff(before, listing(t, root, "etc")); d != "" {
		t.Errorf("/etc changed (-before +after):\n%s", d)
	}
	good := writeProfile(t,
		file("hostname", "two\n"),
		file("tmpfiles.d/svc.conf", "d /var/lib/svc 0750 svc svc -\n"),
		file("sysusers.d/svc.conf", "u svc - \"Service\" /var/lib/svc /usr/sbin/nologin\n"),
	)
	mustSwitch(t, root, good, SwitchOptions{})
	if fi, err := os.Stat(filepath.Join(root, "var/lib/svc")); err != nil || !fi.IsDir() {
		t.Errorf("tmpfiles did not make var/lib/svc: %v", err)
	}
}

// failAt makes failpoint fail at stage, the first times calls, with an
// error that is not a crash: a step that fails.
func failAt(t *testing.T, stage string, times int) {
	old := failpoint
	failpoint = func(s string) error {
		if s == stage && times > 0 {
			times--
			return errors.New("injected failure")
		}
		return nil
	}
	t.Cleanup(func() { failpoint = old })
}

// TestFailedStepRollsBack: a step that fails after the journal (here a
// real systemd-tmpfiles that cannot create its file) makes the switch go
// back to the previous generation: /etc as it was, the units it stopped
// started again, no journal, the failure in state.json and the
// generations; the next switch works.
func TestFailedStepRollsBack(t *testing.T) {
	needTool(t, "systemd-tmpfiles")
	units := flatten(unitFiles("web.service", "[Service]\nExecStart=/bin/sleep 1\n"))
	one := writeProfile(t, append(units, file("hostname", "one\n"))...)
	units2 := flatten(unitFiles("web.service", "[Service]\nExecStart=/bin/sleep 2\n"))
	two := writeProfile(t, append(units2, file("hostname", "two\n"), file("new/file", "n\n"),
		file("tmpfiles.d/blocked.conf", "f /srv/blocker/sub 0644 root root - x\n"))...)

	root := newRoot(t, map[string]string{"srv/blocker": "a file, not a directory\n"})
	fu := &fakeUnits{t: t, root: root, active: map[string]bool{"multi-user.target": true}}
	if _, err := run(t, root, fu, func(s *System) (*Result, error) { return s.Switch(one, SwitchOptions{}) }); err != nil {
		t.Fatal(err)
	}
	before := listing(t, root, "etc")
	fu.calls = nil
	res, err := run(t, root, fu, func(s *System) (*Result, error) { return s.Switch(two, SwitchOptions{}) })
	var fe *FailedError
	if !errors.As(err, &fe) {
		t.Fatalf("switch: %v, want a *FailedError", err)
	}
	f := fe.Failure
	if f.Step != "tmpfiles" || !f.RolledBack || f.Generation != 2 || f.From != 1 || !strings.Contains(f.Error, "systemd-tmpfiles") {
		t.Errorf("failure %+v", f)
	}
	if res.RolledBack == nil || res.RolledBack.Generation != 1 {
		t.Errorf("rolled back: %+v", res.RolledBack)
	}
	if d := cmp.Diff(before, listing(t, root, "etc")); d != "" {
		t.Errorf("/etc after the rollback (-before +after):\n%s", d)
	}
	// web was stopped for the change and runs again after the rollback.
	if d := cmp.Diff([]string{"stop web.service", "daemon-reload", "start web.service"}, fu.calls); d != "" {
		t.Errorf("unit calls (-want +got):\n%s", d)
	}
	if _, err := os.Stat(filepath.Join(root, journalFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("journal left: %v", err)
	}
	st := readState(t, root)
	if st.Generation != 1 || len(st.Failures) != 1 || st.Failures[0].Step != "tmpfiles" {
		t.Errorf("state: generation %d, failures %+v", st.Generation, st.Failures)
	}
	gens, err := run(t, root, nil, func(s *System) ([]Generation, error) { return s.Generations() })
	if err != nil || len(gens) != 2 || len(gens[1].Failures) != 1 {
		t.Errorf("generations: %+v, %v", gens, err)
	}
	fu.failing = map[string]bool{"other.service": true}
	status, err := run(t, root, fu, func(s *System) (*Status, error) { return s.Status() })
	if err != nil || status.LastFailure == nil || status.LastFailure.Step != "tmpfiles" || status.Pending != nil ||
		len(status.Drifted) != 0 || status.Generation == nil || status.Generation.Number != 1 || !cmp.Equal(status.FailedUnits, []string{"other.service"}) {
		t.Errorf("status: %+v, %v", status, err)
	}
	// The blocker gone, the same profile switches.
	os.Remove(filepath.Join(root, "srv/blocker"))
	res = mustSwitch(t, root, two, SwitchOptions{})
	if res.Generation != 3 {
		t.Errorf("generation %d, want 3", res.Generation)
	}
	if got := readIn(t, root, "srv/blocker/sub"); got != "x" {
		t.Errorf("tmpfiles' file: %q", got)
	}
}

// TestFailedRollbackNeverWedges: when the rollback of a failed step fails
// too, the journal stays marked failed, and every later command works
// anyway: it activates its own generation around the failed one, and
// removes what either placed.
func TestFailedRollbackNeverWedges(t *testing.T) {
	one := writeProfile(t, file("hostname", "one\n"), exe("nodegen/scripts/a", "1\n"), file("gone/x", "x\n"))
	two := writeProfile(t, file("hostname", "two\n"), exe("nodegen/scripts/a", "2\n"), file("motd", "hi\n"), file("new/dir/y", "y\n"))
	admin := map[string]string{"etc/passwd": "root:x:0:0::/root:/bin/sh\n", "etc/motd": "the admin's\n"}
	cleanOne := newRoot(t, admin)
	mustSwitch(t, cleanOne, one, SwitchOptions{})
	cleanTwo := newRoot(t, admin)
	mustSwitch(t, cleanTwo, one, SwitchOptions{})
	mustSwitch(t, cleanTwo, two, SwitchOptions{Backup: true})
	etcOf := func(root string) map[string]string {
		l := listing(t, root, "etc")
		delete(l, "etc/static")
		return l
	}
	for _, then := range []string{"switch", "rollback", "deactivate", "gc"} {
		t.Run(then, func(t *testing.T) {
			root := newRoot(t, admin)
			mustSwitch(t, root, one, SwitchOptions{})
			// "place" fails for the switch and for its rollback.
			failAt(t, "place", 2)
			_, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Switch(two, SwitchOptions{Backup: true}) })
			var fe *FailedError
			if !errors.As(err, &fe) || fe.Failure.RolledBack || fe.Failure.RollbackError == "" || fe.Failure.Step != "place" {
				t.Fatalf("switch: %v, want a failure whose rollback failed", err)
			}
			j, err := run(t, root, nil, func(s *System) (*Journal, error) { return s.Pending() })
			if err != nil || j == nil || j.Failed == nil {
				t.Fatalf("pending journal %+v, %v; want one marked failed", j, err)
			}
			var want map[string]string
			switch then {
			case "switch":
				mustSwitch(t, root, two, SwitchOptions{Backup: true})
				want = etcOf(cleanTwo)
			case "rollback":
				if _, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Rollback(1, SwitchOptions{}) }); err != nil {
					t.Fatal(err)
				}
				want = etcOf(cleanOne)
			case "deactivate":
				if _, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Deactivate(SwitchOptions{}) }); err != nil {
					t.Fatal(err)
				}
				want = map[string]string{"etc": "dir 755", "etc/passwd": etcOf(cleanOne)["etc/passwd"], "etc/motd": etcOf(cleanOne)["etc/motd"]}
			case "gc":
				if _, err := run(t, root, nil, func(s *System) ([]int, error) { return s.GC(0) }); err != nil {
					t.Fatal(err)
				}
				// gc keeps both generations of the failed activation, and
				// the next switch then works.
				mustSwitch(t, root, two, SwitchOptions{Backup: true})
				want = etcOf(cleanTwo)
			}
			if d := cmp.Diff(want, etcOf(root)); d != "" {
				t.Errorf("/etc after the failed rollback and a %s (-want +got):\n%s", then, d)
			}
			if _, err := os.Stat(filepath.Join(root, journalFile)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("journal left: %v", err)
			}
			if st := readState(t, root); len(st.Failures) != 1 || st.Failures[0].RollbackError == "" {
				t.Errorf("state's failures: %+v", st.Failures)
			}
		})
	}
}
