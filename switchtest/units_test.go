//go:build linux

package switchtest

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestUnitsConfirmedUp: a switch confirms every unit it starts is up: a
// timer whose service is nowhere makes it exit 1 naming the timer (eval
// warned about it), a oneshot that exits 0 is up, and a unit that had
// failed before the switch is listed.
func TestUnitsConfirmedUp(t *testing.T) {
	m := machine(t)
	// A unit of the system that failed before any switch.
	m.WriteFile("/etc/systemd/system/old.service", []byte("[Service]\nExecStart=/bin/false\n"), 0o644)
	m.MustRun("systemctl", "daemon-reload")
	m.Run("systemctl", "start", "old.service")
	good := `
config "networking" { hostName = "e2e" }
config "systemd.services.once" {
  wantedBy      = ["multi-user.target"]
  serviceConfig = { Type = "oneshot", ExecStart = "/bin/true" }
}
`
	out := mustNodegen(t, m, "switch", profileOf(t, m, "good", good))
	if !strings.Contains(out, "old.service") {
		t.Errorf("the unit that failed before the switch is not mentioned:\n%s", out)
	}
	if st := prop(t, m, "once.service", "Result"); st != "success" {
		t.Errorf("once.service: Result %s", st)
	}
	bad := good + `
config "systemd.services.backup" {
  serviceConfig = { Type = "oneshot", ExecStart = "/bin/true" }
}
config "systemd.timers.backups" {
  wantedBy    = ["timers.target"]
  timerConfig = { OnCalendar = "daily" }
}
`
	out, code := nodegen(t, m, "switch", profileOf(t, m, "bad", bad))
	if code != 1 || !strings.Contains(out, "backups.timer") {
		t.Errorf("switch with a timer of no service: exit %d\n%s", code, out)
	}
}

// TestUnitsThatRanAndExited: a unit that ran and exited successfully is
// a success whatever its Type= (a simple service that exits 0, started
// because a target that wants it was active already, as
// cfssl-online.service is), and so is a unit nothing wants that an admin
// started and that, changed, now exits 0 (systemd unloads it at once); a
// oneshot that never started because the unit it requires failed is a
// failure, named.
func TestUnitsThatRanAndExited(t *testing.T) {
	m := machine(t)
	base := `
config "networking" { hostName = "e2e" }
config "systemd.targets.app" {
  description = "Applications"
  wantedBy    = ["multi-user.target"]
}
`
	mustNodegen(t, m, "switch", profileOf(t, m, "one", base))
	if st := prop(t, m, "app.target", "ActiveState"); st != "active" {
		t.Fatalf("app.target is %s", st)
	}
	exits := base + `
config "systemd.services.quick" {
  wantedBy      = ["app.target"]
  serviceConfig = { ExecStart = "/bin/sh -c 'echo done'" }
}
config "systemd.services.once" {
  wantedBy      = ["multi-user.target"]
  serviceConfig = { Type = "oneshot", ExecStart = "/bin/true" }
}
`
	manual := func(run string) string {
		return fmt.Sprintf("config \"systemd.services.manual\" {\n  serviceConfig = { ExecStart = %q }\n}\n", run)
	}
	out := mustNodegen(t, m, "switch", profileOf(t, m, "two", exits+manual("/bin/sleep infinity")))
	m.MustRun("systemctl", "start", "manual.service")
	if strings.Contains(out, "failed") {
		t.Errorf("a unit that exited 0 is reported:\n%s", out)
	}
	if got := prop(t, m, "quick.service", "ActiveState") + " " + prop(t, m, "quick.service", "Result"); got != "inactive success" {
		t.Errorf("quick.service: %s, want inactive success (it ran and exited)", got)
	}
	needy := exits + `
config "systemd.services.dep" {
  serviceConfig = { Type = "oneshot", ExecStart = "/bin/false" }
}
config "systemd.services.needy" {
  wantedBy      = ["multi-user.target"]
  requires      = ["dep.service"]
  after         = ["dep.service"]
  serviceConfig = { Type = "oneshot", ExecStart = "/bin/true" }
}
`
	out, code := nodegen(t, m, "switch", profileOf(t, m, "three", needy+manual("/bin/sh -c 'echo bye'")))
	if code != 1 || !strings.Contains(out, "unit needy.service failed: inactive/dead: it did not start") {
		t.Errorf("a oneshot whose requirement failed: exit %d\n%s", code, out)
	}
	if !strings.Contains(out, "starting manual.service needy.service") || strings.Contains(out, "manual.service failed") {
		t.Errorf("manual.service, changed, was not started again or is reported:\n%s", out)
	}
}

