//go:build linux

package machinerun

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nodegen/nodegen/internal/atomicfile"
	"github.com/nodegen/nodegen/modtest"
)

// SummaryStepFailed is the summary of a failed step's diagnostic.
const SummaryStepFailed = "Step failed"

// pollInterval is how often wait_for_unit and wait_until_succeeds try
// again.
const pollInterval = 200 * time.Millisecond

// step runs s; on failure it adds the diagnostic and returns false.
func (rn *run) step(s *modtest.Step) bool {
	n := rn.node(s.Machine)
	t0 := time.Now()
	why, output := rn.do(n, s)
	if why == "" {
		if d := time.Since(t0); d > time.Second {
			rn.note("%s (%s)", s, round(d))
		}
		return true
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", s, why)
	if output = strings.TrimRight(output, "\n"); output != "" {
		fmt.Fprintf(&b, "\n\nOutput:\n%s", output)
	}
	if n.m != nil {
		fmt.Fprintf(&b, "\n\n%s", rn.journal(n))
	}
	rn.fail(s.Range(), SummaryStepFailed, b.String())
	return false
}

// do runs s on n and returns why it failed ("" when it passed) and the
// output to show.
func (rn *run) do(n *node, s *modtest.Step) (why, output string) {
	deadline := time.Now().Add(s.Timeout)
	switch s.Action {
	case modtest.WaitForUnit:
		return rn.waitForUnit(n, s, deadline)
	case modtest.WaitUntilSucceeds:
		var last, lastOut string
		for {
			// The last try too gets a second at least.
			out, code, err := rn.shell(n, s.Arg, max(time.Until(deadline), time.Second))
			if err == nil && code == 0 {
				if why := checkOutput(s, out); why == "" {
					return "", ""
				} else {
					last = why
				}
			} else if err != nil {
				last = err.Error()
			} else {
				last = fmt.Sprintf("exit code %d", code)
			}
			lastOut = out
			if !rn.sleep(deadline) {
				return fmt.Sprintf("did not succeed within %s; the last try: %s", s.Timeout, last), lastOut
			}
		}
	case modtest.Succeed, modtest.Fail:
		out, code, err := rn.shell(n, s.Arg, s.Timeout)
		switch {
		case err != nil:
			return err.Error(), out
		case s.Action == modtest.Succeed && code != 0:
			return fmt.Sprintf("exit code %d, want 0", code), out
		case s.Action == modtest.Fail && code == 0:
			return "exit code 0, want a failure", out
		}
		if why := checkOutput(s, out); why != "" {
			return why, out
		}
		return "", ""
	case modtest.CopyIn:
		src := rn.local(s.From)
		data, err := os.ReadFile(src)
		if err != nil {
			return err.Error(), ""
		}
		info, _ := os.Stat(src)
		if err := n.m.WriteFile(s.To, data, info.Mode().Perm()); err != nil {
			return err.Error(), ""
		}
		return "", ""
	case modtest.CopyOut:
		data, err := n.m.ReadFile(s.From)
		if err != nil {
			return err.Error(), ""
		}
		if err := writeAtomic(rn.local(s.To), data); err != nil {
			return err.Error(), ""
		}
		return "", ""
	case modtest.Switch:
		return rn.switchStep(n, s)
	case modtest.Rollback:
		stdout, stderr, code, err := n.m.RunFor(s.Timeout, append([]string{"nodegen", "rollback"}, unitWait...)...)
		if err != nil {
			return err.Error(), stdout + stderr
		}
		if code != 0 {
			return fmt.Sprintf("nodegen rollback exited %d", code), stdout + stderr
		}
		return "", ""
	case modtest.Reboot:
		return rn.reboot(n, s)
	case modtest.Kill:
		stdout, stderr, code, err := n.m.RunFor(s.Timeout, "systemctl", "kill", "--signal=SIGKILL", "--", s.Arg)
		if err != nil {
			return err.Error(), stdout + stderr
		}
		if code != 0 {
			return fmt.Sprintf("systemctl kill exited %d", code), stdout + stderr
		}
		return "", ""
	}
	return fmt.Sprintf("unknown action %s", s.Action), ""
}

// shell runs cmd with /bin/sh -c in n and returns its stdout and stderr
// (stdout first) and exit code.
func (rn *run) shell(n *node, cmd string, timeout time.Duration) (string, int, error) {
	if timeout <= 0 {
		timeout = time.Millisecond
	}
	stdout, stderr, code, err := n.m.RunFor(timeout, "sh", "-c", cmd)
	out := stdout
	if stderr != "" {
		out += "\n[stderr]\n" + stderr
	}
	return out, code, err
}

// checkOutput checks a command's output against the step's checks.
func checkOutput(s *modtest.Step, out string) string {
	if s.OutputContains != "" && !strings.Contains(out, s.OutputContains) {
		return fmt.Sprintf("the output does not contain %q", s.OutputContains)
	}
	if s.OutputMatches != nil && !s.OutputMatches.MatchString(out) {
		return fmt.Sprintf("the output does not match %q", s.OutputMatches)
	}
	return ""
}

// sleep waits a poll interval; false when the deadline or the context
// ends first.
func (rn *run) sleep(deadline time.Time) bool {
	if time.Until(deadline) <= 0 {
		return false
	}
	select {
	case <-rn.d.ctx().Done():
		return false
	case <-time.After(min(pollInterval, time.Until(deadline))):
		return time.Until(deadline) > 0
	}
}

// waitForUnit waits until the unit is active; a failed unit fails at once.
func (rn *run) waitForUnit(n *node, s *modtest.Step, deadline time.Time) (string, string) {
	var state string
	for {
		stdout, _, _, err := n.m.RunFor(max(time.Until(deadline), time.Second), "systemctl", "is-active", "--", s.Arg)
		state = strings.TrimSpace(stdout)
		if err != nil {
			state = err.Error()
		}
		if state == "active" {
			return "", ""
		}
		if state == "failed" {
			return fmt.Sprintf("the unit %s failed", s.Arg), rn.unitStatus(n, s.Arg)
		}
		if !rn.sleep(deadline) {
			return fmt.Sprintf("the unit %s is not active within %s (it is %s)", s.Arg, s.Timeout, state), rn.unitStatus(n, s.Arg)
		}
	}
}

// unitStatus is systemctl status of the unit, for a failure.
func (rn *run) unitStatus(n *node, unit string) string {
	stdout, stderr, _, _ := n.m.Run("systemctl", "status", "--no-pager", "--lines=0", "--", unit)
	return stdout + stderr
}

// switchStep switches n to the configuration the step names.
func (rn *run) switchStep(n *node, s *modtest.Step) (string, string) {
	b := n.config[s.Arg]
	var err error
	var out string
	if b.Diags.HasErrors() {
		err = fmt.Errorf("the configuration %q cannot be built, so it never reaches the machine:\n%s", s.Arg, diagText(b.Diags))
	} else {
		out, err = rn.switchTo(n, b, s.Arg)
	}
	switch {
	case s.ExpectError == "" && err != nil:
		return err.Error(), out
	case s.ExpectError == "":
		return "", ""
	case err == nil:
		return fmt.Sprintf("the switch succeeded; expect_error wants it to fail with an error containing %q", s.ExpectError), out
	case !strings.Contains(err.Error(), s.ExpectError) && !strings.Contains(out, s.ExpectError):
		return fmt.Sprintf("the switch failed, but without %q: %v", s.ExpectError, err), out
	}
	return "", ""
}

// reboot powers n off and boots its disk again; the step ends when the
// generation active before is active again and nodegen status is clean.
func (rn *run) reboot(n *node, s *modtest.Step) (string, string) {
	before, _, _, err := n.m.Run("readlink", "/var/lib/nodegen/current")
	if err != nil {
		return err.Error(), ""
	}
	if err := n.m.PowerOff(); err != nil {
		return err.Error(), ""
	}
	if err := rn.boot(n); err != nil {
		return err.Error(), ""
	}
	after, _, _, err := n.m.Run("readlink", "/var/lib/nodegen/current")
	if err != nil {
		return err.Error(), ""
	}
	if after != before {
		return fmt.Sprintf("the active generation was %s before the reboot, %s after", strings.TrimSpace(before), strings.TrimSpace(after)), ""
	}
	deadline := time.Now().Add(s.Timeout)
	for {
		stdout, stderr, code, err := n.m.Run("nodegen", "status")
		if err == nil && code == 0 {
			return "", ""
		}
		if !rn.sleep(deadline) {
			return fmt.Sprintf("nodegen status does not say the profile is active within %s after the reboot", s.Timeout), stdout + stderr
		}
	}
}

// local resolves a path of the test's, relative to the test file.
func (rn *run) local(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(filepath.Dir(rn.f.Path), p)
}

// writeAtomic writes data to path, making its directory, atomically;
// the file is the user's only (0600, as copy_out always wrote it).
func writeAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data, 0o600)
}
