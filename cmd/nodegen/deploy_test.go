package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/nodegen/nodegen/deploy"
)

// TestDeployExitCodes: the worst outcome decides the exit code, and the
// failure budget's stop overrides them all.
func TestDeployExitCodes(t *testing.T) {
	for _, tc := range []struct {
		outcomes []deploy.Outcome
		stopped  bool
		want     int
	}{
		{[]deploy.Outcome{deploy.Confirmed, deploy.Confirmed}, false, exitOK},
		{[]deploy.Outcome{deploy.Planned}, false, exitOK},
		{[]deploy.Outcome{deploy.Confirmed, deploy.Failed}, false, exitActivationFailed},
		{[]deploy.Outcome{deploy.NotConfirmed, deploy.Failed}, false, exitRolledBack},
		{[]deploy.Outcome{deploy.Unreachable, deploy.NotConfirmed, deploy.Failed}, false, exitUnreachable},
		{[]deploy.Outcome{deploy.Failed, deploy.Skipped}, true, exitBudget},
	} {
		var results []deploy.HostResult
		for i, o := range tc.outcomes {
			results = append(results, deploy.HostResult{Host: string(rune('a' + i)), Outcome: o})
		}
		var stdout, stderr bytes.Buffer
		if got := deploySummary(results, tc.stopped, time.Second, false, &stdout, &stderr); got != tc.want {
			t.Errorf("%v (stopped %v): exit %d, want %d", tc.outcomes, tc.stopped, got, tc.want)
		}
		if !strings.HasPrefix(stdout.String(), "deployed ") {
			t.Errorf("no summary: %q", stdout.String())
		}
	}
}