// TestChangedScriptRestartsItsUnit: a unit whose preStart script changed
// (the unit file is the same) is restarted, and so is one whose
// restartTriggers changed; a unit of the same profile that changed in
// nothing keeps running; nodegen diff lists both as restarting.
func TestChangedScriptRestartsItsUnit(t *testing.T) {
	m := machine(t)
	host := func(v string) string {
		return fmt.Sprintf(`
config "networking" { hostName = "e2e" }
config "systemd.services.pre" {
  wantedBy      = ["multi-user.target"]
  preStart      = "echo prestart %[1]s"
  serviceConfig = { ExecStart = "/bin/sleep infinity" }
}
config "systemd.services.trig" {
  wantedBy        = ["multi-user.target"]
  restartTriggers = ["%[1]s"]
  serviceConfig   = { ExecStart = "/bin/sleep infinity" }
}
config "systemd.services.other" {
  wantedBy      = ["multi-user.target"]
  serviceConfig = { ExecStart = "/bin/sleep infinity" }
}
`, v)
	}
	one, two := profileOf(t, m, "one", host("1")), profileOf(t, m, "two", host("2"))
	mustNodegen(t, m, "switch", one)
	ids := map[string]string{}
	for _, u := range []string{"pre.service", "trig.service", "other.service"} {
		ids[u] = prop(t, m, u, "InvocationID")
	}
	if a, b := m.MustRun("cat", one+"/etc/systemd/system/pre.service"), m.MustRun("cat", two+"/etc/systemd/system/pre.service"); a != b {
		t.Fatalf("pre.service's unit file differs between the generations; the test needs it the same:\n%s\n%s", a, b)
	}
	diff := mustNodegen(t, m, "diff", one, two)
	if !strings.Contains(diff, "  restart: pre.service trig.service\n") {
		t.Errorf("nodegen diff does not restart pre.service and trig.service:\n%s", diff)
	}
	out := mustNodegen(t, m, "switch", two)
	for u, before := range ids {
		now := prop(t, m, u, "InvocationID")
		if restarted := now != before; restarted != (u != "other.service") {
			t.Errorf("%s: invocation %s -> %s (restarted %v)\n%s", u, before, now, restarted, out)
		}
		if st := prop(t, m, u, "ActiveState"); st != "active" {
			t.Errorf("%s is %s", u, st)
		}
	}
	if j := m.Journal("pre.service", 20); !strings.Contains(j, "prestart 2") {
		t.Errorf("pre.service did not run its new preStart:\n%s", j)
	}
}

// TestRemovedFailedUnitIsReset: a failed unit that the new generation
// removes leaves systemctl --failed; a failed unit of the system's own
// stays there.
func TestRemovedFailedUnitIsReset(t *testing.T) {
	m := machine(t)
	m.WriteFile("/etc/systemd/system/admins.service", []byte("[Service]\nType=oneshot\nExecStart=/bin/false\n"), 0o644)
	m.MustRun("systemctl", "daemon-reload")
	m.Run("systemctl", "start", "admins.service")
	with := `
config "networking" { hostName = "e2e" }
config "systemd.services.flaky" {
  serviceConfig = { Type = "oneshot", ExecStart = "/bin/false" }
}
`
	mustNodegen(t, m, "switch", profileOf(t, m, "with", with))
	m.Run("systemctl", "start", "flaky.service")
	if failed := m.MustRun("systemctl", "--failed", "--plain", "--no-legend"); !strings.Contains(failed, "flaky.service") {
		t.Fatalf("flaky.service did not fail:\n%s", failed)
	}
	out := mustNodegen(t, m, "switch", profileOf(t, m, "without", `config "networking" { hostName = "e2e" }`))
	if !strings.Contains(out, "reset-failed: flaky.service") {
		t.Errorf("the plan does not say flaky.service is reset:\n%s", out)
	}
	failed := m.MustRun("systemctl", "--failed", "--plain", "--no-legend")
	if strings.Contains(failed, "flaky.service") || !strings.Contains(failed, "admins.service") {
		t.Errorf("systemctl --failed after the switch:\n%s", failed)
	}
}

