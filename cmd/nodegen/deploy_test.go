package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/activate"
	"github.com/nodegen/nodegen/deploy"
	"github.com/nodegen/nodegen/profile"
	"github.com/nodegen/nodegen/profilecheck"
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
		{[]deploy.Outcome{deploy.Confirmed, deploy.RolledBack}, false, exitActivationFailed},
		{[]deploy.Outcome{deploy.Planned, deploy.Refused}, false, exitRefused},
		{[]deploy.Outcome{deploy.Unreachable, deploy.Refused, deploy.Busy}, false, exitBusy},
		{[]deploy.Outcome{deploy.Refused, deploy.Skipped}, true, exitBudget},
		{[]deploy.Outcome{deploy.Confirmed, deploy.Unhealthy}, false, exitUnhealthy},
		{[]deploy.Outcome{deploy.Unhealthy, deploy.HookFailed, deploy.Busy}, false, exitHookFailed},
		{[]deploy.Outcome{deploy.Unhealthy, deploy.Skipped}, true, exitBudget},
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

// TestDeploySummary: the summary counts each outcome under its own name,
// a host that went back as rolled back, and leaves out the empty ones.
func TestDeploySummary(t *testing.T) {
	results := []deploy.HostResult{{Host: "a", Outcome: deploy.RolledBack}, {Host: "b", Outcome: deploy.Confirmed},
		{Host: "c", Outcome: deploy.NotConfirmed}, {Host: "d", Outcome: deploy.Refused}, {Host: "e", Outcome: deploy.RolledBack}}
	var stdout, stderr bytes.Buffer
	deploySummary(results, false, 1500*time.Millisecond, false, &stdout, &stderr)
	want := "deployed 5 host(s) in 1.5 s: 1 confirmed, 1 refused, 2 rolled back, 1 not confirmed (rolling back)\n"
	if d := cmp.Diff(want, stdout.String()); d != "" {
		t.Errorf("summary (-want +got):\n%s", d)
	}
}

// TestDeployHostLine: a failed host's line says why first, then what its
// switch printed on stderr; its plan only with -v.
func TestDeployHostLine(t *testing.T) {
	r := &deploy.HostResult{Host: "a", Outcome: deploy.RolledBack, Generation: 2, Seconds: 3,
		Message: "unit x.service failed: failed/failed (Result=exit-code); rolled back: generation 1 is active again",
		Output:  "nodegen switch: unit x.service failed: failed/failed (Result=exit-code)\n    the journal\n",
		Plan:    "activate a new generation (active now: generation 1)\n"}
	for _, verbose := range []bool{false, true} {
		var stdout, stderr bytes.Buffer
		printHostResult(&stdout, &stderr, r, false, verbose)
		want := "a: rolled-back (generation 2): unit x.service failed: failed/failed (Result=exit-code); rolled back: generation 1 is active again [3.0 s]\n" +
			"    nodegen switch: unit x.service failed: failed/failed (Result=exit-code)\n" +
			"        the journal\n"
		if verbose {
			want += "    a's plan:\n      activate a new generation (active now: generation 1)\n"
		}
		if d := cmp.Diff(want, stderr.String()); d != "" || stdout.Len() > 0 {
			t.Errorf("verbose %v: stderr (-want +got):\n%s\nstdout: %q", verbose, d, stdout.String())
		}
	}
}

// TestDeployReadsRealSwitches: the outcomes deploy reads from the host's
// switch, from what nodegen switch really prints: a dry run with a file in
// the way is refused, and a switch that finds the system locked by another
// nodegen command is busy, not a failed activation.
func TestDeployReadsRealSwitches(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(filepath.Join(root, "etc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "etc/motd"), []byte("the admin's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	host := filepath.Join(dir, "host.hcl")
	if err := os.WriteFile(host, []byte("config \"networking\" { hostName = \"a\" }\nconfig \"environment.etc.motd\" { text = \"nodegen's\" }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	switchOn := func(dry bool) deploy.HostResult {
		t.Helper()
		args := []string{"switch", "--root", root, host}
		if dry {
			args = append(args, "--dry-run")
		}
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		return deploy.SwitchResult(stdout.String(), stderr.String(), code, dry)
	}
	if r := switchOn(true); r.Outcome != deploy.Refused || !strings.Contains(r.Message, "1 path(s) are in the way") || !strings.Contains(r.Output, "etc/motd") {
		t.Errorf("dry run with a file in the way: %+v", r)
	}
	// A file the program that reads it refuses (a check that eval could
	// not run) is refused too.
	checked := filepath.Join(dir, "checked")
	if err := profile.Write(checked, profile.Profile{Entries: []profile.Entry{{Target: "app.conf", Content: []byte("x\n"), Mode: "0644",
		Option: "environment.etc.\"app.conf\"", Checks: []profilecheck.ProgramCheck{{Programs: []string{"/bin/sh"}, Script: "echo bad setting >&2; exit 1"}}}}}); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"switch", "--root", root, checked}, &stdout, &stderr)
	if r := deploy.SwitchResult(stdout.String(), stderr.String(), code, false); r.Outcome != deploy.Refused || !strings.Contains(r.Output, "bad setting") {
		t.Errorf("switch with a file its program refuses: %+v", r)
	}
	s, err := activate.Open(activate.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if r := switchOn(false); r.Outcome != deploy.Busy || !strings.Contains(r.Message, "another nodegen command is changing") {
		t.Errorf("switch on a locked system: %+v", r)
	}
}
