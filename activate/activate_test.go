package activate

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/profile"
)

// file, exe and link make profile entries.
func file(target, text string) profile.Entry {
	return profile.Entry{Target: target, Content: []byte(text), Mode: "0644", Option: "environment.etc." + target}
}

func exe(target, text string) profile.Entry {
	e := file(target, text)
	e.Mode = "0755"
	return e
}

func link(target, to string) profile.Entry {
	return profile.Entry{Target: target, Mode: "symlink", Link: to, Option: "environment.etc." + target}
}

// unitFile is a service unit wanted by multi-user.target.
func unitFiles(name, body string) []profile.Entry {
	return []profile.Entry{
		file("systemd/system/"+name, body),
		link("systemd/system/multi-user.target.wants/"+name, "/etc/systemd/system/"+name),
	}
}

// writeProfile writes a profile of entries to a fresh directory.
func writeProfile(t *testing.T, entries ...profile.Entry) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "profile")
	if err := profile.Write(dir, profile.Profile{Entries: entries}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// newRoot makes a system root with an etc/ holding files.
func newRoot(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "etc"), 0o755); err != nil {
		t.Fatal(err)
	}
	for p, text := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func open(t *testing.T, root string, units UnitManager) *System {
	t.Helper()
	s, err := Open(Options{Root: root, Units: units, Now: func() time.Time { return time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// run opens the system, runs one command and closes it again.
func run[T any](t *testing.T, root string, units UnitManager, f func(*System) (T, error)) (T, error) {
	t.Helper()
	s := open(t, root, units)
	defer s.Close()
	return f(s)
}

func mustSwitch(t *testing.T, root, dir string, o SwitchOptions) *Result {
	t.Helper()
	res, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Switch(dir, o) })
	if err != nil {
		t.Fatalf("switch %s: %v", dir, err)
	}
	return res
}

// listing describes every path below root/sub: type, mode, owner and
// content hash, or a symlink's target.
func listing(t *testing.T, root, sub string) map[string]string {
	t.Helper()
	out := map[string]string{}
	base := filepath.Join(root, sub)
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		st := fi.Sys().(*syscall.Stat_t)
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "symlink " + target
		case fi.IsDir():
			out[rel] = fmt.Sprintf("dir %o", fi.Mode().Perm())
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			out[rel] = fmt.Sprintf("file %o %d:%d %s", fi.Mode()&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid), st.Uid, st.Gid, hex.EncodeToString(sum[:8]))
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return out
}

func readState(t *testing.T, root string) State {
	t.Helper()
	st, err := run(t, root, nil, func(s *System) (State, error) { return s.readState() })
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestSwitchPlacesEntries(t *testing.T) {
	root := newRoot(t, map[string]string{"etc/keep": "the admin's\n"})
	dir := writeProfile(t,
		file("motd", "hello\n"),
		exe("nodegen/scripts/run", "#!/bin/sh\n"),
		func() profile.Entry { e := file("secret", "s\n"); e.Mode = "0600"; return e }(),
		link("ssl/certs/ca.pem", "/usr/share/ca.pem"),
	)
	res := mustSwitch(t, root, dir, SwitchOptions{})
	if res.Generation != 1 {
		t.Errorf("generation %d, want 1", res.Generation)
	}
	got := listing(t, root, "etc")
	want := map[string]string{
		"etc":                     "dir 755",
		"etc/keep":                got["etc/keep"],
		"etc/motd":                "symlink /etc/static/motd",
		"etc/nodegen":             "dir 755",
		"etc/nodegen/scripts":     "dir 755",
		"etc/nodegen/scripts/run": fmt.Sprintf("file 755 %d:%d %s", os.Getuid(), os.Getgid(), shortHash("#!/bin/sh\n")),
		"etc/secret":              fmt.Sprintf("file 600 %d:%d %s", os.Getuid(), os.Getgid(), shortHash("s\n")),
		"etc/ssl":                 "dir 755",
		"etc/ssl/certs":           "dir 755",
		"etc/ssl/certs/ca.pem":    "symlink /usr/share/ca.pem",
		"etc/static":              "symlink /var/lib/nodegen/generations/1/etc",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("/etc (-want +got):\n%s", d)
	}
	// The link resolves, through etc/static, into the generation.
	data, err := os.ReadFile(filepath.Join(root, "var/lib/nodegen/generations/1/etc/motd"))
	if err != nil || string(data) != "hello\n" {
		t.Errorf("generation 1's motd: %q, %v", data, err)
	}
	if target, _ := os.Readlink(filepath.Join(root, "var/lib/nodegen/current")); target != "generations/1" {
		t.Errorf("current -> %q", target)
	}
	st := readState(t, root)
	var paths []string
	for _, e := range st.Entries {
		paths = append(paths, e.Path+" "+e.Kind)
	}
	wantPaths := []string{"etc/motd link", "etc/nodegen/scripts/run copy", "etc/secret copy", "etc/ssl/certs/ca.pem symlink"}
	if d := cmp.Diff(wantPaths, paths); d != "" || st.Generation != 1 {
		t.Errorf("state generation %d, entries (-want +got):\n%s", st.Generation, d)
	}
	if d := cmp.Diff([]string{"etc/nodegen", "etc/nodegen/scripts", "etc/ssl", "etc/ssl/certs"}, st.Dirs); d != "" {
		t.Errorf("state dirs (-want +got):\n%s", d)
	}
	if _, err := os.Stat(filepath.Join(root, journalFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("journal left behind: %v", err)
	}
}

// readIn reads a file below root, following symlinks as the system at
// root would (absolute targets are inside root).
func readIn(t *testing.T, root, rel string) string {
	t.Helper()
	p := filepath.Join(root, rel)
	for i := 0; i < 10; i++ {
		target, err := os.Readlink(p)
		if err != nil {
			break
		}
		if filepath.IsAbs(target) {
			p = filepath.Join(root, target)
		} else {
			p = filepath.Join(filepath.Dir(p), target)
		}
		// etc/static -> var/lib/...: resolve a link in a directory too.
		if fi, err := os.Lstat(filepath.Dir(p)); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			dt, _ := os.Readlink(filepath.Dir(p))
			p = filepath.Join(root, dt, filepath.Base(p))
		}
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("reading %s in %s: %v", rel, root, err)
	}
	return string(data)
}

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

func TestSwitchRefusesUnmanagedFiles(t *testing.T) {
	root := newRoot(t, map[string]string{"etc/motd": "the admin's\n", "etc/app/conf": "x"})
	// etc/app/conf/x needs etc/app/conf to be a directory.
	dir := writeProfile(t, file("motd", "hello\n"), file("hostname", "h\n"), file("app/conf/x", "x\n"))
	before := listing(t, root, "")
	res, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Switch(dir, SwitchOptions{}) })
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("switch: %v, want a conflict", err)
	}
	var got []string
	for _, c := range ce.Conflicts {
		got = append(got, strings.TrimPrefix(c.Path, root))
	}
	if d := cmp.Diff([]string{"/etc/app/conf/x", "/etc/motd"}, got); d != "" {
		t.Errorf("conflicts (-want +got):\n%s", d)
	}
	if !strings.Contains(ce.Error(), "--backup") || !strings.Contains(ce.Error(), "environment.etc.motd") {
		t.Errorf("message does not say what to do or which option:\n%s", ce)
	}
	if res.Plan == nil || len(res.Plan.Conflicts) != 2 {
		t.Errorf("plan: %+v", res.Plan)
	}
	after := listing(t, root, "")
	// Open created var/lib/nodegen and its lock; nothing else changed.
	for p := range after {
		if strings.HasPrefix(p, "var") {
			delete(after, p)
		}
	}
	if d := cmp.Diff(before, after); d != "" {
		t.Errorf("a refused switch changed the tree (-before +after):\n%s", d)
	}
	if gens, _ := run(t, root, nil, func(s *System) ([]Generation, error) { return s.Generations() }); len(gens) != 0 {
		t.Errorf("a refused switch made generations: %v", gens)
	}
}

