package switchtest

import (
	"strings"
	"testing"
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
