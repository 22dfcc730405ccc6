package deploy

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/nodegen/nodegen/profile"
)

// remoteDir is where a deploy keeps the nodegen binaries and profiles it
// copied to a host, each named by its hash, so that a rerun copies only
// what is missing.
const remoteDir = "/var/lib/nodegen/deploy"

// Outcome is how a host's deploy ended.
type Outcome string

// The outcomes, from best to worst.
const (
	Confirmed    Outcome = "confirmed"     // the new generation runs, confirmed
	Planned      Outcome = "planned"       // --dry-run: the plan was shown
	Refused      Outcome = "refused"       // the switch refused before changing anything (files in the way, an invalid profile, binaries); with --dry-run, the plan has conflicts
	Busy         Outcome = "busy"          // another nodegen command held the host's lock: nothing changed
	RolledBack   Outcome = "rolled-back"   // the activation failed (a unit, a step) and the host went back by itself
	Failed       Outcome = "failed"        // a step of the deploy failed, or the activation failed and did not go back
	NotConfirmed Outcome = "not-confirmed" // not confirmed in time: the host rolls back by itself
	Unhealthy    Outcome = "unhealthy"     // a health check failed after the activation: the host was rolled back
	HookFailed   Outcome = "hook-failed"   // a beforeSwitch hook failed (nothing changed) or an afterSwitch hook did (the host was rolled back)
	Unreachable  Outcome = "unreachable"   // no connection, or lost before the switch
	Skipped      Outcome = "skipped"       // not tried: the failure budget stopped the deploy
)

// HostResult is the end of one host's deploy.
type HostResult struct {
	// Host is the host's name, Outcome how its deploy ended.
	Host    string  `json:"host"`
	Outcome Outcome `json:"outcome"`
	// Generation is the generation the switch made (0: none).
	Generation int `json:"generation,omitempty"`
	// Message says why, for an outcome other than Confirmed.
	Message string `json:"message,omitempty"`
	// Output is what nodegen printed on the host (for the switch, on its
	// stderr: the reason, the failed units' journals), for failures.
	Output string `json:"output,omitempty"`
	// Plan is what the host's switch printed on its stdout: the plan
	// and the progress, for failures and plans.
	Plan string `json:"plan,omitempty"`
	// Seconds is how long the host's deploy took.
	Seconds float64 `json:"seconds"`
}

// Config is how Run deploys.
type Config struct {
	// SSH is the ssh program (default "ssh").
	SSH string
	// Binary is the nodegen executable to copy to hosts: a static one, for
	// the host's architecture.
	Binary string
	// Parallel is how many hosts are deployed at once (default 1).
	Parallel int
	// MaxPerJump is how many of them may go through one jump host
	// (ProxyJump) at once; 0 is no bound but Parallel.
	MaxPerJump int
	// Waves is the --waves list; MaxFail the failure budget.
	Waves   string
	MaxFail Amount
	// ConfirmTimeout is how long after its activation a host waits for
	// its confirmation.
	ConfirmTimeout time.Duration
	// DryRun shows each host's plan (switch --dry-run there), changing
	// nothing.
	DryRun bool
	// Backup has every host's switch move the files in the way of its
	// profile aside (switch --backup), as a host's
	// deployment.backupConflicts does for it.
	Backup bool
	// MaxUnavailable bounds how many hosts are unavailable at once: from
	// their beforeSwitch hooks (or their switch) until they are confirmed
	// or their deploy ended otherwise. 0 is no bound but Parallel; the
	// hosts' own deployment.maxUnavailable lower it.
	MaxUnavailable int
	// Event receives the progress of each host (from several goroutines,
	// one call at a time).
	Event func(Event)
}

// Event is one step of one host's deploy.
type Event struct {
	// Host is the host's name.
	Host string `json:"host"`
	// Step is connect, copy-binary, copy-profile, keys, beforeSwitch, switch,
	// reconnect, afterSwitch, health, rollback, confirm or done.
	Step string `json:"step"`
	// Message says more of the step.
	Message string `json:"message,omitempty"`
	// Result is the host's result, with Step done.
	Result *HostResult `json:"result,omitempty"`
	// At is when the event came, in seconds since the deploy began: when
	// the step began, or for a hook, a health check and done, when it
	// ended.
	At float64 `json:"at"`
}

// deployer is one host's deploy.
type deployer struct {
	cfg     *Config
	h       Host
	binHash string
	emit    func(step, msg string)
	// unavailable holds a slot for each host that is unavailable; nil:
	// no bound.
	unavailable chan struct{}
}