func TestBackupRestoredOnRollbackAndDeactivate(t *testing.T) {
	root := newRoot(t, map[string]string{"etc/motd": "the admin's\n"})
	pristine := listing(t, root, "etc")
	one := writeProfile(t, file("hostname", "one\n"))
	two := writeProfile(t, file("hostname", "two\n"), file("motd", "nodegen's\n"))
	mustSwitch(t, root, one, SwitchOptions{})
	res := mustSwitch(t, root, two, SwitchOptions{Backup: true})
	if d := cmp.Diff([]string{"etc/motd"}, res.Plan.Backup); d != "" {
		t.Errorf("backup (-want +got):\n%s", d)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "var/lib/nodegen/backups/etc/motd")); string(b) != "the admin's\n" {
		t.Errorf("backup holds %q", b)
	}
	if m := readIn(t, root, "etc/motd"); m != "nodegen's\n" {
		t.Errorf("motd %q", m)
	}
	// Rolling back to generation 1, which does not manage motd, restores
	// the admin's file.
	if _, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Rollback(0, SwitchOptions{}) }); err != nil {
		t.Fatal(err)
	}
	if m, _ := os.ReadFile(filepath.Join(root, "etc/motd")); string(m) != "the admin's\n" {
		t.Errorf("after rollback, motd %q", m)
	}
	// Generation 2 again, then deactivate: /etc is as it was.
	if _, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Rollback(2, SwitchOptions{Backup: true}) }); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Deactivate(SwitchOptions{}) }); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(pristine, listing(t, root, "etc")); d != "" {
		t.Errorf("after deactivate /etc differs from before the first switch (-before +after):\n%s", d)
	}
	if st := readState(t, root); st.Generation != 0 || len(st.Entries) != 0 || len(st.Dirs) != 0 {
		t.Errorf("state after deactivate: %+v", st)
	}
	if left := listing(t, root, backupDir); len(left) > 1 {
		t.Errorf("backups left: %v", left)
	}
}