// TestRollbackSkipsFailedGenerations: a generation whose unit failed and
// that was rolled back is marked by generations; rollback goes past it to
// the newest good one, and rollback --to chooses it all the same (or
// refuses a generation that does not exist).
func TestRollbackSkipsFailedGenerations(t *testing.T) {
	m := machine(t)
	web := func(v string) string {
		return fmt.Sprintf(`
config "networking" { hostName = "e2e" }
config "systemd.services.web" {
  wantedBy      = ["multi-user.target"]
  environment   = { V = "%s" }
  serviceConfig = { ExecStart = "/bin/sleep infinity" }
}
`, v)
	}
	mustNodegen(t, m, "switch", profileOf(t, m, "one", web("1")))
	out, code := nodegen(t, m, "switch", "--rollback-on-failure", profileOf(t, m, "two", web("2")+broken))
	if code != 1 || !strings.Contains(out, "rolled back: generation 1 is active again") {
		t.Fatalf("switch to a broken generation: exit %d\n%s", code, out)
	}
	mustNodegen(t, m, "switch", profileOf(t, m, "three", web("3")))
	gens := mustNodegen(t, m, "generations")
	if !regexp.MustCompile(`(?m)^2 .* rolled back$`).MatchString(gens) || !strings.Contains(gens, "generation 2 rolled back (") || !strings.Contains(gens, "units did not come up: broken.service") {
		t.Errorf("generations does not mark generation 2:\n%s", gens)
	}
	if js := mustNodegen(t, m, "generations", "--json"); !strings.Contains(js, `"kind": "rolled-back"`) {
		t.Errorf("generations --json has no mark:\n%s", js)
	}
	out = mustNodegen(t, m, "rollback")
	if !strings.Contains(out, "activate generation 1 (active now: generation 3)") || prop(t, m, "web.service", "Environment") != "V=1" {
		t.Errorf("rollback from 3 did not go to 1 (web: %s):\n%s", prop(t, m, "web.service", "Environment"), out)
	}
	if out, code := nodegen(t, m, "rollback", "--to", "7"); code != 1 || !strings.Contains(out, "there is no generation 7") {
		t.Errorf("rollback --to 7: exit %d\n%s", code, out)
	}
	out, code = nodegen(t, m, "rollback", "--to", "2")
	if code != 1 || !strings.Contains(out, "activating it as asked") || !strings.Contains(out, "unit broken.service failed") {
		t.Errorf("rollback --to 2: exit %d\n%s", code, out)
	}
	if gens := mustNodegen(t, m, "generations"); !regexp.MustCompile(`(?m)^2 .* failed +\*$`).MatchString(gens) {
		t.Errorf("generation 2, active with a failed unit, is not marked failed:\n%s", gens)
	}
	if status := mustNodegen(t, m, "status"); !strings.Contains(status, "  its last activation: generation 2 failed (") {
		t.Errorf("status does not say the active generation failed:\n%s", status)
	}
}

// TestRestartedUnitThatKeepsExiting: a service restarted with a setting
// its program refuses exits at once, and Restart= runs it again and
// again, active at any one moment: the switch counts it failed ("it keeps
// exiting and being restarted") and, with --rollback-on-failure, goes
// back to the generation before, whose service then keeps running; a
// service that comes up after a few tries (what it needs answers late)
// is up.
func TestRestartedUnitThatKeepsExiting(t *testing.T) {
	m := machine(t)
	host := func(run string) string {
		return fmt.Sprintf(`
config "networking" { hostName = "e2e" }
config "systemd.services.picky" {
  wantedBy      = ["multi-user.target"]
  # No start limit: it is restarted for as long as it exits.
  unitConfig    = { StartLimitIntervalSec = 0 }
  serviceConfig = { ExecStart = %q, Restart = "on-failure", RestartSec = "200ms" }
}
`, run)
	}
	good := profileOf(t, m, "good", host("/bin/sleep infinity"))
	mustNodegen(t, m, "switch", good)
	refused := profileOf(t, m, "refused", host("/bin/sh -c 'sleep 0.3; exit 1'"))
	out, code := nodegen(t, m, "switch", "--rollback-on-failure", "--timeout", "8s", refused)
	for _, want := range []string{"picky.service", "it keeps exiting and being restarted", "generation 1 is active again"} {
		if code != 1 || !strings.Contains(out, want) {
			t.Errorf("switch to a service that keeps exiting: exit %d, want 1 and %q\n%s", code, want, out)
		}
	}
	if gen := prop(t, m, "picky.service", "ExecStart"); !strings.Contains(gen, "/bin/sleep") {
		t.Errorf("picky.service runs %s after the rollback", gen)
	}
	id := prop(t, m, "picky.service", "InvocationID")
	time.Sleep(time.Second)
	if st, now := prop(t, m, "picky.service", "ActiveState"), prop(t, m, "picky.service", "InvocationID"); st != "active" || now != id {
		t.Errorf("picky.service after the rollback: %s, invocation %s then %s", st, id, now)
	}

	// Up on its third run: the restarts of a service that waits for what
	// it needs are no failure.
	m.MustRun("rm", "-f", "/run/picky-runs")
	late := profileOf(t, m, "late", host(`/bin/sh -c 'echo >> /run/picky-runs; [ $(wc -l < /run/picky-runs) -ge 3 ] || exit 1; exec sleep infinity'`))
	out = mustNodegen(t, m, "switch", "--timeout", "20s", late)
	if runs := strings.TrimSpace(m.MustRun("sh", "-c", "wc -l < /run/picky-runs")); runs != "3" {
		t.Errorf("picky.service ran %s times, want 3\n%s", runs, out)
	}
}