// genLine is the line of nodegen switch that names the generation waiting
// for its confirmation.
var genLine = regexp.MustCompile(`(?m)^waiting for confirmation: generation (\d+)`)

func (d *deployer) run(ctx context.Context) HostResult {
	start := time.Now()
	r := d.deploy(ctx)
	r.Host, r.Seconds = d.h.Name, time.Since(start).Seconds()
	// What the host printed reaches the deployer's terminal: its control
	// characters are shown, never acted on.
	r.Message, r.Output, r.Plan = printable(r.Message), printable(r.Output), printable(r.Plan)
	return r
}

func (d *deployer) deploy(ctx context.Context) HostResult {
	dir, err := tempDir()
	if err != nil {
		return HostResult{Outcome: Unreachable, Message: err.Error()}
	}
	defer os.RemoveAll(dir)
	// The keys are read first: a keyFile that cannot be read stops the
	// host before anything is sent.
	keys, err := readKeys(d.h.Options.Keys)
	if err != nil {
		return HostResult{Outcome: Failed, Message: err.Error()}
	}
	d.emit("connect", "")
	c, err := dial(ctx, d.cfg.SSH, dir, d.h)
	if err != nil {
		return HostResult{Outcome: Unreachable, Message: err.Error()}
	}
	defer c.close()

	exe := remoteDir + "/nodegen-" + d.binHash[:16]
	if r := c.run(ctx, nil, "test -x "+exe); r.code == exitSSH {
		return lost("checking the nodegen binary", r)
	} else if r.code != 0 {
		d.emit("copy-binary", exe)
		f, err := os.Open(d.cfg.Binary)
		if err != nil {
			return HostResult{Outcome: Unreachable, Message: err.Error()}
		}
		r := c.run(ctx, f, putFile(exe, "0755"))
		f.Close()
		if r.code != 0 {
			return lost("copying the nodegen binary", r)
		}
	}

	manifestPath := filepath.Join(d.h.Profile, profile.ManifestName)
	manifest, err := os.ReadFile(manifestPath)
	if err != nil {
		return HostResult{Outcome: Failed, Message: err.Error()}
	}
	sum := sha256.Sum256(manifest)
	prof := remoteDir + "/profiles/" + ReceivedName(hex.EncodeToString(sum[:]))
	// The host checks its copy each time (receive hashes what it has):
	// a profile it received before is rebuilt from its intact files,
	// and a damaged one is sent again.
	if r := d.copyProfile(ctx, c, exe, prof, manifest, manifestPath); r != nil {
		return *r
	}

	if d.cfg.DryRun {
		r := c.run(ctx, nil, exe+" switch --dry-run"+d.backupFlag()+" "+prof)
		if r.code == exitSSH {
			return lost("nodegen switch --dry-run", r)
		}
		if r.code == exitOverflow {
			return HostResult{Outcome: Failed, Message: "nodegen switch --dry-run " + exited(r)}
		}
		return SwitchResult(r.stdout, r.stderr, r.code, true)
	}

	// From here on the host counts as unavailable, until its deploy ends.
	if d.unavailable != nil {
		select {
		case d.unavailable <- struct{}{}:
			defer func() { <-d.unavailable }()
		case <-ctx.Done():
			return HostResult{Outcome: Skipped, Message: "stopped while waiting for the unavailability budget: " + ctx.Err().Error()}
		}
	}
	// A beforeSwitch hook that fails stops the host before its keys or
	// its system change.
	if r, _ := d.runHooks(ctx, c, phaseBefore, d.h.Options.BeforeSwitch); r != nil {
		r.Message += "; nothing was changed on the host"
		return *r
	}

	if len(keys) > 0 {
		names := make([]string, len(keys))
		for i, k := range keys {
			names[i] = k.option
		}
		d.emit("keys", strings.Join(names, " "))
	}
	// The keys are staged for this attempt, root's only: the switch
	// copies them into its generation, whose activation puts them in
	// place; a refused or rolled-back switch leaves the active
	// generation's keys.
	keysFlag := ""
	if len(keys) > 0 {
		id, err := newToken()
		if err != nil {
			return HostResult{Outcome: Failed, Message: err.Error()}
		}
		for _, k := range keys {
			if r := c.run(ctx, bytes.NewReader(k.data), exe+" "+receiveStagedKeyArgs(k.Key, id)); r.code != 0 {
				return lost("sending deployment.keys."+k.option, r)
			}
		}
		keysFlag = " --keys " + shellQuote(remoteDir+"/keys/"+id)
	}

	token, err := newToken()
	if err != nil {
		return HostResult{Outcome: Failed, Message: err.Error()}
	}
	d.emit("switch", "")
	// The host's deadline covers the afterSwitch hooks and the health
	// checks too, at their longest, and then the confirmation.
	secs := int((d.cfg.ConfirmTimeout+time.Second-1)/time.Second) + d.checksWindow()
	// The token goes on stdin, never in a command line that every user
	// of the host can read.
	sw := c.run(ctx, strings.NewReader(token+"\n"), fmt.Sprintf("%s switch%s%s --rollback-on-failure --confirm-timeout %ds --confirm-token-file - %s", exe, d.backupFlag(), keysFlag, secs, prof))
	m := genLine.FindStringSubmatch(sw.stdout)
	var gen int
	switch {
	case sw.code == exitSSH && m == nil:
		// The session was cut during the switch, which goes on on the
		// host: a new connection finds out how it ends.
		d.emit("reconnect", printable(lastLine(sw.stderr, nil)))
		var r *HostResult
		if gen, r = d.resume(ctx, c, exe, token); r != nil {
			r.Output = sw.stdout + sw.stderr + r.Output
			return *r
		}
	case sw.code != 0 || m == nil:
		if sw.code == exitOverflow {
			return HostResult{Outcome: Failed, Message: "nodegen switch " + exited(sw)}
		}
		return SwitchResult(sw.stdout, sw.stderr, sw.code, false)
	default:
		gen, _ = strconv.Atoi(m[1])
	}

	// The afterSwitch hooks, then the health checks: one that fails rolls
	// the host back at once, as its timer would.
	if r, why := d.runHooks(ctx, c, phaseAfter, d.h.Options.AfterSwitch); r != nil {
		d.rollBack(ctx, c, exe, token, gen, r, why)
		return *r
	}
	if r, why := d.runHealthChecks(ctx, c); r != nil {
		d.rollBack(ctx, c, exe, token, gen, r, why)
		return *r
	}

	// The confirmation goes over a new connection, tried until the
	// host's deadline: a generation that keeps the deployer out is never
	// confirmed.
	d.emit("confirm", "generation "+strconv.Itoa(gen))
	deadline := time.Now().Add(d.cfg.ConfirmTimeout)
	var last result
	for {
		last = c.runNew(ctx, strings.NewReader(token+"\n"), fmt.Sprintf("%s confirm %d >&2 && %s generations --json", exe, gen, exe))
		if last.code != exitSSH || time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
		time.Sleep(time.Second)
	}
	switch {
	case last.code == exitSSH:
		return HostResult{Outcome: NotConfirmed, Generation: gen, Output: sw.stdout,
			Message: fmt.Sprintf("no new connection within %s (%s): the host rolls back by itself", d.cfg.ConfirmTimeout, lastLine(last.stderr, nil))}
	case last.code != 0:
		return HostResult{Outcome: NotConfirmed, Generation: gen, Output: sw.stdout + last.stderr,
			Message: "not confirmed: " + lastLine(last.stderr, nil)}
	}
	active, err := activeGeneration(last.stdout)
	if err != nil || active != gen {
		return HostResult{Outcome: NotConfirmed, Generation: gen, Output: last.stdout,
			Message: fmt.Sprintf("confirmed, but generation %d is active, not %d (%v)", active, gen, err)}
	}
	return HostResult{Outcome: Confirmed, Generation: gen}
}