func TestChangedFilesAreNeverLost(t *testing.T) {
	root := newRoot(t, nil)
	one := writeProfile(t, exe("a", "a1\n"), exe("b", "b1\n"), file("c", "c1\n"))
	mustSwitch(t, root, one, SwitchOptions{})
	// The admin edits two copies and replaces a link.
	os.WriteFile(filepath.Join(root, "etc/a"), []byte("edited\n"), 0o755)
	os.WriteFile(filepath.Join(root, "etc/b"), []byte("edited\n"), 0o755)
	os.Remove(filepath.Join(root, "etc/c"))
	os.WriteFile(filepath.Join(root, "etc/c"), []byte("mine\n"), 0o644)

	// Generation 2 changes a and drops b and c: a is a conflict; b and c
	// would be removed but were changed, so they are left in place.
	two := writeProfile(t, exe("a", "a2\n"))
	_, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Switch(two, SwitchOptions{}) })
	var ce *ConflictError
	if !errors.As(err, &ce) || len(ce.Conflicts) != 1 || !strings.HasSuffix(ce.Conflicts[0].Path, "/etc/a") ||
		!strings.Contains(ce.Conflicts[0].Reason, "changed since nodegen placed it") {
		t.Fatalf("switch: %v", err)
	}
	res := mustSwitch(t, root, two, SwitchOptions{Backup: true})
	if d := cmp.Diff([]string{"etc/b", "etc/c"}, res.Plan.LeftInPlace); d != "" {
		t.Errorf("left in place (-want +got):\n%s", d)
	}
	for p, want := range map[string]string{"etc/a": "a2\n", "etc/b": "edited\n", "etc/c": "mine\n", "var/lib/nodegen/backups/etc/a": "edited\n"} {
		if got, _ := os.ReadFile(filepath.Join(root, p)); string(got) != want {
			t.Errorf("%s = %q, want %q", p, got, want)
		}
	}
	// The admin's edit of a comes back when nodegen lets go of a.
	if _, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Deactivate(SwitchOptions{}) }); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "etc/a")); string(got) != "edited\n" {
		t.Errorf("after deactivate etc/a = %q", got)
	}
}

func TestSwitchRemovesWhatTheOldGenerationHad(t *testing.T) {
	root := newRoot(t, nil)
	one := writeProfile(t, file("x/y/z", "1\n"), file("keep", "1\n"))
	two := writeProfile(t, file("keep", "2\n"))
	mustSwitch(t, root, one, SwitchOptions{})
	res := mustSwitch(t, root, two, SwitchOptions{})
	if d := cmp.Diff([]string{"etc/x/y/z"}, res.Plan.Remove); d != "" {
		t.Errorf("remove (-want +got):\n%s", d)
	}
	got := listing(t, root, "etc")
	want := map[string]string{
		"etc":        "dir 755",
		"etc/keep":   "symlink /etc/static/keep",
		"etc/static": "symlink /var/lib/nodegen/generations/2/etc",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("/etc (-want +got):\n%s", d)
	}
	if b := readIn(t, root, "etc/keep"); b != "2\n" {
		t.Errorf("keep = %q", b)
	}
}

