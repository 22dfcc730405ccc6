package activate

import (
	"errors"
	"strings"
	"testing"

	"github.com/nodegen/nodegen/profile"
	"github.com/nodegen/nodegen/profilecheck"
)

// checked is a file with a check: grep must find "good" in it.
func checked(text string, programs ...string) profile.Entry {
	e := file("app.conf", text)
	e.Checks = []profilecheck.ProgramCheck{{Programs: programs, Script: `grep -q good "$1" || { echo "no good in $1"; exit 1; }`}}
	return e
}

// TestSwitchRunsChecks: a switch runs the checks of the profile's files
// by the programs that read them before anything changes (issue 27): a
// refused file, or a check whose program is missing, stops it with a
// *CheckError that says why, and /etc is untouched.
func TestSwitchRunsChecks(t *testing.T) {
	root := newRoot(t, nil)
	mustSwitch(t, root, writeProfile(t, checked("good\n", "/bin/grep")), SwitchOptions{})
	if got := readIn(t, root, "etc/app.conf"); got != "good\n" {
		t.Fatalf("etc/app.conf is %q", got)
	}
	before := listing(t, root, "etc")

	for _, tt := range []struct {
		name  string
		entry profile.Entry
		want  string
	}{
		{"refused", checked("bad\n", "/bin/grep"), "/etc/app.conf: the program that reads it refuses it: exit status 1 (from environment.etc.app.conf):\n  no good in /etc/app.conf"},
		{"program missing", checked("good again\n", "/nonexistent/checker"), "/etc/app.conf: the check cannot run here: /nonexistent/checker not installed (from environment.etc.app.conf)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Switch(writeProfile(t, tt.entry), SwitchOptions{}) })
			var ce *CheckError
			if !errors.As(err, &ce) {
				t.Fatalf("switch: %v, want a CheckError", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("the error does not say %q:\n%s", tt.want, err)
			}
			if after := listing(t, root, "etc"); len(after) != len(before) || after["etc/app.conf"] != before["etc/app.conf"] {
				t.Errorf("/etc changed:\n%v\n%v", before, after)
			}
			if st := readState(t, root); st.Generation != 1 {
				t.Errorf("generation %d is active, want 1", st.Generation)
			}
		})
	}

	// A dry run only logs a check whose program the switch would install.
	if _, err := run(t, root, nil, func(s *System) (*Result, error) {
		return s.Switch(writeProfile(t, checked("good again\n", "/nonexistent/checker")), SwitchOptions{DryRun: true})
	}); err != nil {
		t.Errorf("dry run: %v", err)
	}
}
