package profile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/internal/suitereport"
)

// sample is a small profile with files of several modes and owners, a
// symlink, and a unit wanted by a target.
func sample() Profile {
	return Profile{
		Entries: []Entry{
			{Target: "hostname", Content: []byte("node1\n"), Mode: "0644", Option: `environment.etc."hostname"`},
			{Target: "secret/token", Content: []byte("s3cret"), Mode: "0600", User: "kube", Group: "kube", Option: `environment.etc."secret/token"`},
			{Target: "nodegen/scripts/kubelet-pre", Content: []byte("#!/bin/sh\nset -e\n"), Mode: "755", Option: "systemd.services.kubelet.preStart"},
			{Target: "systemd/system/kubelet.service", Content: []byte("[Service]\nExecStart=/usr/bin/kubelet\n"), Mode: "0444", Option: "systemd.services.kubelet"},
			{Target: "systemd/system/multi-user.target.wants/kubelet.service", Link: "/etc/systemd/system/kubelet.service", Mode: "symlink", Option: "systemd.services.kubelet.wantedBy"},
			{Target: "localtime", Link: "/usr/share/zoneinfo/UTC", Mode: "symlink", Option: "time.timeZone"},
			{Target: "empty", Mode: "0000", Option: "x"},
		},
		Warnings: []string{"zeta warning", "alpha warning", "zeta warning"},
	}
}

const sampleManifest = `{
  "version": 1,
  "entries": [
    {
      "path": "etc/empty",
      "type": "file",
      "mode": "0000",
      "user": "root",
      "group": "root",
      "sha256": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      "size": 0,
      "option": "x"
    },
    {
      "path": "etc/hostname",
      "type": "file",
      "mode": "0644",
      "user": "root",
      "group": "root",
      "sha256": "HOSTNAME",
      "size": 6,
      "option": "environment.etc.\"hostname\""
    },
    {
      "path": "etc/localtime",
      "type": "symlink",
      "target": "/usr/share/zoneinfo/UTC",
      "option": "time.timeZone"
    },
    {
      "path": "etc/nodegen/scripts/kubelet-pre",
      "type": "file",
      "mode": "0755",
      "user": "root",
      "group": "root",
      "sha256": "SCRIPT",
      "size": 17,
      "option": "systemd.services.kubelet.preStart"
    },
    {
      "path": "etc/secret/token",
      "type": "file",
      "mode": "0600",
      "user": "kube",
      "group": "kube",
      "sha256": "TOKEN",
      "size": 6,
      "option": "environment.etc.\"secret/token\""
    },
    {
      "path": "etc/systemd/system/kubelet.service",
      "type": "file",
      "mode": "0444",
      "user": "root",
      "group": "root",
      "sha256": "UNIT",
      "size": 37,
      "option": "systemd.services.kubelet"
    },
    {
      "path": "etc/systemd/system/multi-user.target.wants/kubelet.service",
      "type": "symlink",
      "target": "/etc/systemd/system/kubelet.service",
      "option": "systemd.services.kubelet.wantedBy"
    }
  ],
  "warnings": [
    "alpha warning",
    "zeta warning"
  ]
}
`

// snapshot describes every path below dir: type, mode, content or target.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			out[rel] = "symlink " + target
		case fi.IsDir():
			out[rel] = "dir " + fi.Mode().Perm().String()
		case fi.Mode().Perm()&0o400 == 0 && fi.Size() == 0:
			// Unreadable to a non-root owner; empty is all we need.
			out[rel] = "file " + fi.Mode().Perm().String() + " "
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = "file " + fi.Mode().Perm().String() + " " + string(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// siblings lists the names in dir's parent that start with "."+base(dir).
func siblings(t *testing.T, dir string) []string {
	t.Helper()
	names, err := os.ReadDir(filepath.Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n.Name(), "."+filepath.Base(dir)) {
			out = append(out, n.Name())
		}
	}
	return out
}

func setFailpoint(t *testing.T, f func(stage string) error) {
	t.Helper()
	saved := failpoint
	failpoint = f
	t.Cleanup(func() { failpoint = saved })
}

// swapModes are the two ways Write swaps a new profile into place: one
// renameat2 RENAME_EXCHANGE where the system can, two renames elsewhere.
var swapModes = []string{"exchange", "renames"}

