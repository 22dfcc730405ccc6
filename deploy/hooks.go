package deploy

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Hook is one of deployment.beforeSwitch and deployment.afterSwitch: a
// shell command run on the host or on the deployer around the host's
// switch.
type Hook struct {
	// Name names the hook in the output.
	Name string `json:"name"`
	// Command is the shell command (sh -c).
	Command string `json:"command"`
	// RunOn is "host" or "deployer".
	RunOn string `json:"runOn"`
	// Timeout is how many seconds it may take.
	Timeout int `json:"timeout"`
}

// HealthCheck is one of deployment.healthChecks: a shell command run on
// the host once its new generation is active; the host is confirmed only
// when it exits 0, within Retries more tries Interval seconds apart.
type HealthCheck struct {
	Name     string `json:"name"`
	Command  string `json:"command"`
	Timeout  int    `json:"timeout"`
	Retries  int    `json:"retries"`
	Interval int    `json:"interval"`
}

// The phases of the hooks, as NODEGEN_PHASE names them and as the events'
// steps.
const (
	phaseBefore = "beforeSwitch"
	phaseAfter  = "afterSwitch"
	phaseHealth = "health"
)

// maxHookOutput bounds what a hook run on the deployer prints that the
// deployer keeps.
const maxHookOutput = 1 << 20

// hookEnv is the environment a hook gets beyond its own: the host's name,
// the address ssh connects to and the phase.
func (d *deployer) hookEnv(phase string) []string {
	target := d.h.Name
	if d.h.Options.TargetHost != nil {
		target = *d.h.Options.TargetHost
	}
	return []string{"NODEGEN_HOST=" + d.h.Name, "NODEGEN_TARGET_HOST=" + target, "NODEGEN_PHASE=" + phase}
}

// hookRun is how one run of a hook or a check ended.
type hookRun struct {
	output string
	code   int // exit status; exitSSH: the connection failed; -1: it could not run or was stopped
	err    string
}

// runCommand runs a hook's or check's command where runOn says, bounded by
// timeout seconds.
func (d *deployer) runCommand(ctx context.Context, c *conn, phase, runOn, command string, timeout int) hookRun {
	env := d.hookEnv(phase)
	limit := time.Duration(timeout) * time.Second
	if runOn == "deployer" {
		ctx, cancel := context.WithTimeout(ctx, limit)
		defer cancel()
		cmd := exec.CommandContext(ctx, "sh", "-c", command)
		cmd.Env = append(os.Environ(), env...)
		out := &cappedBuffer{max: maxHookOutput}
		cmd.Stdout, cmd.Stderr = out, out
		cmd.WaitDelay = 5 * time.Second
		err := cmd.Run()
		r := hookRun{output: out.b.String()}
		var exitErr *exec.ExitError
		switch {
		case ctx.Err() == context.DeadlineExceeded:
			r.code, r.err = -1, fmt.Sprintf("stopped after %ds", timeout)
		case err == nil:
		case errors.As(err, &exitErr) && exitErr.ExitCode() >= 0:
			r.code = exitErr.ExitCode()
		default:
			r.code, r.err = -1, err.Error()
		}
		return r
	}
	// On the host, timeout(1) bounds the command there, where ssh's
	// end would not stop it; the deployer's own bound is a little later.
	line := "env"
	for _, e := range env {
		line += " " + shellQuote(e)
	}
	line += fmt.Sprintf(" timeout -k 5 %d sh -c %s", timeout, shellQuote(command))
	ctx, cancel := context.WithTimeout(ctx, limit+15*time.Second)
	defer cancel()
	res := c.run(ctx, nil, line)
	r := hookRun{output: res.stdout + res.stderr, code: res.code}
	switch {
	case res.code == exitSSH:
		r.err = "the connection failed: " + lastLine(res.stderr, nil)
	case res.code == exitOverflow:
		r.code, r.err = -1, res.stderr
	case res.code == 124 || res.code == 137:
		r.err = fmt.Sprintf("stopped after %ds", timeout)
	}
	return r
}

// why says how a failed run ended, in a few words.
func (r hookRun) why() string {
	if r.err != "" {
		return r.err
	}
	msg := "exit " + strconv.Itoa(r.code)
	if l := lastLine(r.output, nil); l != "no connection" {
		msg += ": " + l
	}
	return msg
}

// runHooks runs hooks in order; the first that fails stops them, and its
// result is returned (nil: all passed), with the reason a rollback gives
// the host ("hook failed: ...").
func (d *deployer) runHooks(ctx context.Context, c *conn, phase string, hooks []Hook) (*HostResult, string) {
	for _, h := range hooks {
		start := time.Now()
		r := d.runCommand(ctx, c, phase, h.RunOn, h.Command, h.Timeout)
		took := time.Since(start).Seconds()
		if r.code != 0 {
			d.emit(phase, fmt.Sprintf("%s (on the %s): failed: %s [%.1f s]", h.Name, h.RunOn, r.why(), took))
			return &HostResult{Outcome: HookFailed, Output: r.output,
					Message: fmt.Sprintf("%s hook %s (on the %s) failed: %s", phase, h.Name, h.RunOn, r.why())},
				fmt.Sprintf("hook failed: %s %s (on the %s): %s", phase, h.Name, h.RunOn, r.why())
		}
		d.emit(phase, fmt.Sprintf("%s (on the %s): passed [%.1f s]", h.Name, h.RunOn, took))
	}
	return nil, ""
}