func TestGenerationsAndGC(t *testing.T) {
	root := newRoot(t, nil)
	var dirs []string
	for i := 1; i <= 4; i++ {
		dirs = append(dirs, writeProfile(t, file("hostname", fmt.Sprintf("h%d\n", i))))
	}
	for _, d := range dirs[:3] {
		mustSwitch(t, root, d, SwitchOptions{})
	}
	// The same profile again makes no generation.
	if res := mustSwitch(t, root, dirs[2], SwitchOptions{}); !res.Unchanged || res.Generation != 3 {
		t.Errorf("same profile: %+v", res)
	}
	if _, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Rollback(1, SwitchOptions{}) }); err != nil {
		t.Fatal(err)
	}
	removed, err := run(t, root, nil, func(s *System) ([]int, error) { return s.GC(1) })
	if err != nil {
		t.Fatal(err)
	}
	// The newest (3) and the active one (1) stay.
	if d := cmp.Diff([]int{2}, removed); d != "" {
		t.Errorf("gc removed (-want +got):\n%s", d)
	}
	mustSwitch(t, root, dirs[3], SwitchOptions{})
	gens, err := run(t, root, nil, func(s *System) ([]Generation, error) { return s.Generations() })
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range gens {
		got = append(got, fmt.Sprintf("%d %s %s %v", g.Number, g.HostName, g.Date, g.Current))
	}
	// Number 2 is never used again.
	want := []string{"1 h1 2026-11-23T12:00:00Z false", "3 h3 2026-11-23T12:00:00Z false", "4 h4 2026-11-23T12:00:00Z true"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("generations (-want +got):\n%s", d)
	}
	if _, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Rollback(2, SwitchOptions{}) }); err == nil || !strings.Contains(err.Error(), "no generation 2") {
		t.Errorf("rollback to a removed generation: %v", err)
	}
}

func TestLock(t *testing.T) {
	root := newRoot(t, nil)
	s := open(t, root, nil)
	defer s.Close()
	if _, err := Open(Options{Root: root}); err == nil || !strings.Contains(err.Error(), "another nodegen command") {
		t.Errorf("second Open: %v", err)
	}
}

func TestSysusersCreatesOwners(t *testing.T) {
	if _, err := exec.LookPath("systemd-sysusers"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("systemd-sysusers is missing (apt-get install systemd)")
		}
		t.Skip("systemd-sysusers is not installed")
	}
	if os.Getuid() != 0 {
		t.Skip("needs root to give files to another user")
	}
	root := newRoot(t, map[string]string{"etc/passwd": "root:x:0:0:root:/root:/bin/sh\n", "etc/group": "root:x:0:\n"})
	conf := file("sysusers.d/ngtest.conf", "u ngtest - \"nodegen test\" /var/empty\n")
	owned := file("ngtest/config", "x\n")
	owned.User, owned.Group, owned.Mode = "ngtest", "ngtest", "0640"
	res := mustSwitch(t, root, writeProfile(t, conf, owned), SwitchOptions{})
	if res.Generation != 1 {
		t.Fatal(res)
	}
	o := (&System{r: mustRoot(t, root)}).readOwners()
	uid, ok := o.uid("ngtest")
	if !ok {
		t.Fatalf("systemd-sysusers did not create ngtest: %v", o.users)
	}
	fi, err := os.Lstat(filepath.Join(root, "etc/ngtest/config"))
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); int(st.Uid) != uid || fi.Mode().Perm() != 0o640 {
		t.Errorf("etc/ngtest/config: uid %d mode %o, want %d 640", st.Uid, fi.Mode().Perm(), uid)
	}
	// A user that exists nowhere is a conflict before anything changes.
	bad := file("other", "x\n")
	bad.User = "nosuchuser"
	_, err = run(t, root, nil, func(s *System) (*Result, error) { return s.Switch(writeProfile(t, bad), SwitchOptions{}) })
	if err == nil || !strings.Contains(err.Error(), "nosuchuser") {
		t.Errorf("unknown owner: %v", err)
	}
}

