//go:build linux

package switchtest

import (
	"strings"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/nspawntest"
)

// confirmToken is the token of the tests' confirmed switches; it is
// passed in a root-only file, never in argv.
const confirmToken = "0123456789abcdef-switchtest"

// writeToken writes the token into the machine at /root/token, mode 0600.
func writeToken(m *nspawntest.Machine) string {
	m.WriteFile("/root/token", []byte(confirmToken+"\n"), 0o600)
	return "/root/token"
}

// current is the generation the machine's /var/lib/nodegen/current names.
func current(t *testing.T, m *nspawntest.Machine) string {
	t.Helper()
	return strings.TrimSpace(m.MustRun("readlink", "/var/lib/nodegen/current"))
}

// waitingMachine boots a machine from a root of its own (dir, which a
// new Boot starts again), switches it to generation 1, then to generation
// 2 with a confirmation that waits for timeout, and returns the second
// switch's output.
func waitingMachine(t *testing.T, timeout string) (m *nspawntest.Machine, dir, out string) {
	t.Helper()
	bin := nspawntest.BuildStatic(t, "./cmd/nodegen")
	dir = nspawntest.CopyRoot(t, nspawntest.Root{})
	m = nspawntest.Boot(t, nspawntest.Options{Dir: dir})
	m.CopyFile(bin, "/usr/local/bin/nodegen", 0o755)
	one := profileOf(t, m, "one", `config "networking" { hostName = "one" }`)
	two := profileOf(t, m, "two", `config "networking" { hostName = "two" }`)
	mustNodegen(t, m, "switch", one)
	out = mustNodegen(t, m, "switch", "--confirm-token-file", writeToken(m), "--confirm-timeout", timeout, two)
	return m, dir, out
}

