package activate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nodegen/nodegen/profile"
)

// TestFileAppearingBeforeTheRenameIsKept writes the admin's file at a
// path in the window between the place step's last look at it and the
// rename over it (the failpoint "commit:PATH", where strace's delay put
// it in r2-residual-window.sh): the switch fails naming the file, which
// is kept as the admin wrote it, and no temporary file is left.
func TestFileAppearingBeforeTheRenameIsKept(t *testing.T) {
	tests := []struct {
		name     string
		one, two []string // entries "path=text" or "path->target" of the two profiles; one may be nil
		at       string   // the path the admin writes in the window
	}{
		{
			name: "nothing there at the check",
			two:  []string{"hostname=h\n", "chrony/chrony.conf=server ntp.example\n"},
			at:   "etc/chrony/chrony.conf",
		},
		{
			name: "nodegen's link there at the check",
			one:  []string{"hostname=h\n", "app->/srv/one"},
			two:  []string{"hostname=h\n", "app->/srv/two"},
			at:   "etc/app",
		},
		{
			name: "nodegen's file there at the check",
			one:  []string{"hostname=h\n", "copy secret=one\n"},
			two:  []string{"hostname=h\n", "copy secret=two\n"},
			at:   "etc/secret",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := newRoot(t, nil)
			if tt.one != nil {
				mustSwitch(t, root, entriesProfile(t, tt.one), SwitchOptions{})
			}
			const admin = "DISTRIBUTION CONFFILE\n"
			adminWritesAt(t, "commit:"+tt.at, root, tt.at, admin)
			_, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Switch(entriesProfile(t, tt.two), SwitchOptions{}) })
			if err == nil || !strings.Contains(err.Error(), "/"+tt.at+": a file appeared there after the check; it was left as it is") {
				t.Fatalf("switch: %v, want it to name the file that appeared", err)
			}
			checkAdminFile(t, root, tt.at, admin)
		})
	}
}

// entriesProfile writes a profile of entries "path=text" (a file, linked
// from /etc/static), "copy path=text" (a 0600 file, which is copied) or
// "path->target" (a symlink).
func entriesProfile(t *testing.T, specs []string) string {
	t.Helper()
	var es []profile.Entry
	for _, sp := range specs {
		if p, target, ok := strings.Cut(sp, "->"); ok {
			es = append(es, link(p, target))
			continue
		}
		p, text, _ := strings.Cut(sp, "=")
		if c, ok := strings.CutPrefix(p, "copy "); ok {
			e := file(c, text)
			e.Mode = "0600"
			es = append(es, e)
			continue
		}
		es = append(es, file(p, text))
	}
	return writeProfile(t, es...)
}

// TestFileAppearingBeforeTheRemovalIsKept replaces an entry that the
// switch removes (the profile no longer has it) with the admin's file in
// the window between the remove step's look at it and the removal (the
// failpoint "remove:PATH"): the switch completes and leaves the file.
func TestFileAppearingBeforeTheRemovalIsKept(t *testing.T) {
	for _, tt := range []struct {
		name string
		one  []string
		at   string
	}{
		{"nodegen's link", []string{"hostname=h\n", "app->/srv/one"}, "etc/app"},
		{"nodegen's copy", []string{"hostname=h\n", "copy secret=one\n"}, "etc/secret"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := newRoot(t, nil)
			mustSwitch(t, root, entriesProfile(t, tt.one), SwitchOptions{})
			const admin = "THE ADMIN'S\n"
			hit := adminWritesAt(t, "remove:"+tt.at, root, tt.at, admin)
			mustSwitch(t, root, entriesProfile(t, []string{"hostname=h\n"}), SwitchOptions{})
			if !*hit {
				t.Fatalf("the switch did not remove %s", tt.at)
			}
			checkAdminFile(t, root, tt.at, admin)
		})
	}
}

// adminWritesAt makes the failpoint stage, once, replace what is at rel
// below root with a file of text, as an admin would in that window; the
// flag it returns says whether it did.
func adminWritesAt(t *testing.T, stage, root, rel, text string) *bool {
	t.Helper()
	hit := new(bool)
	old := failpoint
	failpoint = func(s string) error {
		if s != stage || *hit {
			return old(s)
		}
		*hit = true
		if err := os.Remove(filepath.Join(root, rel)); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return nil
	}
	t.Cleanup(func() { failpoint = old })
	return hit
}

// checkAdminFile checks that rel below root is the admin's regular file
// of text, and that no temporary file is left.
func checkAdminFile(t *testing.T, root, rel, text string) {
	t.Helper()
	fi, err := os.Lstat(filepath.Join(root, rel))
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("%s after the switch: %v %v, want the admin's file", rel, fi, err)
	}
	if got := readIn(t, root, rel); got != text {
		t.Errorf("%s = %q, want the admin's %q", rel, got, text)
	}
	if left := tempFiles(t, root); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestFileAppearingBeforeTheRestoreIsKept: deactivate puts back the
// admin's file that a switch with --backup moved aside; a file written
// at that path between the restore step's check and the rename (the
// failpoint "restore:PATH") is not replaced, and the file moved aside
// stays in the backups.
func TestFileAppearingBeforeTheRestoreIsKept(t *testing.T) {
	root := newRoot(t, map[string]string{"etc/motd": "the first admin's\n"})
	mustSwitch(t, root, entriesProfile(t, []string{"hostname=h\n", "motd=nodegen's\n"}), SwitchOptions{Backup: true})
	const admin = "THE ADMIN'S\n"
	hit := adminWritesAt(t, "restore:etc/motd", root, "etc/motd", admin)
	_, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Deactivate(SwitchOptions{}) })
	if !*hit {
		t.Fatal("deactivate did not restore etc/motd")
	}
	if err == nil || !strings.Contains(err.Error(), "/etc/motd: something appeared there after the check; nodegen keeps the file it moved aside at ") {
		t.Fatalf("deactivate: %v, want it to name the file that appeared", err)
	}
	checkAdminFile(t, root, "etc/motd", admin)
	if got := readIn(t, root, backupDir+"/etc/motd"); got != "the first admin's\n" {
		t.Errorf("the backup holds %q", got)
	}
}