func mustRoot(t *testing.T, dir string) *os.Root {
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// setFailpoint makes failpoint crash at stage (and only there).
func setFailpoint(t *testing.T, stage string) {
	old := failpoint
	failpoint = func(s string) error {
		if s == stage {
			return errCrash
		}
		return nil
	}
	t.Cleanup(func() { failpoint = old })
}

// TestCrashAtEachStage interrupts a switch from generation 1 to 2 at each
// stage, as a kill would, and checks that the system is left with a state
// that names one of the two generations, and that the next switch or
// rollback completes or undoes the interrupted one: /etc ends exactly as a
// clean switch leaves it.
func TestCrashAtEachStage(t *testing.T) {
	admin := map[string]string{"etc/motd": "the admin's\n", "etc/passwd": "root:x:0:0::/root:/bin/sh\n"}
	one := writeProfile(t, file("hostname", "one\n"), exe("nodegen/scripts/a", "1\n"), file("gone/x", "x\n"))
	two := writeProfile(t, file("hostname", "two\n"), exe("nodegen/scripts/a", "2\n"), file("motd", "hello\n"),
		file("new/dir/y", "y\n"), link("l", "/target"))

	cleanOne := newRoot(t, admin)
	mustSwitch(t, cleanOne, one, SwitchOptions{})
	cleanTwo := newRoot(t, admin)
	mustSwitch(t, cleanTwo, one, SwitchOptions{})
	mustSwitch(t, cleanTwo, two, SwitchOptions{Backup: true})
	etcOf := func(root string) map[string]string {
		l := listing(t, root, "etc")
		delete(l, "etc/static") // its generation number differs after a crash before the journal
		return l
	}
	for _, stage := range Stages {
		for _, then := range []string{"switch", "rollback"} {
			t.Run(stage+"/"+then, func(t *testing.T) {
				root := newRoot(t, admin)
				mustSwitch(t, root, one, SwitchOptions{})
				setFailpoint(t, stage)
				_, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Switch(two, SwitchOptions{Backup: true}) })
				if !errors.Is(err, errCrash) {
					t.Fatalf("switch: %v, want the crash", err)
				}
				failpoint = func(string) error { return nil }
				if st := readState(t, root); st.Generation != 1 && st.Generation != 2 {
					t.Errorf("state names generation %d", st.Generation)
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
				}
				if d := cmp.Diff(want, etcOf(root)); d != "" {
					t.Errorf("/etc after the crash and a %s (-clean +got):\n%s", then, d)
				}
				if _, err := os.Stat(filepath.Join(root, journalFile)); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("journal left: %v", err)
				}
			})
		}
	}
}

// fakeUnits is a UnitManager that records what it is asked to do, checks
// that units are stopped while their old files are in place, and fails the
// units in failing.
type fakeUnits struct {
	t       *testing.T
	root    string
	active  map[string]bool
	failing map[string]bool
	calls   []string
	// statuses, when it has a unit, are the states Status reports for it
	// one after the other, the last one from then on.
	statuses map[string][]UnitStatus
	// runs counts the start and restart jobs of each unit: its
	// InvocationID.
	runs map[string]int
	// reset are the failing units whose failed state was reset since
	// their last job.
	reset map[string]bool
}

func (f *fakeUnits) invocation(unit string) string {
	if f.runs[unit] == 0 {
		return ""
	}
	return fmt.Sprintf("run-%d", f.runs[unit])
}

func (f *fakeUnits) Invocations(units []string) (map[string]Invocation, error) {
	out := map[string]Invocation{}
	for _, u := range units {
		out[u] = Invocation{ID: f.invocation(u), ConditionChecked: "0"}
	}
	return out, nil
}

func (f *fakeUnits) Succeeded(unit string, since time.Time) bool { return false }

func (f *fakeUnits) SystemUnits(units []string) (map[string]SystemUnit, error) {
	return map[string]SystemUnit{}, nil
}

func (f *fakeUnits) ResetFailed(units []string) error {
	f.calls = append(f.calls, "reset-failed "+strings.Join(units, " "))
	for _, u := range units {
		if f.reset == nil {
			f.reset = map[string]bool{}
		}
		f.reset[u] = true
	}
	return nil
}

func (f *fakeUnits) ActiveStates(units []string) (map[string]string, error) {
	out := map[string]string{}
	for _, u := range units {
		out[u] = "inactive"
		if f.active[u] {
			out[u] = "active"
		}
	}
	return out, nil
}

func (f *fakeUnits) Stop(units []string) error {
	for _, u := range units {
		if _, err := os.Lstat(filepath.Join(f.root, "etc/systemd/system", u)); err != nil {
			f.t.Errorf("%s stopped after its file was removed", u)
		}
		f.active[u] = false
	}
	f.calls = append(f.calls, "stop "+strings.Join(units, " "))
	return nil
}

func (f *fakeUnits) DaemonReload() error {
	f.calls = append(f.calls, "daemon-reload")
	return nil
}

func (f *fakeUnits) Queue(verb string, units []string) map[string]string {
	f.calls = append(f.calls, verb+" "+strings.Join(units, " "))
	for _, u := range units {
		f.active[u] = !f.failing[u]
		delete(f.reset, u)
		if verb != "reload" {
			if f.runs == nil {
				f.runs = map[string]int{}
			}
			f.runs[u]++
		}
	}
	return nil
}

