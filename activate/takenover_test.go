package activate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTakeOversNeverOverwriteEachOther (N15): take-overs of one path in
// the same second (the tests' clock stands still, as SOURCE_DATE_EPOCH
// does) each keep their file in a directory of their own.
func TestTakeOversNeverOverwriteEachOther(t *testing.T) {
	root := newRoot(t, nil)
	dir := writeProfile(t, exe("app/run", "nodegen's\n"))
	mustSwitch(t, root, dir, SwitchOptions{})
	var dirs []string
	for _, edit := range []string{"the first edit\n", "the second edit\n", "the third edit\n"} {
		if err := os.WriteFile(filepath.Join(root, "etc/app/run"), []byte(edit), 0o755); err != nil {
			t.Fatal(err)
		}
		res := mustSwitch(t, root, dir, SwitchOptions{TakeOver: []string{"/etc/app/run"}})
		dirs = append(dirs, res.Plan.TakenOverTo)
	}
	want := []string{takenOverDir + "/20261123T120000Z", takenOverDir + "/20261123T120000Z.2", takenOverDir + "/20261123T120000Z.3"}
	if d := cmp.Diff(want, dirs); d != "" {
		t.Errorf("take-over directories (-want +got):\n%s", d)
	}
	kept := map[string]string{}
	for _, d := range dirs {
		kept[d] = readIn(t, root, filepath.Join(d, "etc/app/run"))
	}
	if d := cmp.Diff(map[string]string{want[0]: "the first edit\n", want[1]: "the second edit\n", want[2]: "the third edit\n"}, kept); d != "" {
		t.Errorf("kept files (-want +got):\n%s", d)
	}
}

// TestMoveAsideNeverOverwrites: a file is never moved aside over one kept
// from earlier (a take-over directory or backup that is there already).
func TestMoveAsideNeverOverwrites(t *testing.T) {
	root := newRoot(t, map[string]string{"etc/motd": "now\n", backupDir + "/etc/motd": "kept from earlier\n"})
	s := open(t, root, nil)
	defer s.Close()
	if err := s.moveAside("etc/motd", backupPath("etc/motd")); err == nil {
		t.Error("moved over a kept file")
	}
	if got := readIn(t, root, backupPath("etc/motd")); got != "kept from earlier\n" {
		t.Errorf("the kept file: %q", got)
	}
	if got := readIn(t, root, "etc/motd"); got != "now\n" {
		t.Errorf("the file: %q", got)
	}
}