// setSwapMode makes Write swap with mode; "exchange" is skipped where the
// system cannot exchange directories.
func setSwapMode(t *testing.T, mode string) {
	t.Helper()
	saved := exchange
	t.Cleanup(func() { exchange = saved })
	switch mode {
	case "renames":
		exchange = func(a, b string) error { return errExchangeUnsupported }
	case "exchange":
		probe := t.TempDir()
		a, b := filepath.Join(probe, "a"), filepath.Join(probe, "b")
		if err := os.Mkdir(a, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(b, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := exchangeDirs(a, b); err != nil {
			suitereport.Skip(t, "file system features (profile)", fmt.Sprintf("directories cannot be exchanged here: %v", err))
		}
	}
}

// stagesOf leaves out the stages a swap mode does not pass: with an
// exchange there is no backup.
func stagesOf(mode string, stages []string) []string {
	var out []string
	for _, s := range stages {
		if mode == "exchange" && s == "backup" {
			continue
		}
		out = append(out, s)
	}
	return out
}

func failAt(stage string, err error) func(string) error {
	return func(s string) error {
		if s == stage {
			return err
		}
		return nil
	}
}

func mustWrite(t *testing.T, dir string, p Profile) {
	t.Helper()
	if err := Write(dir, p); err != nil {
		t.Fatal(err)
	}
}

func TestWriteModesAndSymlinks(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "result")
	mustWrite(t, dir, sample())
	got := snapshot(t, dir)
	manifest := got[ManifestName]
	delete(got, ManifestName)
	want := map[string]string{
		".":                                  "dir -rwxr-xr-x",
		"etc":                                "dir -rwxr-xr-x",
		"etc/empty":                          "file ---------- ",
		"etc/hostname":                       "file -rw-r--r-- node1\n",
		"etc/localtime":                      "symlink /usr/share/zoneinfo/UTC",
		"etc/nodegen":                        "dir -rwxr-xr-x",
		"etc/nodegen/scripts":                "dir -rwxr-xr-x",
		"etc/nodegen/scripts/kubelet-pre":    "file -rwxr-xr-x #!/bin/sh\nset -e\n",
		"etc/secret":                         "dir -rwxr-xr-x",
		"etc/secret/token":                   "file -rw------- s3cret",
		"etc/systemd":                        "dir -rwxr-xr-x",
		"etc/systemd/system":                 "dir -rwxr-xr-x",
		"etc/systemd/system/kubelet.service": "file -r--r--r-- [Service]\nExecStart=/usr/bin/kubelet\n",
		"etc/systemd/system/multi-user.target.wants":                 "dir -rwxr-xr-x",
		"etc/systemd/system/multi-user.target.wants/kubelet.service": "symlink /etc/systemd/system/kubelet.service",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
	// The profile holds secrets (etc/secret/token, etc/empty): the
	// manifest, which has their hashes, is its owner's only (issue 27).
	if !strings.HasPrefix(manifest, "file -rw------- {\n") {
		t.Errorf("manifest: %q", manifest)
	}
	if s := siblings(t, dir); len(s) != 0 {
		t.Errorf("left behind: %v", s)
	}
}

func TestWriteManifest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "result")
	mustWrite(t, dir, sample())
	data, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	// The golden text names the hashes; fill them in.
	want := sampleManifest
	want = strings.Replace(want, "HOSTNAME", sha256hex("node1\n"), 1)
	want = strings.Replace(want, "SCRIPT", sha256hex("#!/bin/sh\nset -e\n"), 1)
	want = strings.Replace(want, "TOKEN", sha256hex("s3cret"), 1)
	want = strings.Replace(want, "UNIT", sha256hex("[Service]\nExecStart=/usr/bin/kubelet\n"), 1)
	if diff := cmp.Diff(want, string(data)); diff != "" {
		t.Errorf("manifest (-want +got):\n%s", diff)
	}
	if m.Version != 1 || len(m.Entries) != 7 || !cmp.Equal(m.Warnings, []string{"alpha warning", "zeta warning"}) {
		t.Errorf("Read: %+v", m)
	}
}

