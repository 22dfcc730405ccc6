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
		before Invocation
		up     bool
		why    string
	}{
		{"a running service", UnitStatus{ActiveState: "active", SubState: "running", Result: "success", InvocationID: "b"}, Invocation{ID: "a"}, true, ""},
		{"an active service that was running already", UnitStatus{ActiveState: "active", SubState: "running", Result: "success", InvocationID: "a"}, Invocation{ID: "a"}, true, ""},
		{"a oneshot that remains after exit", UnitStatus{ActiveState: "active", SubState: "exited", Result: "success", Type: "oneshot", InvocationID: "b"}, Invocation{ID: ""}, true, ""},
		{"a simple service that exited 0", UnitStatus{ActiveState: "inactive", SubState: "dead", Result: "success", Type: "simple", InvocationID: "b", ExecMainCode: "1", ExecMainStatus: "0"}, Invocation{ID: "a"}, true, ""},
		{"a new simple service that exited 0", UnitStatus{ActiveState: "inactive", SubState: "dead", Result: "success", Type: "simple", InvocationID: "b", ExecMainCode: "1", ExecMainStatus: "0"}, Invocation{ID: ""}, true, ""},
		{"a oneshot that exited 0", UnitStatus{ActiveState: "inactive", SubState: "dead", Result: "success", Type: "oneshot", InvocationID: "b", ExecMainCode: "1"}, Invocation{ID: "a"}, true, ""},
		{"a oneshot that never started", UnitStatus{ActiveState: "inactive", SubState: "dead", Result: "success", Type: "oneshot", InvocationID: "a"}, Invocation{ID: "a"}, false, "inactive/dead: it did not start (a unit it needs is missing or failed)"},
		{"a service that ran, exited 0 and was unloaded", UnitStatus{ActiveState: "inactive", SubState: "dead", Result: "success", Type: "simple"}, Invocation{ID: "a"}, true, ""},
		{"a simple service that never ran", UnitStatus{ActiveState: "inactive", SubState: "dead", Result: "success", Type: "simple"}, Invocation{ID: ""}, false, "inactive/dead: it did not start (a unit it needs is missing or failed)"},
		{"a service that exited 3", UnitStatus{ActiveState: "failed", SubState: "failed", Result: "exit-code", InvocationID: "b", ExecMainCode: "1", ExecMainStatus: "3"}, Invocation{ID: "a"}, false, "failed/failed (Result=exit-code, exit status 3)"},
		{"a service killed", UnitStatus{ActiveState: "failed", SubState: "failed", Result: "signal", InvocationID: "b", ExecMainCode: "2", ExecMainStatus: "9"}, Invocation{ID: "a"}, false, "failed/failed (Result=signal, killed by signal 9)"},
		{"a oneshot that failed and was collected", UnitStatus{ActiveState: "inactive", SubState: "dead", Result: "exit-code", Type: "oneshot", InvocationID: "b", ExecMainCode: "1", ExecMainStatus: "1"}, Invocation{ID: "a"}, false, "inactive/dead (Result=exit-code, exit status 1)"},
		{"a service waiting to be restarted", UnitStatus{ActiveState: "activating", SubState: "auto-restart", Result: "exit-code", InvocationID: "b", ExecMainCode: "1", ExecMainStatus: "1"}, Invocation{ID: "a"}, false, "activating/auto-restart (Result=exit-code, exit status 1): it keeps exiting and being restarted"},
		{"a service still starting", UnitStatus{ActiveState: "activating", SubState: "start-pre", Result: "success", InvocationID: "b"}, Invocation{ID: "a"}, false, "still activating"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up, why := tc.st.judge(tc.before)
			if d := cmp.Diff([2]any{tc.up, tc.why}, [2]any{up, why}); d != "" {
				t.Errorf("judge (-want +got):\n%s", d)
			}
		})
	}
}

// TestSkippedUnits: a unit not started because a condition does not hold
// is skipped only when systemd checked its conditions since the job was
// queued: a unit that never started says ConditionResult=no too.
func TestSkippedUnits(t *testing.T) {
	st := UnitStatus{ActiveState: "inactive", SubState: "dead", Result: "success", ConditionResult: "no", ConditionChecked: "200"}
	for _, tc := range []struct {
		name   string
		st     UnitStatus
		before Invocation
		want   bool
	}{
		{"checked since", st, Invocation{ConditionChecked: "100"}, true},
		{"checked for the first time", st, Invocation{ConditionChecked: "0"}, true},
		{"not checked since", st, Invocation{ConditionChecked: "200"}, false},
		{"never checked", UnitStatus{ActiveState: "inactive", SubState: "dead", Result: "success", ConditionResult: "no", ConditionChecked: "0"}, Invocation{ConditionChecked: "0"}, false},
		{"conditions held", UnitStatus{ActiveState: "inactive", SubState: "dead", Result: "success", ConditionResult: "yes", ConditionChecked: "200"}, Invocation{ConditionChecked: "100"}, false},
	} {
		if got := tc.st.skipped(tc.before); got != tc.want {
			t.Errorf("%s: skipped %v, want %v", tc.name, got, tc.want)
		}
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
	if failed, _ := f.Failed(); !cmp.Equal(failed, []string{"other.service"}) {
		t.Errorf("failed after the switch: %v", failed)
	}
}
