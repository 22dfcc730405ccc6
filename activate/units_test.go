package activate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestJudgeUnits: a unit is judged as systemd judges it: one that ran
// since its job was queued and ended with Result=success is up, whatever
// its Type=; one that never started, failed, or keeps restarting is not.
func TestJudgeUnits(t *testing.T) {
	for _, tc := range []struct {
		name   string
		st     UnitStatus
		before string
		up     bool
		why    string
	}{
		{"a running service", UnitStatus{ActiveState: "active", SubState: "running", Result: "success", InvocationID: "b"}, "a", true, ""},
		{"an active service that was running already", UnitStatus{ActiveState: "active", SubState: "running", Result: "success", InvocationID: "a"}, "a", true, ""},
		{"a oneshot that remains after exit", UnitStatus{ActiveState: "active", SubState: "exited", Result: "success", Type: "oneshot", InvocationID: "b"}, "", true, ""},
		{"a simple service that exited 0", UnitStatus{ActiveState: "inactive", SubState: "dead", Result: "success", Type: "simple", InvocationID: "b", ExecMainCode: "1", ExecMainStatus: "0"}, "a", true, ""},
		{"a new simple service that exited 0", UnitStatus{ActiveState: "inactive", SubState: "dead", Result: "success", Type: "simple", InvocationID: "b", ExecMainCode: "1", ExecMainStatus: "0"}, "", true, ""},
		{"a oneshot that exited 0", UnitStatus{ActiveState: "inactive", SubState: "dead", Result: "success", Type: "oneshot", InvocationID: "b", ExecMainCode: "1"}, "a", true, ""},
		{"a oneshot that never started", UnitStatus{ActiveState: "inactive", SubState: "dead", Result: "success", Type: "oneshot", InvocationID: "a"}, "a", false, "inactive/dead: it did not start (a unit it needs is missing or failed)"},
		{"a simple service that never ran", UnitStatus{ActiveState: "inactive", SubState: "dead", Result: "success", Type: "simple"}, "", false, "inactive/dead: it did not start (a unit it needs is missing or failed)"},
		{"a service that exited 3", UnitStatus{ActiveState: "failed", SubState: "failed", Result: "exit-code", InvocationID: "b", ExecMainCode: "1", ExecMainStatus: "3"}, "a", false, "failed/failed (Result=exit-code, exit status 3)"},
		{"a service killed", UnitStatus{ActiveState: "failed", SubState: "failed", Result: "signal", InvocationID: "b", ExecMainCode: "2", ExecMainStatus: "9"}, "a", false, "failed/failed (Result=signal, killed by signal 9)"},
		{"a oneshot that failed and was collected", UnitStatus{ActiveState: "inactive", SubState: "dead", Result: "exit-code", Type: "oneshot", InvocationID: "b", ExecMainCode: "1", ExecMainStatus: "1"}, "a", false, "inactive/dead (Result=exit-code, exit status 1)"},
		{"a service waiting to be restarted", UnitStatus{ActiveState: "activating", SubState: "auto-restart", Result: "exit-code", InvocationID: "b", ExecMainCode: "1", ExecMainStatus: "1"}, "a", false, "activating/auto-restart (Result=exit-code, exit status 1): it keeps exiting and being restarted"},
		{"a service still starting", UnitStatus{ActiveState: "activating", SubState: "start-pre", Result: "success", InvocationID: "b"}, "a", false, "still activating"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up, why := tc.st.judge(tc.before)
			if d := cmp.Diff([2]any{tc.up, tc.why}, [2]any{up, why}); d != "" {
				t.Errorf("judge (-want +got):\n%s", d)
			}
		})
	}
}

// TestRemovedFailedUnitIsReset: a unit that the new generation removes
// and that is failed is reset after daemon-reload, so that it leaves
// systemctl --failed; an active removed unit is stopped, and an unrelated
// failed unit is left alone.
func TestRemovedFailedUnitIsReset(t *testing.T) {
	svc := "[Service]\nExecStart=/bin/true\n"
	one := writeProfile(t, flatten(unitFiles("broken.service", svc), unitFiles("gone.service", svc), unitFiles("kept.service", svc))...)
	two := writeProfile(t, flatten(unitFiles("kept.service", svc))...)
	root := newRoot(t, nil)
	mustSwitch(t, root, one, SwitchOptions{})
	f := &fakeUnits{t: t, root: root, active: map[string]bool{"multi-user.target": true, "gone.service": true, "kept.service": true},
		failing: map[string]bool{"broken.service": true, "other.service": true}}
	res, err := run(t, root, f, func(s *System) (*Result, error) { return s.Switch(two, SwitchOptions{}) })
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"broken.service"}, res.Plan.Units.ResetFailed); d != "" {
		t.Errorf("plan's reset-failed (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"stop gone.service", "daemon-reload", "reset-failed broken.service"}, f.calls); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}
	if f.failing["broken.service"] || !f.failing["other.service"] {
		t.Errorf("failed after the switch: %v", f.failing)
	}
}