func sha256hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestWriteDeterministic(t *testing.T) {
	base := t.TempDir()
	shuffled := func(seed int64) Profile {
		p := sample()
		r := rand.New(rand.NewSource(seed))
		r.Shuffle(len(p.Entries), func(i, j int) { p.Entries[i], p.Entries[j] = p.Entries[j], p.Entries[i] })
		r.Shuffle(len(p.Warnings), func(i, j int) { p.Warnings[i], p.Warnings[j] = p.Warnings[j], p.Warnings[i] })
		return p
	}
	a, b, c := filepath.Join(base, "a"), filepath.Join(base, "b"), filepath.Join(base, "c")
	mustWrite(t, a, shuffled(1))
	func() {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
		mustWrite(t, b, shuffled(2))
	}()
	// Replacing a profile gives the same tree as writing a fresh one.
	mustWrite(t, c, Profile{Entries: []Entry{{Target: "other", Content: []byte("x"), Mode: "0644"}}})
	mustWrite(t, c, shuffled(3))

	sa, sb, sc := snapshot(t, a), snapshot(t, b), snapshot(t, c)
	if diff := cmp.Diff(sa, sb); diff != "" {
		t.Errorf("two writes differ (-a +b):\n%s", diff)
	}
	if diff := cmp.Diff(sa, sc); diff != "" {
		t.Errorf("a fresh write and a replacement differ (-a +c):\n%s", diff)
	}
	ma, _ := os.ReadFile(filepath.Join(a, ManifestName))
	mb, _ := os.ReadFile(filepath.Join(b, ManifestName))
	if !bytes.Equal(ma, mb) || len(ma) == 0 {
		t.Error("manifests differ")
	}
}

func TestWriteValidation(t *testing.T) {
	ok := Entry{Target: "ok", Content: []byte("x"), Mode: "0644", Option: "good"}
	tests := []struct {
		name  string
		entry Entry
		want  string
	}{
		{"absolute", Entry{Target: "/etc/x", Mode: "0644", Option: "opt.abs"}, "absolute"},
		{"dotdot", Entry{Target: "a/../../x", Mode: "0644", Option: "opt.dotdot"}, "not clean"},
		{"leading dotdot", Entry{Target: "../x", Mode: "0644", Option: "opt.up"}, `".."`},
		{"dot", Entry{Target: ".", Mode: "0644", Option: "opt.dot"}, "not etc/ itself"},
		{"unclean", Entry{Target: "a//b", Mode: "0644", Option: "opt.unclean"}, "not clean"},
		{"trailing slash", Entry{Target: "a/", Mode: "0644", Option: "opt.slash"}, "not clean"},
		{"empty", Entry{Target: "", Mode: "0644", Option: "opt.empty"}, "empty"},
		{"control", Entry{Target: "a\nb", Mode: "0644", Option: "opt.nl"}, "control character"},
		{"newline quoted", Entry{Target: "a\nb", Mode: "0644", Option: "opt.nl"}, `profile entry "etc/a\nb"`},
		{"NUL quoted", Entry{Target: "a\x00b", Mode: "0644", Option: "opt.nul"}, `profile entry "etc/a\x00b"`},
		{"not UTF-8", Entry{Target: "a\xffb", Mode: "0644", Option: "opt.utf8"}, `"etc/a\xffb" (from opt.utf8): the target is not valid UTF-8`},
		{"long name", Entry{Target: "d/" + strings.Repeat("n", 256), Mode: "0644", Option: "opt.long"}, "is 256 bytes long; file systems allow at most 255"},
		{"long target", Entry{Target: strings.Repeat("d/", 2000) + "x", Mode: "0644", Option: "opt.longer"}, "the target is 4001 bytes long"},
		{"bad mode", Entry{Target: "x", Mode: "644x", Option: "opt.mode"}, `bad mode "644x"`},
		{"setuid", Entry{Target: "x", Mode: "4755", Option: "opt.suid"}, `bad mode "4755"`},
		{"no mode", Entry{Target: "x", Option: "opt.nomode"}, `bad mode ""`},
		{"relative link", Entry{Target: "x", Mode: "symlink", Link: "rel", Option: "opt.link"}, "absolute link target"},
		{"link with newline", Entry{Target: "x", Mode: "symlink", Link: "/a\nb", Option: "opt.linknl"}, `without control characters, not "/a\nb"`},
		{"link on file", Entry{Target: "x", Mode: "0644", Link: "/a", Option: "opt.fl"}, "only for mode"},
		{"content on link", Entry{Target: "x", Mode: "symlink", Link: "/a", Content: []byte("x"), Option: "opt.cl"}, "cannot have content"},
		{"bad user", Entry{Target: "x", Mode: "0644", User: "a b", Option: "opt.user"}, `bad user "a b"`},
		{"duplicate", Entry{Target: "ok", Mode: "0644", Option: "opt.dup"}, "also defined by"},
		{"below a file", Entry{Target: "ok/sub", Mode: "0644", Option: "opt.below"}, "is below etc/ok, which good makes a file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "result")
			err := Write(dir, Profile{Entries: []Entry{ok, tt.entry}})
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.entry.Option) {
				t.Errorf("error %q does not name the option %s or say %q", err, tt.entry.Option, tt.want)
			}
			if strings.ContainsAny(err.Error(), "\n\x00") {
				t.Errorf("error %q has a raw newline or NUL", err)
			}
			var ee *EntryError
			if !errors.As(err, &ee) {
				t.Errorf("error %T is not an *EntryError", err)
			}
			if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a failed validation wrote %s", dir)
			}
			if s := siblings(t, dir); len(s) != 0 {
				t.Errorf("left behind: %v", s)
			}
		})
	}
}

