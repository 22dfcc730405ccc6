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
	"slices"
	"strconv"
	"strings"
	"time"
)

// remoteDir is where a deploy keeps the nodegen binaries and profiles it
// copied to a host, each named by its hash, so that a rerun copies only
// what is missing.
const remoteDir = "/var/lib/nodegen/deploy"

// Outcome is how a host's deploy ended.
type Outcome string

// The outcomes, from best to worst.
const (
	Confirmed    Outcome = "confirmed"   // the new generation runs, confirmed
	Planned      Outcome = "planned"     // --dry-run: the plan was shown
	Failed       Outcome = "failed"      // the activation failed (units, refusal); the host went back
	NotConfirmed Outcome = "rolled-back" // not confirmed in time: the host rolls back by itself
	Unreachable  Outcome = "unreachable" // no connection, or lost before the switch
	Skipped      Outcome = "skipped"     // not tried: the failure budget stopped the deploy
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
	// Output is what nodegen printed on the host, for failures and plans.
	Output string `json:"output,omitempty"`
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
	// Event receives the progress of each host (from several goroutines,
	// one call at a time).
	Event func(Event)
}

// Event is one step of one host's deploy.
type Event struct {
	// Host is the host's name.
	Host string `json:"host"`
	// Step is connect, copy-binary, copy-profile, keys, switch,
	// reconnect, confirm or done.
	Step string `json:"step"`
	// Message says more of the step.
	Message string `json:"message,omitempty"`
	// Result is the host's result, with Step done.
	Result *HostResult `json:"result,omitempty"`
}

// deployer is one host's deploy.
type deployer struct {
	cfg     *Config
	h       Host
	binHash string
	emit    func(step, msg string)
}

// genLine is the line of nodegen switch that names the generation waiting
// for its confirmation.
var genLine = regexp.MustCompile(`(?m)^waiting for confirmation: generation (\d+)`)

func (d *deployer) run(ctx context.Context) HostResult {
	start := time.Now()
	r := d.deploy(ctx)
	r.Host, r.Seconds = d.h.Name, time.Since(start).Seconds()
	return r
}