func (f *fakeUnits) WaitJobs(time.Duration) (bool, error) { return true, nil }

func (f *fakeUnits) Status(unit string) (UnitStatus, error) {
	if list := f.statuses[unit]; len(list) > 0 {
		st := list[0]
		if len(list) > 1 {
			f.statuses[unit] = list[1:]
		}
		st.InvocationID = f.invocation(unit)
		return st, nil
	}
	if f.failing[unit] {
		return UnitStatus{ActiveState: "failed", SubState: "failed", Result: "exit-code", InvocationID: f.invocation(unit)}, nil
	}
	return UnitStatus{ActiveState: "active", SubState: "running", Result: "success", InvocationID: f.invocation(unit)}, nil
}

func (f *fakeUnits) Failed() ([]string, error) {
	out := []string{}
	for u := range f.failing {
		if f.failing[u] && !f.reset[u] {
			out = append(out, u)
		}
	}
	sort.Strings(out)
	return out, nil
}

func (f *fakeUnits) Journal(unit string, n int, since time.Time) string {
	return unit + ": something went wrong"
}

func TestUnitsFollowSwitchToConfiguration(t *testing.T) {
	svc := func(extra string) string { return "[Service]\nExecStart=/bin/true\n" + extra }
	one := writeProfile(t, flatten(
		unitFiles("changed.service", svc("")),
		unitFiles("reloaded.service", svc("X-ReloadIfChanged=true\n")),
		unitFiles("restarted.service", svc("X-StopIfChanged=false\n")),
		unitFiles("removed.service", svc("")),
		unitFiles("inactive.service", svc("")),
		unitFiles("untouched.service", svc("")),
		unitFiles("pinned.service", svc("X-RestartIfChanged=false\n")),
	)...)
	two := writeProfile(t, flatten(
		unitFiles("changed.service", svc("Environment=V=2\n")),
		unitFiles("reloaded.service", svc("X-ReloadIfChanged=true\nEnvironment=V=2\n")),
		unitFiles("restarted.service", svc("X-StopIfChanged=false\nEnvironment=V=2\n")),
		unitFiles("inactive.service", svc("Environment=V=2\n")),
		unitFiles("untouched.service", svc("")),
		unitFiles("pinned.service", svc("X-RestartIfChanged=false\nEnvironment=V=2\n")),
		unitFiles("new.service", svc("")),
		[]profile.Entry{file("systemd/system/lonely.service", svc(""))},
	)...)
	root := newRoot(t, nil)
	mustSwitch(t, root, one, SwitchOptions{})
	f := &fakeUnits{t: t, root: root, failing: map[string]bool{}, active: map[string]bool{
		"multi-user.target": true, "changed.service": true, "reloaded.service": true, "restarted.service": true,
		"removed.service": true, "untouched.service": true, "pinned.service": true,
	}}
	res, err := run(t, root, f, func(s *System) (*Result, error) { return s.Switch(two, SwitchOptions{}) })
	if err != nil {
		t.Fatal(err)
	}
	want := UnitPlan{
		Stop:         []string{"changed.service", "removed.service"},
		Reload:       []string{"reloaded.service"},
		Restart:      []string{"restarted.service"},
		Start:        []string{"changed.service", "inactive.service", "new.service"},
		NotRestarted: []string{"pinned.service"},
		FailedBefore: []string{},
		ResetFailed:  []string{},
		Live:         true,
	}
	if d := cmp.Diff(want, res.Plan.Units, cmp.AllowUnexported(UnitPlan{}), cmpIgnoreWanted); d != "" {
		t.Errorf("unit plan (-want +got):\n%s", d)
	}
	wantCalls := []string{"stop changed.service removed.service", "daemon-reload", "reload reloaded.service", "restart restarted.service", "start changed.service inactive.service new.service"}
	if d := cmp.Diff(wantCalls, f.calls); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}

	// A unit that fails is reported with its journal; with
	// RollbackOnFailure generation 2 is active again, its units started.
	three := writeProfile(t, flatten(unitFiles("changed.service", svc("Environment=V=3\n")), unitFiles("broken.service", svc("")))...)
	f.failing["broken.service"] = true
	f.calls = nil
	res, err = run(t, root, f, func(s *System) (*Result, error) {
		return s.Switch(three, SwitchOptions{RollbackOnFailure: true})
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failed) != 1 || res.Failed[0].Unit != "broken.service" || !strings.Contains(res.Failed[0].Journal, "went wrong") {
		t.Errorf("failed: %+v", res.Failed)
	}
	if res.RolledBack == nil || res.RolledBack.Generation != 2 || len(res.RolledBack.Failed) != 0 {
		t.Fatalf("rolled back: %+v", res.RolledBack)
	}
	if st := readState(t, root); st.Generation != 2 {
		t.Errorf("active generation %d after the rollback, want 2", st.Generation)
	}
	if !f.active["new.service"] || !f.active["changed.service"] || f.active["broken.service"] {
		t.Errorf("after the rollback: %v (calls %q)", f.active, f.calls)
	}
}