func TestWriteFailureKeepsOldProfile(t *testing.T) {
	newer := Profile{Entries: []Entry{
		{Target: "hostname", Content: []byte("node2\n"), Mode: "0644"},
		{Target: "zz/last", Content: []byte("z"), Mode: "0644"},
	}}
	for _, mode := range swapModes {
		for _, stage := range stagesOf(mode, []string{"entry hostname", "entry zz/last", "manifest", "swap", "backup"}) {
			t.Run(mode+"/"+stage, func(t *testing.T) {
				setSwapMode(t, mode)
				dir := filepath.Join(t.TempDir(), "result")
				mustWrite(t, dir, sample())
				before := snapshot(t, dir)
				setFailpoint(t, failAt(stage, errors.New("injected failure")))
				err := Write(dir, newer)
				if err == nil || !strings.Contains(err.Error(), "injected failure") {
					t.Fatalf("Write: %v, want the injected failure", err)
				}
				if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
					t.Errorf("the old profile changed (-before +after):\n%s", diff)
				}
				if s := siblings(t, dir); len(s) != 0 {
					t.Errorf("left behind: %v", s)
				}
			})
		}
	}
	t.Run("rename fails", func(t *testing.T) {
		setSwapMode(t, "renames")
		// The new tree cannot be renamed into place when the backup
		// rename put something at dir again: simulate by recreating dir.
		dir := filepath.Join(t.TempDir(), "result")
		mustWrite(t, dir, sample())
		before := snapshot(t, dir)
		setFailpoint(t, func(stage string) error {
			if stage == "backup" {
				// Make rename(new, dir) fail: a non-empty directory
				// there cannot be replaced.
				if err := os.MkdirAll(filepath.Join(dir, "blocker"), 0o755); err != nil {
					return err
				}
			}
			return nil
		})
		err := Write(dir, newer)
		if err == nil {
			t.Fatal("Write succeeded over a blocker")
		}
		// The blocker is in the way of restoring too; the old profile
		// must still be whole under its backup name, and the next Write
		// after removing the blocker recovers it.
		os.RemoveAll(dir)
		setFailpoint(t, failAt("swap", errors.New("stop before swap")))
		if err := Write(dir, newer); err == nil {
			t.Fatal("no injected failure")
		}
		if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
			t.Errorf("the old profile was not recovered (-before +after):\n%s", diff)
		}
	})
}

func TestWriteCrashRecovery(t *testing.T) {
	newer := Profile{Entries: []Entry{{Target: "hostname", Content: []byte("node2\n"), Mode: "0644"}}}
	for _, mode := range swapModes {
		for _, stage := range stagesOf(mode, []string{"entry hostname", "manifest", "swap", "backup", "installed"}) {
			t.Run(mode+"/"+stage, func(t *testing.T) {
				setSwapMode(t, mode)
				testCrashAt(t, stage, newer)
			})
		}
	}
}