func (d *deployer) deploy(ctx context.Context) HostResult {
	dir, err := tempDir()
	if err != nil {
		return HostResult{Outcome: Unreachable, Message: err.Error()}
	}
	defer os.RemoveAll(dir)
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

	phash, err := profileHash(d.h.Profile)
	if err != nil {
		return HostResult{Outcome: Failed, Message: err.Error()}
	}
	prof := remoteDir + "/profiles/" + phash[:32]
	if r := c.run(ctx, nil, "test -f "+prof+"/nodegen-profile.json"); r.code == exitSSH {
		return lost("checking the profile", r)
	} else if r.code != 0 {
		// The host says which files it has no copy of; only those go.
		manifest, err := os.ReadFile(filepath.Join(d.h.Profile, "nodegen-profile.json"))
		if err != nil {
			return HostResult{Outcome: Failed, Message: err.Error()}
		}
		r := c.run(ctx, bytes.NewReader(manifest), exe+" receive --missing "+prof)
		if r.code != 0 {
			return lost("asking the host which files it lacks", r)
		}
		var missing []string
		for _, line := range strings.Split(r.stdout, "\n") {
			if line != "" {
				missing = append(missing, line)
			}
		}
		d.emit("copy-profile", fmt.Sprintf("%s: %d file(s) the host lacks", prof, len(missing)))
		var buf bytes.Buffer
		if err := tarFiles(&buf, d.h.Profile, missing); err != nil {
			return HostResult{Outcome: Failed, Message: err.Error()}
		}
		if r := c.run(ctx, &buf, exe+" receive "+prof); r.code != 0 {
			return lost("copying the profile", r)
		}
	}

	if d.cfg.DryRun {
		r := c.run(ctx, nil, exe+" switch --dry-run"+d.backupFlag()+" "+prof)
		if r.code == exitSSH {
			return lost("nodegen switch --dry-run", r)
		}
		out := HostResult{Outcome: Planned, Output: r.stdout + r.stderr}
		if r.code != 0 {
			out.Outcome, out.Message = Failed, "nodegen switch --dry-run exited "+strconv.Itoa(r.code)
		}
		return out
	}

	names := sortedKeys(d.h.Options.Keys)
	if len(names) > 0 {
		d.emit("keys", strings.Join(names, " "))
	}
	for _, name := range names {
		k := d.h.Options.Keys[name]
		data, err := keyData(k)
		if err != nil {
			return HostResult{Outcome: Failed, Message: fmt.Sprintf("deployment.keys.%s: %v", name, err)}
		}
		if r := c.run(ctx, bytes.NewReader(data), putKey(k)); r.code != 0 {
			return lost("writing deployment.keys."+name, r)
		}
	}

	token, err := newToken()
	if err != nil {
		return HostResult{Outcome: Failed, Message: err.Error()}
	}
	d.emit("switch", "")
	secs := int((d.cfg.ConfirmTimeout + time.Second - 1) / time.Second)
	sw := c.run(ctx, nil, fmt.Sprintf("%s switch%s --rollback-on-failure --confirm-timeout %ds --confirm-token %s %s", exe, d.backupFlag(), secs, token, prof))
	m := genLine.FindStringSubmatch(sw.stdout)
	var gen int
	switch {
	case sw.code == exitSSH && m == nil:
		// The session was cut during the switch, which goes on on the
		// host: a new connection finds out how it ends.
		d.emit("reconnect", lastLine(sw.stderr, nil))
		var r *HostResult
		if gen, r = d.resume(ctx, c, exe, token); r != nil {
			r.Output = sw.stdout + sw.stderr + r.Output
			return *r
		}
	case sw.code != 0 || m == nil:
		return HostResult{Outcome: Failed, Output: sw.stdout + sw.stderr, Message: "nodegen switch exited " + strconv.Itoa(sw.code)}
	default:
		gen, _ = strconv.Atoi(m[1])
	}

	// The confirmation goes over a new connection, tried until the
	// host's deadline: a generation that keeps the deployer out is never
	// confirmed.
	d.emit("confirm", "generation "+strconv.Itoa(gen))
	deadline := time.Now().Add(d.cfg.ConfirmTimeout)
	var last result
	for {
		last = c.runNew(ctx, fmt.Sprintf("%s confirm %d %s >&2 && %s generations --json", exe, gen, token, exe))
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
		r := c.runNew(ctx, exe+" confirm --show")
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
				return 0, &HostResult{Outcome: Failed, Generation: cf.Generation, Message: "the session was cut during the switch, which went back by itself"}
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
	return HostResult{Outcome: Failed, Message: fmt.Sprintf("%s: exit %d: %s", step, r.code, lastLine(r.stderr, nil)), Output: r.stdout + r.stderr}
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

// putKey is a shell command that writes a key from stdin into its
// directory, owned and with the mode it asks for before it has any
// content. The directory is made readable by root only when it is new.
func putKey(k Key) string {
	dir, file := shellQuote(k.DestDir), shellQuote(filepath.Join(k.DestDir, k.Name))
	return fmt.Sprintf(`set -e; umask 077; [ -d %[1]s ] || { mkdir -p %[1]s; chmod 0751 %[1]s; }; t=$(mktemp %[2]s.XXXXXX); trap 'rm -f "$t"' EXIT; chown %[3]s:%[4]s "$t"; chmod %[5]s "$t"; cat > "$t"; mv -f "$t" %[2]s; trap - EXIT`,
		dir, file, shellQuote(k.User), shellQuote(k.Group), shellQuote(k.Permissions))
}

// keyData is the content of a key.
func keyData(k Key) ([]byte, error) {
	if k.Text != nil {
		return []byte(*k.Text), nil
	}
	if k.KeyFile != nil {
		return os.ReadFile(*k.KeyFile)
	}
	return nil, fmt.Errorf("neither text nor keyFile is set")
}

// newToken returns a fresh token for one attempt's confirmation.
func newToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// profileHash is the SHA-256 of a profile's manifest, which names every
// file of the profile with its hash.
func profileHash(dir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, "nodegen-profile.json"))
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