// TestUnitsRestartingOrWaitingForACondition: a unit that exited and waits
// to be restarted (Restart=) is given until the job timeout to come up, and
// a unit whose Condition*= does not hold (a certificate not issued yet) is
// not started by systemd, which is no failure; a unit that keeps
// restarting is reported once the timeout has passed.
func TestUnitsRestartingOrWaitingForACondition(t *testing.T) {
	svc := "[Service]\nExecStart=/bin/true\n"
	prof := writeProfile(t, flatten(unitFiles("restarting.service", svc), unitFiles("waiting.service", svc), unitFiles("looping.service", svc))...)
	root := newRoot(t, nil)
	restart := UnitStatus{ActiveState: "activating", SubState: "auto-restart", Result: "exit-code"}
	f := &fakeUnits{t: t, root: root, failing: map[string]bool{}, active: map[string]bool{"multi-user.target": true}, statuses: map[string][]UnitStatus{
		"restarting.service": {restart, {ActiveState: "activating", SubState: "start-pre", Result: "exit-code"}, restart, {ActiveState: "active", SubState: "running", Result: "success"}},
		"waiting.service":    {{ActiveState: "inactive", SubState: "dead", Result: "success", ConditionResult: "no", ConditionChecked: "123456"}},
		"looping.service":    {restart},
	}}
	res, err := run(t, root, f, func(s *System) (*Result, error) {
		return s.Switch(prof, SwitchOptions{JobTimeout: 3 * time.Second, Settle: time.Millisecond})
	})
	if err != nil {
		t.Fatal(err)
	}
	var failed []string
	for _, u := range res.Failed {
		failed = append(failed, u.Unit)
	}
	if d := cmp.Diff([]string{"looping.service"}, failed); d != "" {
		t.Errorf("failed units (-want +got):\n%s", d)
	}
}

var cmpIgnoreWanted = cmp.FilterPath(func(p cmp.Path) bool {
	return p.Last().String() == ".wantedBy" || p.Last().String() == ".removed"
}, cmp.Ignore())

func flatten(lists ...[]profile.Entry) []profile.Entry {
	var out []profile.Entry
	for _, l := range lists {
		out = append(out, l...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Target < out[j].Target })
	return out
}

// TestKilledSwitchHeals kills a real process with SIGKILL at each stage of
// a switch (NODEGEN_TEST_KILL_AT), then runs the switch again: it
// completes the interrupted one and /etc ends as a clean switch leaves it.
func TestKilledSwitchHeals(t *testing.T) {
	if os.Getenv("NODEGEN_TEST_CHILD_ROOT") != "" {
		return // the child's part is in TestMain
	}
	one := writeProfile(t, file("hostname", "one\n"), exe("nodegen/scripts/a", "1\n"), file("gone/x", "x\n"))
	two := writeProfile(t, file("hostname", "two\n"), exe("nodegen/scripts/a", "2\n"), file("new/dir/y", "y\n"))
	admin := map[string]string{"etc/admin.conf": "the admin's\n", "etc/gone/admin": "the admin's too\n"}
	clean := newRoot(t, admin)
	mustSwitch(t, clean, one, SwitchOptions{})
	wantOld := listing(t, clean, "etc")
	mustSwitch(t, clean, two, SwitchOptions{})
	want := listing(t, clean, "etc")
	for _, stage := range Stages {
		t.Run(stage, func(t *testing.T) {
			root := newRoot(t, admin)
			mustSwitch(t, root, one, SwitchOptions{})
			killedSwitch(t, root, two, stage)
			// Killed, /etc is generation 1's or 2's as far as the state
			// says, and the admin's files are there.
			if st := readState(t, root); st.Generation != 1 && st.Generation != 2 {
				t.Errorf("after the kill the state names generation %d", st.Generation)
			}
			if stage == "generation" || stage == "journal" {
				got := listing(t, root, "etc")
				if d := cmp.Diff(wantOld, got); d != "" {
					t.Errorf("/etc after a kill before any change (-old +got):\n%s", d)
				}
			}
			for rel, text := range admin {
				if got := readIn(t, root, rel); got != text {
					t.Errorf("%s after the kill: %q", rel, got)
				}
			}
			mustSwitch(t, root, two, SwitchOptions{})
			got := listing(t, root, "etc")
			// A kill before the journal leaves an unused generation 2: the
			// switch then makes generation 3.
			got["etc/static"] = want["etc/static"]
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("/etc (-clean +healed):\n%s", d)
			}
			if tmp := tempFiles(t, root); len(tmp) > 0 {
				t.Errorf("temporary files left: %v", tmp)
			}
		})
	}
}