// testCrashAt simulates a crash of Write at stage, then checks what a
// reader sees and that the next Write recovers.
func testCrashAt(t *testing.T, stage string, newer Profile) {
	dir := filepath.Join(t.TempDir(), "result")
	mustWrite(t, dir, sample())
	before := snapshot(t, dir)
	setFailpoint(t, failAt(stage, errCrash))
	if err := Write(dir, newer); !errors.Is(err, errCrash) {
		t.Fatalf("Write: %v, want the simulated crash", err)
	}
	setFailpoint(t, func(string) error { return nil })
	if len(siblings(t, dir)) == 0 {
		t.Fatal("the crash left nothing behind; the test does not test anything")
	}
	switch stage {
	case "installed":
		// The new profile was already in place.
		if m, err := Read(dir); err != nil || len(m.Entries) != 1 {
			t.Fatalf("Read after a crash past the swap: %v, %v", m, err)
		}
	case "backup":
		// The crash came between the two renames: dir is missing
		// until the next Write renames the backup back.
	default:
		// The leftover is never read as the profile.
		if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
			t.Errorf("the old profile changed (-before +after):\n%s", diff)
		}
		if m, err := Read(dir); err != nil || len(m.Entries) != 7 {
			t.Errorf("Read after a crash: %d entries, %v", len(m.Entries), err)
		}
	}

	// A failed Write after the crash recovers the old profile and
	// cleans up.
	if stage != "installed" {
		setFailpoint(t, failAt("swap", errors.New("stop before swap")))
		if err := Write(dir, newer); err == nil {
			t.Fatal("no injected failure")
		}
		setFailpoint(t, func(string) error { return nil })
		if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
			t.Errorf("the old profile was not recovered (-before +after):\n%s", diff)
		}
		if s := siblings(t, dir); len(s) != 0 {
			t.Errorf("left behind after the next Write: %v", s)
		}
	}

	// And a good Write replaces it.
	mustWrite(t, dir, newer)
	if s := siblings(t, dir); len(s) != 0 {
		t.Errorf("left behind after the next Write: %v", s)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "etc/hostname")); string(got) != "node2\n" {
		t.Errorf("hostname %q", got)
	}
}