// TestConfirmationSurvivesReboot (issue 36, N2): a generation that waits
// for its confirmation when the host powers off, and whose deadline
// passes while it is down, is rolled back at the next boot by
// nodegen-confirm.service, marked, and the boot unit removed.
func TestConfirmationSurvivesReboot(t *testing.T) {
	m, dir, out := waitingMachine(t, "10s")
	if !strings.Contains(out, "waiting for confirmation: generation 2") {
		t.Fatalf("the confirmed switch does not wait:\n%s", out)
	}
	if _, _, code, _ := m.Run("test", "-L", "/etc/systemd/system.control/multi-user.target.wants/nodegen-confirm.service"); code != 0 {
		t.Errorf("multi-user.target does not want nodegen-confirm.service while generation 2 waits")
	}
	m.PowerOff()
	time.Sleep(12 * time.Second) // the deadline passes while the host is down

	m = nspawntest.Boot(t, nspawntest.Options{Dir: dir})
	var gen string
	for i := 0; i < 600; i++ {
		if gen = current(t, m); gen == "generations/1" {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if gen != "generations/1" {
		t.Fatalf("after the reboot past the deadline, %s is active, want generations/1\n%s", gen, m.Journal("nodegen-confirm.service", 40))
	}
	// The unit's run ends once the rollback is recorded.
	for i := 0; i < 300 && strings.TrimSpace(prop(t, m, "nodegen-confirm.service", "ActiveState")) == "active"; i++ {
		time.Sleep(100 * time.Millisecond)
	}
	if r := prop(t, m, "nodegen-confirm.service", "Result"); r != "success" {
		t.Errorf("nodegen-confirm.service: Result %s\n%s", r, m.Journal("nodegen-confirm.service", 40))
	}
	if out := mustNodegen(t, m, "generations"); !strings.Contains(out, "rolled back") {
		t.Errorf("generation 2 is not marked rolled back:\n%s", out)
	}
	if out := mustNodegen(t, m, "confirm", "--show"); !strings.Contains(out, `"state": "rolled-back"`) {
		t.Errorf("the confirmation after the boot:\n%s", out)
	}
	if _, _, code, _ := m.Run("test", "-e", "/etc/systemd/system.control/nodegen-confirm.service"); code == 0 {
		t.Errorf("the boot unit stays after the rollback")
	}
}

// TestConfirmationArmedAgainAtBoot: a reboot before the deadline arms the
// timer again for the rest of the wait, and the token still confirms.
func TestConfirmationArmedAgainAtBoot(t *testing.T) {
	m, dir, _ := waitingMachine(t, "10m")
	m.PowerOff()

	m = nspawntest.Boot(t, nspawntest.Options{Dir: dir})
	var timers string
	for i := 0; i < 300; i++ {
		if timers = m.MustRun("systemctl", "list-timers", "--all", "--no-legend", "nodegen-rollback-*"); strings.Contains(timers, "nodegen-rollback-2-") {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !strings.Contains(timers, "nodegen-rollback-2-") {
		t.Fatalf("no rollback timer after the boot:\n%s\n%s", timers, m.Journal("nodegen-confirm.service", 40))
	}
	if gen := current(t, m); gen != "generations/2" {
		t.Errorf("before the deadline, %s is active, want generations/2", gen)
	}
	mustNodegen(t, m, "confirm", "--show")
	if out, code := nodegen(t, m, "confirm", "2", confirmToken); code != 0 {
		t.Fatalf("confirming after the boot: exit %d\n%s", code, out)
	}
	if timers := m.MustRun("systemctl", "list-timers", "--all", "--no-legend", "nodegen-rollback-*"); strings.Contains(timers, "nodegen-rollback-") {
		t.Errorf("a rollback timer stays after the confirmation:\n%s", timers)
	}
}

// serviceProfiles makes two profiles in the machine whose service NAME
// runs sleep with the environment V=1 and V=2, and the option lines extra.
func serviceProfiles(t *testing.T, m *nspawntest.Machine, name, extra string) (one, two string) {
	t.Helper()
	prof := func(v string) string {
		return profileOf(t, m, name+v, `
config "networking" { hostName = "`+name+v+`" }
config "systemd.services.`+name+`" {
  wantedBy    = ["multi-user.target"]
  environment = { V = "`+v+`" }
  script      = "exec sleep infinity"
  `+extra+`
}
`)
	}
	return prof("1"), prof("2")
}

// TestTimerRollbackDoesNotWaitForItself (issue 36, N3): the timer's
// rollback restarts a unit and is done within seconds, not after the job
// timeout its own start job would make it wait; the first timer, armed
// for the activation, is stopped once the generation waits.
func TestTimerRollbackDoesNotWaitForItself(t *testing.T) {
	m := machine(t)
	g1, g2 := serviceProfiles(t, m, "web", "")
	mustNodegen(t, m, "switch", g1)
	out := mustNodegen(t, m, "switch", "--timeout", "60s", "--confirm-token-file", writeToken(m), "--confirm-timeout", "3s", g2)
	if !strings.Contains(out, "waiting for confirmation: generation 2") {
		t.Fatalf("the confirmed switch does not wait:\n%s", out)
	}
	if timers := m.MustRun("systemctl", "list-timers", "--all", "--no-legend", "nodegen-rollback-*"); strings.Count(timers, ".timer") != 1 || !strings.Contains(timers, "-2.timer") {
		t.Errorf("want only the confirmation's timer, the activation's stopped:\n%s", timers)
	}
	start := time.Now()
	var took time.Duration
	for time.Since(start) < 60*time.Second {
		_, _, journal, _ := m.Run("test", "-e", "/var/lib/nodegen/journal.json")
		if current(t, m) == "generations/1" && journal != 0 {
			took = time.Since(start)
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if took == 0 || took > 20*time.Second {
		t.Fatalf("the timer's rollback took %s (0: not within 60 s) from the switch's end; the deadline was 3 s", took)
	}
	t.Logf("the timer's rollback was done %s after the switch ended (deadline 3 s)", took.Round(100*time.Millisecond))
	if v := prop(t, m, "web.service", "Environment"); !strings.Contains(v, "V=1") {
		t.Errorf("web.service after the rollback: Environment %q", v)
	}
}

// TestKilledRollbackIsRetried: the timer's rollback, killed while it
// restarts a slow unit, runs again and ends with generation 1 active and
// generation 2 marked.
func TestKilledRollbackIsRetried(t *testing.T) {
	m := machine(t)
	s1, s2 := serviceProfiles(t, m, "slow", `serviceConfig = { ExecStartPre = "/bin/sleep 4" }`)
	mustNodegen(t, m, "switch", s1)
	mustNodegen(t, m, "switch", "--confirm-token-file", writeToken(m), "--confirm-timeout", "2s", s2)
	// The timer fires; its rollback waits for slow.service's restart.
	var unit string
	for i := 0; i < 200 && unit == ""; i++ {
		out := m.MustRun("systemctl", "list-units", "--no-legend", "--plain", "--state=active", "nodegen-rollback-*.service")
		if f := strings.Fields(out); len(f) > 0 {
			unit = f[0]
		}
		time.Sleep(50 * time.Millisecond)
	}
	if unit == "" {
		t.Fatal("the rollback timer's service did not run")
	}
	time.Sleep(time.Second)
	m.MustRun("systemctl", "kill", "--signal=KILL", unit)
	var gen string
	for i := 0; i < 300; i++ {
		_, _, journal, _ := m.Run("test", "-e", "/var/lib/nodegen/journal.json")
		if gen = current(t, m); gen == "generations/1" && journal != 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if gen != "generations/1" {
		t.Fatalf("after the killed rollback, %s is active, want generations/1\n%s", gen, m.Journal(unit, 40))
	}
	// Only a second run writes the state: the killed one died before.
	rolledBack := false
	for i := 0; i < 100 && !rolledBack; i++ {
		rolledBack = strings.Contains(m.MustRun("nodegen", "confirm", "--show"), `"state": "rolled-back"`)
		time.Sleep(100 * time.Millisecond)
	}
	if !rolledBack {
		t.Errorf("the confirmation does not say rolled back: the killed run was not retried\n%s", m.Journal(unit, 40))
	}
	if out := mustNodegen(t, m, "generations"); !strings.Contains(out, "rolled back") {
		t.Errorf("generation 2 is not marked rolled back:\n%s", out)
	}
	if v := prop(t, m, "slow.service", "Environment"); !strings.Contains(v, "V=1") {
		t.Errorf("slow.service after the rollback: Environment %q", v)
	}
}