// tempFiles lists the temporary files of nodegen below root.
func tempFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if isTempName(d.Name()) || strings.HasPrefix(d.Name(), ".tmp-") {
			rel, _ := filepath.Rel(root, p)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestKilledWriteLeavesNoTempFile kills a switch while it writes the copy
// of a 0600 secret into /etc, the temporary file written but not yet
// renamed: the next command removes it (and completes the switch).
func TestKilledWriteLeavesNoTempFile(t *testing.T) {
	secret := file("secret", "s3cret\n")
	secret.Mode = "0600"
	one := writeProfile(t, file("hostname", "one\n"))
	two := writeProfile(t, file("hostname", "two\n"), secret)
	clean := newRoot(t, nil)
	mustSwitch(t, clean, one, SwitchOptions{})
	mustSwitch(t, clean, two, SwitchOptions{})
	for _, stage := range []string{"temp:etc/secret", "temp:" + stateFile, "temp:" + journalFile} {
		t.Run(stage, func(t *testing.T) {
			root := newRoot(t, nil)
			mustSwitch(t, root, one, SwitchOptions{})
			killedSwitch(t, root, two, stage)
			if tmp := tempFiles(t, root); len(tmp) != 1 {
				t.Fatalf("after the kill: temporary files %v, want one", tmp)
			}
			mustSwitch(t, root, two, SwitchOptions{})
			if tmp := tempFiles(t, root); len(tmp) > 0 {
				t.Errorf("temporary files left after the next switch: %v", tmp)
			}
			want, got := listing(t, clean, "etc"), listing(t, root, "etc")
			got["etc/static"] = want["etc/static"]
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("/etc (-clean +healed):\n%s", d)
			}
		})
	}
}

// killedSwitch runs a switch of root to profile in a child process that
// kills itself with SIGKILL at stage.
func killedSwitch(t *testing.T, root, profile, stage string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "NODEGEN_TEST_KILL_AT="+stage, "NODEGEN_TEST_CHILD_ROOT="+root, "NODEGEN_TEST_CHILD_PROFILE="+profile)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed at %s: %v\n%s", stage, err, out)
	}
}

// TestMain runs the child of TestKilledSwitchHeals when asked to.
func TestMain(m *testing.M) {
	if root := os.Getenv("NODEGEN_TEST_CHILD_ROOT"); root != "" {
		s, err := Open(Options{Root: root})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		_, err = s.Switch(os.Getenv("NODEGEN_TEST_CHILD_PROFILE"), SwitchOptions{})
		fmt.Fprintln(os.Stderr, "the switch was not killed:", err)
		os.Exit(4)
	}
	cleanup := useFakeSelf()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// TestIdenticalAdminFileIsNotTakenOver: an admin's file that happens to
// be what the profile places is still the admin's: the switch refuses it
// (or keeps it with --backup), so deactivate cannot delete it.
func TestIdenticalAdminFileIsNotTakenOver(t *testing.T) {
	root := newRoot(t, nil)
	os.WriteFile(filepath.Join(root, "etc/run.sh"), []byte("#!/bin/sh\n"), 0o755)
	os.Chmod(filepath.Join(root, "etc/run.sh"), 0o755)
	dir := writeProfile(t, exe("run.sh", "#!/bin/sh\n"))
	_, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Switch(dir, SwitchOptions{}) })
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("switch: %v, want a conflict", err)
	}
	mustSwitch(t, root, dir, SwitchOptions{Backup: true})
	if _, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Deactivate(SwitchOptions{}) }); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "etc/run.sh")); err != nil || string(b) != "#!/bin/sh\n" {
		t.Errorf("the admin's file after deactivate: %q, %v", b, err)
	}
}