// copyProfile copies the profile to prof on the host: the host answers
// which contents of the manifest it lacks, as hashes, and the deployer
// sends the files of its own profile with those contents (parseMissing).
// It returns nil when the profile is there.
func (d *deployer) copyProfile(ctx context.Context, c *conn, exe, prof string, manifest []byte, manifestPath string) *HostResult {
	m, err := profile.ParseManifest(manifest, manifestPath)
	if err != nil {
		return &HostResult{Outcome: Failed, Message: err.Error()}
	}
	r := c.run(ctx, bytes.NewReader(manifest), exe+" receive --missing "+prof)
	if r.code != 0 {
		res := lost("asking the host which files it lacks", r)
		return &res
	}
	send, err := parseMissing(r.stdout, m)
	if err != nil {
		return &HostResult{Outcome: Failed, Message: "the host's answer to receive --missing is refused (nothing was sent): " + err.Error()}
	}
	if len(send) > 0 {
		d.emit("copy-profile", fmt.Sprintf("%s: %d file(s) the host lacks", prof, len(send)))
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(tarFiles(pw, d.h.Profile, manifest, send)) }()
	r = c.run(ctx, pr, exe+" receive "+prof)
	pr.CloseWithError(io.ErrClosedPipe)
	if r.code != 0 {
		res := lost("copying the profile", r)
		return &res
	}
	// The host names the damaged copies it found (and replaced).
	if note := strings.TrimSpace(r.stderr); note != "" {
		d.emit("copy-profile", printable(note))
	}
	return nil
}

