//go:build linux

package switchtest

import (
	"strings"
	"testing"
)

// TestFailedStepRollsBackUnits: on a real systemd, a profile whose
// tmpfiles.d rule names a user nobody creates is refused before any unit
// is stopped; one whose rule fails when systemd-tmpfiles runs (after the
// units were stopped and the files changed) is rolled back: generation 1's
// files, its units running again, exit 1 naming the step, no journal; and
// the next switch works.
func TestFailedStepRollsBackUnits(t *testing.T) {
	m := machine(t)
	mustNodegen(t, m, "switch", profileOf(t, m, "gen1", gen1))
	webPID := prop(t, m, "web.service", "MainPID")

	noUser := profileOf(t, m, "nouser", gen2, `config "systemd.tmpfiles" { rules = ["d /var/lib/myapp 0750 myapp myapp -"] }`)
	out, code := nodegen(t, m, "switch", noUser)
	if code != 1 || !strings.Contains(out, `user "myapp"`) || !strings.Contains(out, "nothing was changed") {
		t.Errorf("switch with an unknown tmpfiles owner: exit %d\n%s", code, out)
	}
	if pid := prop(t, m, "web.service", "MainPID"); pid != webPID {
		t.Errorf("web.service was restarted by a refused switch: MainPID %s, before %s", pid, webPID)
	}

	m.WriteFile("/root/blocker", []byte("a file, not a directory\n"), 0o644)
	blocked := profileOf(t, m, "blocked", gen2, `config "systemd.tmpfiles" { rules = ["f /root/blocker/sub 0644 root root - x"] }`)
	out, code = nodegen(t, m, "switch", blocked)
	for _, want := range []string{"failed at step tmpfiles", "systemd-tmpfiles", "rolled back: generation 1 is active again"} {
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("switch with a failing tmpfiles rule: exit %d, want 1 and %q\n%s", code, want, out)
		}
	}
	if got := m.MustRun("cat", "/etc/app/config"); got != "gen 1" {
		t.Errorf("/etc/app/config after the rollback: %q", got)
	}
	for _, unit := range []string{"web.service", "reloader.service", "doomed.service"} {
		if st := prop(t, m, unit, "ActiveState"); st != "active" {
			t.Errorf("%s is %s after the rollback, want active", unit, st)
		}
	}
	if env := prop(t, m, "web.service", "Environment"); !strings.Contains(env, "GEN=1") {
		t.Errorf("web.service runs with %q after the rollback", env)
	}
	if _, _, code, _ := m.Run("test", "-e", "/var/lib/nodegen/journal.json"); code == 0 {
		t.Error("the journal is left")
	}
	if gens := mustNodegen(t, m, "generations"); !strings.Contains(gens, "failed at step tmpfiles") {
		t.Errorf("generations does not say what happened:\n%s", gens)
	}

	m.MustRun("rm", "/root/blocker")
	out = mustNodegen(t, m, "switch", blocked)
	if !strings.Contains(out, "generation 3 is active") {
		t.Errorf("switch after the fix:\n%s", out)
	}
	if env := prop(t, m, "web.service", "Environment"); !strings.Contains(env, "GEN=2") {
		t.Errorf("web.service runs with %q", env)
	}
}
