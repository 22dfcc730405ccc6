package deploy

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSwitchResult: how the host's switch ended decides the outcome, and
// the reason comes first, in the message; the plan is kept apart.
func TestSwitchResult(t *testing.T) {
	plan := "activate a new generation (active now: generation 1)\n/etc: 1 to place\n"
	for _, tc := range []struct {
		name           string
		stdout, stderr string
		code           int
		dry            bool
		want           HostResult
	}{
		{"planned", plan, "", 0, true, HostResult{Outcome: Planned, Plan: plan}},
		{"planned with conflicts", plan, "nodegen switch: refusing: 1 path(s) are in the way; nothing was changed\n  /etc/motd: a file\n", 1, true,
			HostResult{Outcome: Refused, Message: "1 path(s) are in the way; nothing was changed", Plan: plan, Output: "nodegen switch: refusing: 1 path(s) are in the way; nothing was changed\n  /etc/motd: a file\n"}},
		{"refused", "", "warning: x\nnodegen switch: refusing: the profile has 2 problem(s) that would stop the activation half way; nothing was changed\n", 1, false,
			HostResult{Outcome: Refused, Message: "the profile has 2 problem(s) that would stop the activation half way; nothing was changed", Output: "warning: x\nnodegen switch: refusing: the profile has 2 problem(s) that would stop the activation half way; nothing was changed\n"}},
		{"locked", "", "nodegen switch: another nodegen command is changing / (it holds /var/lib/nodegen/lock)\n", 1, false,
			HostResult{Outcome: Busy, Message: "another nodegen command is changing / (it holds /var/lib/nodegen/lock); nothing was changed: deploy it again once that command is done", Output: "nodegen switch: another nodegen command is changing / (it holds /var/lib/nodegen/lock)\n"}},
		{"locked on a dry run", "", "nodegen switch: another nodegen command is changing / (it holds /var/lib/nodegen/lock)\n", 1, true,
			HostResult{Outcome: Busy, Message: "another nodegen command is changing / (it holds /var/lib/nodegen/lock); nothing was changed: deploy it again once that command is done", Output: "nodegen switch: another nodegen command is changing / (it holds /var/lib/nodegen/lock)\n"}},
		{"rolled back", plan + "rolling back:\nrolled back: generation 1 is active again\n", "nodegen switch: unit broken.service failed: failed/failed (Result=exit-code, exit status 1)\n    journal\n", 1, false,
			HostResult{Outcome: RolledBack, Message: "unit broken.service failed: failed/failed (Result=exit-code, exit status 1); rolled back: generation 1 is active again",
				Plan: plan + "rolling back:\nrolled back: generation 1 is active again\n", Output: "nodegen switch: unit broken.service failed: failed/failed (Result=exit-code, exit status 1)\n    journal\n"}},
		{"failed and stayed", plan, "nodegen switch: the activation of generation 2 failed at step tmpfiles: x; going back to generation 1 failed too: y\n", 1, false,
			HostResult{Outcome: Failed, Message: "the activation of generation 2 failed at step tmpfiles: x; going back to generation 1 failed too: y", Plan: plan,
				Output: "nodegen switch: the activation of generation 2 failed at step tmpfiles: x; going back to generation 1 failed too: y\n"}},
		{"killed", "", "", 137, false, HostResult{Outcome: Failed, Message: "nodegen switch exited 137"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, SwitchResult(tc.stdout, tc.stderr, tc.code, tc.dry)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}