// resumeTimeout bounds the wait for a switch whose session was cut: its
// activation (the host's switch waits up to 90 s for each stage's units)
// and then the confirmation.
const resumeTimeout = 4 * time.Minute

// resume follows, over new connections, a switch whose session was cut:
// it waits until the host's confirmation of this attempt (known by the
// token's hash) waits for the token, and returns its generation; or the
// result when it ended otherwise: rolled back, failed, or never armed.
func (d *deployer) resume(ctx context.Context, c *conn, exe, token string) (int, *HostResult) {
	want := sha256.Sum256([]byte(token))
	deadline := time.Now().Add(resumeTimeout + d.cfg.ConfirmTimeout)
	for {
		r := c.runNew(ctx, nil, exe+" confirm --show")
		var cf struct {
			Generation int    `json:"generation"`
			TokenHash  string `json:"tokenHash"`
			State      string `json:"state"`
		}
		if r.code == 0 && json.Unmarshal([]byte(r.stdout), &cf) == nil {
			mine := cf.TokenHash == hex.EncodeToString(want[:])
			switch {
			case !mine:
				return 0, &HostResult{Outcome: NotConfirmed, Message: "the session was cut before the switch armed its rollback timer: nothing waits for this attempt; a rerun deploys the host"}
			case cf.State == "waiting":
				return cf.Generation, nil
			case cf.State == "rolled-back":
				return 0, &HostResult{Outcome: RolledBack, Generation: cf.Generation, Message: "the session was cut during the switch, which went back by itself"}
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return 0, &HostResult{Outcome: NotConfirmed, Message: "the session was cut during the switch and the host did not answer again: it rolls back by itself unless a rerun confirms it: " + lastLine(r.stderr, nil)}
		}
		time.Sleep(time.Second)
	}
}

// lost is the result of a step whose command failed: unreachable when ssh
// failed, a failure otherwise.
func lost(step string, r result) HostResult {
	if r.code == exitSSH {
		return HostResult{Outcome: Unreachable, Message: step + ": " + lastLine(r.stderr, nil)}
	}
	if r.code == exitOverflow {
		return HostResult{Outcome: Failed, Message: step + ": " + r.stderr}
	}
	return HostResult{Outcome: Failed, Message: fmt.Sprintf("%s: exit %d: %s", step, r.code, lastLine(r.stderr, nil)), Output: r.stdout + r.stderr}
}

// exited says how a remote command ended: "exited N", or that it was
// stopped for printing too much.
func exited(r result) string {
	if r.code == exitOverflow {
		return "stopped: " + r.stderr
	}
	return "exited " + strconv.Itoa(r.code)
}

// activeGeneration reads the active generation from nodegen generations
// --json.
func activeGeneration(out string) (int, error) {
	var gens []struct {
		Number  int  `json:"number"`
		Current bool `json:"current"`
	}
	if err := json.Unmarshal([]byte(out), &gens); err != nil {
		return 0, fmt.Errorf("reading nodegen generations: %w", err)
	}
	for _, g := range gens {
		if g.Current {
			return g.Number, nil
		}
	}
	return 0, nil
}

// putFile is a shell command that writes stdin to path atomically, with
// mode.
func putFile(path, mode string) string {
	q := shellQuote(path)
	return fmt.Sprintf(`set -e; mkdir -p "$(dirname %[1]s)"; t=$(mktemp %[1]s.XXXXXX); trap 'rm -f "$t"' EXIT; cat > "$t"; chmod %[2]s "$t"; mv -f "$t" %[1]s; trap - EXIT`, q, mode)
}

// newToken returns a fresh token for one attempt's confirmation.
func newToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// fileHash is the SHA-256 of a file.
func fileHash(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