// TestWriteLeavesOtherSiblings checks that Write touches no sibling it
// cannot prove it left: not one named like an older nodegen's temporary
// directories, nor one with its own names but neither its marker nor a
// profile inside.
func TestWriteLeavesOtherSiblings(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "result")
	id := strings.Repeat("0a1b", 4)
	others := []string{".result.tmp-x.old-1", ".result2.tmp-1", ".result.tmp-", "result.tmp-1", ".result.old-12a",
		".result.tmp-123", ".result.old-7", ".result.nodegen-new-" + id, ".result.nodegen-old-" + id,
		".result.nodegen-new-" + id + "0", ".result.nodegen-new-" + strings.ToUpper(id)}
	for _, o := range others {
		if err := os.Mkdir(filepath.Join(base, o), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(base, o, "notes.txt"), []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A marker naming another directory proves nothing.
	if err := os.WriteFile(filepath.Join(base, ".result.nodegen-new-"+id, markerName), markerContent("elsewhere"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Nor does a manifest that does not match the directory.
	if err := os.WriteFile(filepath.Join(base, ".result.nodegen-old-"+id, ManifestName), []byte(`{"version": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// Not even when the profile is missing: a non-profile is not a backup.
	mustWrite(t, dir, sample())
	names, _ := os.ReadDir(base)
	var got []string
	for _, n := range names {
		got = append(got, n.Name())
	}
	want := append([]string{"result"}, others...)
	sort.Strings(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("directory (-want +got):\n%s", diff)
	}
	for _, o := range others {
		if data, err := os.ReadFile(filepath.Join(base, o, "notes.txt")); string(data) != "mine" {
			t.Errorf("%s/notes.txt: %q, %v", o, data, err)
		}
	}
}

// TestWriteRemovesItsLeftovers checks that Write removes the siblings an
// interrupted Write provably left: empty, marked unfinished, or a whole
// profile.
func TestWriteRemovesItsLeftovers(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "result")
	mustWrite(t, dir, sample())
	empty := filepath.Join(base, ".result.nodegen-new-00000000000000aa")
	unfinished := filepath.Join(base, ".result.nodegen-new-00000000000000bb")
	whole := filepath.Join(base, ".result.nodegen-old-00000000000000cc")
	for _, d := range []string{empty, unfinished} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(unfinished, "etc", "half"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(unfinished, markerName), markerContent(unfinished), 0o644); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, whole, sample())
	mustWrite(t, dir, sample())
	if s := siblings(t, dir); len(s) != 0 {
		t.Errorf("left behind: %v", s)
	}
}

func TestWriteRefusesNonProfile(t *testing.T) {
	t.Run("non-empty directory", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "out")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "thesis.tex"), []byte("precious"), 0o644); err != nil {
			t.Fatal(err)
		}
		err := Write(dir, sample())
		if err == nil || !strings.Contains(err.Error(), "not a nodegen profile") || !strings.Contains(err.Error(), "refusing") {
			t.Fatalf("Write: %v", err)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "thesis.tex")); string(got) != "precious" {
			t.Error("the user's file is gone")
		}
		if s := siblings(t, dir); len(s) != 0 {
			t.Errorf("left behind: %v", s)
		}
	})
	// A directory with a manifest is not a profile unless the manifest
	// parses and matches the directory.
	userDir := func(manifest string) func(dir string) error {
		return func(dir string) error {
			os.RemoveAll(dir)
			if err := os.Mkdir(dir, 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, "thesis.tex"), []byte("precious"), 0o644); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, ManifestName), []byte(manifest), 0o644)
		}
	}
	for _, c := range []struct {
		name   string
		tamper func(dir string) error // of a profile
		want   string
	}{
		{"empty manifest", userDir(""), "unexpected end of JSON input"},
		{"manifest of another directory", userDir(`{"version": 1}`), "it has thesis.tex, which its manifest does not list"},
		{"file below etc", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "etc", "thesis.tex"), []byte("precious"), 0o644)
		}, "it has etc/thesis.tex, which its manifest does not list"},
		{"file changed", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "etc", "hostname"), []byte("my own hostname file"), 0o644)
		}, "etc/hostname has 20 bytes, its manifest says 6"},
		{"file missing", func(dir string) error {
			return os.Remove(filepath.Join(dir, "etc", "hostname"))
		}, "etc/hostname is missing"},
		{"symlink replaced", func(dir string) error {
			p := filepath.Join(dir, "etc", "localtime")
			if err := os.Remove(p); err != nil {
				return err
			}
			return os.Mkdir(p, 0o755)
		}, "directory etc/localtime, which its manifest does not list"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			mustWrite(t, dir, sample())
			if err := c.tamper(dir); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, dir)
			err := Write(dir, sample())
			if err == nil || !strings.Contains(err.Error(), "not a nodegen profile") || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Write: %v, want an error saying %q", err, c.want)
			}
			if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
				t.Errorf("the directory changed (-before +after):\n%s", diff)
			}
			if s := siblings(t, dir); len(s) != 0 {
				t.Errorf("left behind: %v", s)
			}
		})
	}
	t.Run("symlink", func(t *testing.T) {
		base := t.TempDir()
		target, link := filepath.Join(base, "real"), filepath.Join(base, "out")
		mustWrite(t, target, sample())
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		err := Write(link, sample())
		if err == nil || !strings.Contains(err.Error(), "is a symbolic link (to "+target+"); refusing") {
			t.Fatalf("Write: %v", err)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("the symlink is gone: %v", err)
		}
	})
	t.Run("file", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "out")
		if err := os.WriteFile(dir, []byte("precious"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := Write(dir, sample()); err == nil || !strings.Contains(err.Error(), "not a directory") {
			t.Fatalf("Write: %v", err)
		}
	})
	t.Run("empty directory", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "out")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		mustWrite(t, dir, sample())
		if _, err := Read(dir); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("nested new parent", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "a", "b", "result")
		mustWrite(t, dir, sample())
	})
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	if _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "not a nodegen profile") {
		t.Errorf("Read of a non-profile: %v", err)
	}
	for _, bad := range []string{
		`{"version": 2, "entries": [], "warnings": []}`,
		`{"version": 1, "entries": [{"path": "x", "type": "file", "sha256": "` + strings.Repeat("0", 64) + `", "size": 0}]}`,
		`{"version": 1, "entries": [{"path": "etc/x", "type": "fifo"}]}`,
		`{"version": 1, "entries": [{"path": "etc/x", "type": "symlink", "target": "relative"}]}`,
		`{"version": 1, "entries": [{"path": "etc/x", "type": "symlink", "target": "/a\nb"}]}`,
		`{"version": 1, "entries": [{"path": "etc/b", "type": "symlink", "target": "/b"}, {"path": "etc/a", "type": "symlink", "target": "/a"}]}`,
		`{"version": 1,`,
	} {
		if err := os.WriteFile(filepath.Join(dir, ManifestName), []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(dir); err == nil {
			t.Errorf("Read accepted %s", bad)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ManifestName), []byte(`{"version": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Read(dir)
	if err != nil || m.Entries == nil || m.Warnings == nil {
		t.Errorf("Read: %#v, %v", m, err)
	}
}