// runHealthChecks runs the host's health checks in the order of their
// names, each until it passes or its retries are spent; the first that
// fails stops them, and its result is returned (nil: all passed), with
// the reason a rollback gives the host ("health check failed: ...").
func (d *deployer) runHealthChecks(ctx context.Context, c *conn) (*HostResult, string) {
	for _, name := range slices.Sorted(maps.Keys(d.h.Options.HealthChecks)) {
		hc := d.h.Options.HealthChecks[name]
		if hc.Name == "" {
			hc.Name = name
		}
		start := time.Now()
		var r hookRun
		tries := 0
		for {
			tries++
			r = d.runCommand(ctx, c, phaseHealth, "host", hc.Command, hc.Timeout)
			if r.code == 0 || tries > hc.Retries || ctx.Err() != nil {
				break
			}
			select {
			case <-ctx.Done():
			case <-time.After(time.Duration(max(hc.Interval, 1)) * time.Second):
			}
		}
		took := time.Since(start).Seconds()
		if r.code != 0 {
			d.emit(phaseHealth, fmt.Sprintf("%s: failed after %d tries: %s [%.1f s]", hc.Name, tries, r.why(), took))
			return &HostResult{Outcome: Unhealthy, Output: r.output,
					Message: fmt.Sprintf("health check %s failed (%d tries): %s", hc.Name, tries, r.why())},
				fmt.Sprintf("health check failed: %s (%d tries): %s", hc.Name, tries, r.why())
		}
		d.emit(phaseHealth, fmt.Sprintf("%s: passed (%d tries) [%.1f s]", hc.Name, tries, took))
	}
	return nil, ""
}

// rollBack makes the host go back from gen, which waits for its
// confirmation, at once: it runs there what the rollback timer would run
// (nodegen confirm --expire), with why (the health check or hook that
// failed) for the generation's mark, and returns what is active then, for
// r's message.
func (d *deployer) rollBack(ctx context.Context, c *conn, exe, token string, gen int, r *HostResult, why string) {
	sum := sha256.Sum256([]byte(token))
	attempt := hex.EncodeToString(sum[:])[:16]
	reason := rollbackReason(why)
	d.emit("rollback", "generation "+strconv.Itoa(gen)+": "+reason)
	cmd := fmt.Sprintf("%s confirm --expire --reason %s %d %s >&2 && %s generations --json", exe, shellQuote(reason), gen, attempt, exe)
	res := c.run(ctx, nil, cmd)
	if res.code == exitSSH {
		// The master connection may be what the generation broke.
		res = c.runNew(ctx, nil, cmd)
	}
	r.Generation = gen
	if res.code != 0 {
		r.Message += fmt.Sprintf("; going back at once failed (%s): the host's timer rolls it back", lastLine(res.stderr, nil))
		r.Output = strings.TrimRight(r.Output, "\n") + "\n" + res.stderr
		return
	}
	active, err := activeGeneration(res.stdout)
	switch {
	case err != nil:
		r.Message += "; rolled back (" + err.Error() + ")"
	case active == 0:
		r.Message += "; rolled back: no generation is active"
	default:
		r.Message += fmt.Sprintf("; rolled back: generation %d is active again", active)
	}
}

// maxReasonBytes bounds a rollback's reason: one line of the host's mark
// (nodegen confirm --reason takes 1000 bytes at most).
const maxReasonBytes = 300

// rollbackReason makes why, the reason a health check or hook gives, one
// printable line of at most maxReasonBytes bytes, cut at a character;
// an empty why says the deployer rolled back.
func rollbackReason(why string) string {
	if why == "" {
		why = "rolled back by nodegen deploy"
	}
	why = printable(strings.Join(strings.Fields(why), " "))
	if len(why) <= maxReasonBytes {
		return why
	}
	cut := maxReasonBytes - len("...")
	for cut > 0 && !utf8.RuneStart(why[cut]) {
		cut--
	}
	return why[:cut] + "..."
}

// checksWindow is how many seconds the afterSwitch hooks and the health
// checks may take at most, with their retries: the host waits that much
// longer for its confirmation.
func (d *deployer) checksWindow() int {
	n := 0
	for _, h := range d.h.Options.AfterSwitch {
		n += h.Timeout + 15
	}
	for _, hc := range d.h.Options.HealthChecks {
		n += (hc.Retries+1)*(hc.Timeout+15) + hc.Retries*max(hc.Interval, 1)
	}
	return n
}
