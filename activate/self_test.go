package activate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/profile"
)

// useFakeSelf makes the nodegen that switches keep a copy of a small
// script in place of the test binary (which holds every test's strings),
// and returns what removes it.
func useFakeSelf() func() {
	dir, err := os.MkdirTemp("", "nodegen-self-")
	if err != nil {
		panic(err)
	}
	exe := filepath.Join(dir, "nodegen")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\necho nodegen for the tests\n"), 0o755); err != nil {
		panic(err)
	}
	old := selfExecutable
	selfExecutable = func() (string, error) { return exe, nil }
	return func() {
		selfExecutable = old
		os.RemoveAll(dir)
	}
}

// withSelf makes the running nodegen the file at exe for one test.
func withSelf(t *testing.T, exe string) {
	old := selfExecutable
	selfExecutable = func() (string, error) { return exe, nil }
	t.Cleanup(func() { selfExecutable = old })
}

// TestSwitchKeepsACopyOfNodegen: every switch leaves the nodegen that ran
// it at var/lib/nodegen/bin/nodegen, by hash, executable; a newer nodegen
// replaces the link and the older copy; a dry run changes nothing.
func TestSwitchKeepsACopyOfNodegen(t *testing.T) {
	root := newRoot(t, nil)
	exe := filepath.Join(t.TempDir(), "nodegen-deployed")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\necho one\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	withSelf(t, exe)
	dir := writeProfile(t, file("motd", "hello\n"))
	if _, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Switch(dir, SwitchOptions{DryRun: true}) }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(root, selfDir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a dry run made %s: %v", selfDir, err)
	}
	copies := func() map[string]string {
		out := map[string]string{}
		for p, d := range listing(t, root, selfDir) {
			out[p] = d
		}
		return out
	}

	mustSwitch(t, root, dir, SwitchOptions{})
	first := copies()
	link := filepath.Join(root, selfLink)
	b, err := os.ReadFile(link)
	if err != nil || string(b) != "#!/bin/sh\necho one\n" {
		t.Fatalf("%s: %q, %v", selfLink, b, err)
	}
	if fi, err := os.Stat(link); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("%s: %v, %v", selfLink, fi.Mode(), err)
	}
	target, _ := os.Readlink(link)
	if !strings.HasPrefix(target, "nodegen-") || len(target) != len("nodegen-")+16 {
		t.Errorf("%s -> %s, want nodegen-HASH", selfLink, target)
	}

	// The same nodegen again: nothing changes.
	mustSwitch(t, root, writeProfile(t, file("motd", "hello again\n")), SwitchOptions{})
	if d := cmp.Diff(first, copies()); d != "" {
		t.Errorf("the same nodegen changed its copy (-before +after):\n%s", d)
	}

	// Another nodegen (a new deploy): its copy, and the old one gone.
	if err := os.WriteFile(exe, []byte("#!/bin/sh\necho two\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	mustSwitch(t, root, writeProfile(t, file("motd", "hello three\n")), SwitchOptions{})
	if b, err := os.ReadFile(link); err != nil || string(b) != "#!/bin/sh\necho two\n" {
		t.Errorf("after a new nodegen, %s: %q, %v", selfLink, b, err)
	}
	names, _ := os.ReadDir(filepath.Join(root, selfDir))
	if len(names) != 2 {
		t.Errorf("%s holds %v, want the link and one copy", selfDir, names)
	}
}

// TestImageProgramsChecked: a switch (and a dry run) refuses a profile
// whose image programs are not executables in the root, naming each,
// before anything changes; links are followed inside the root, absolute
// ones from it.
func TestImageProgramsChecked(t *testing.T) {
	root := newRoot(t, map[string]string{
		"usr/bin/present":  "#!/bin/sh\n",
		"usr/bin/plain":    "not executable\n",
		"opt/real/kubelet": "#!/bin/sh\n",
	})
	os.MkdirAll(filepath.Join(root, "etc/alternatives"), 0o755)
	os.Chmod(filepath.Join(root, "usr/bin/present"), 0o755)
	os.Chmod(filepath.Join(root, "opt/real/kubelet"), 0o755)
	os.Symlink("usr/bin", filepath.Join(root, "bin"))                          // merged /usr
	os.Symlink("/opt/real", filepath.Join(root, "opt/kubernetes"))             // absolute: from the root
	os.Symlink("/etc/alternatives/awk", filepath.Join(root, "usr/bin/awk"))    // to a dangling link
	os.Symlink("../../../../../../usr/bin/present", filepath.Join(root, "up")) // never above the root
	dir := filepath.Join(t.TempDir(), "profile")
	p := profile.Profile{
		Entries: []profile.Entry{file("motd", "hello\n")},
		ImagePrograms: []profile.ImageProgram{
			{Path: "/bin/present", Option: "systemd.services.a"},
			{Path: "/opt/kubernetes/kubelet", Option: "systemd.services.kubelet"},
			{Path: "/up", Option: "systemd.services.c"},
			{Path: "/usr/bin/awk", Option: "systemd.services.d"},
			{Path: "/usr/bin/missing", Option: "systemd.services.e"},
			{Path: "/usr/bin/plain", Option: "systemd.services.f"},
		},
	}
	if err := profile.Write(dir, p); err != nil {
		t.Fatal(err)
	}
	// (Opening the root makes var/lib/nodegen and its lock.)
	run(t, root, nil, func(s *System) (bool, error) { return true, nil })
	before := listing(t, root, ".")
	want := []MissingProgram{
		{profile.ImageProgram{Path: "/usr/bin/awk", Option: "systemd.services.d"}, "no such file"},
		{profile.ImageProgram{Path: "/usr/bin/missing", Option: "systemd.services.e"}, "no such file"},
		{profile.ImageProgram{Path: "/usr/bin/plain", Option: "systemd.services.f"}, "not executable (mode 0644)"},
	}
	for _, dry := range []bool{true, false} {
		_, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Switch(dir, SwitchOptions{DryRun: dry}) })
		var ie *ImageProgramsError
		if !errors.As(err, &ie) {
			t.Fatalf("dry run %v: %v, want an *ImageProgramsError", dry, err)
		}
		if d := cmp.Diff(want, ie.Missing); d != "" {
			t.Errorf("dry run %v: missing (-want +got):\n%s", dry, d)
		}
		if !strings.Contains(err.Error(), "3 program(s) that the profile leaves to the image are not on the system in ") || !strings.Contains(err.Error(), "/usr/bin/plain (run by systemd.services.f): not executable (mode 0644)") {
			t.Errorf("the message: %s", err)
		}
		if d := cmp.Diff(before, listing(t, root, ".")); d != "" {
			t.Errorf("dry run %v: the refused switch changed the root (-before +after):\n%s", dry, d)
		}
	}

	// With the programs there, it goes on.
	os.Chmod(filepath.Join(root, "usr/bin/plain"), 0o755)
	os.Remove(filepath.Join(root, "usr/bin/awk"))
	os.WriteFile(filepath.Join(root, "usr/bin/missing"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(root, "usr/bin/awk"), []byte("#!/bin/sh\n"), 0o755)
	mustSwitch(t, root, dir, SwitchOptions{})
}
