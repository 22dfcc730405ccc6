//go:build linux

package stock

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/nspawntest"
	"github.com/nodegen/nodegen/internal/suitereport"
)

// suite names the test in the report of make test (internal/suitereport).
const suite = "e2e/stock"

// unavailable stops t because something the test needs is missing: a
// skip that says why, recorded in the suite report, or a failure where CI
// is set.
func unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	why := fmt.Sprintf(format, args...)
	if os.Getenv("CI") != "" {
		t.Fatalf("%s: %s (CI is set, so this fails instead of skipping)", suite, why)
	}
	suitereport.Skip(t, suite, why)
}

// requireTools stops t unless the deployer's programs are installed.
func requireTools(t testing.TB) {
	t.Helper()
	for _, tool := range []struct{ name, pkg string }{
		{"ssh", "openssh-client"}, {"ssh-keygen", "openssh-client"}, {"go", "golang"},
	} {
		if _, err := exec.LookPath(tool.name); err != nil {
			unavailable(t, "the %s command is missing (package %s)", tool.name, tool.pkg)
		}
	}
}

// timeline records when the steps of the test were reached, from its
// start; note may be called from any goroutine.
type timeline struct {
	t     *testing.T
	start time.Time
	mu    sync.Mutex
	marks []string
}

func newTimeline(t *testing.T) *timeline {
	tl := &timeline{t: t, start: time.Now()}
	t.Cleanup(func() { t.Logf("timeline of %s:\n%s", t.Name(), tl) })
	return tl
}

// mark records and logs that the step what was reached now.
func (tl *timeline) mark(what string) {
	tl.note(what)
}

// note records and logs a line of what happened now.
func (tl *timeline) note(what string) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	line := fmt.Sprintf("%7.1fs  %s", time.Since(tl.start).Seconds(), what)
	tl.marks = append(tl.marks, line)
	tl.t.Log(line)
}

// String is the timeline so far, a line a step.
func (tl *timeline) String() string {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	return strings.Join(tl.marks, "\n")
}

// deployer is the operator's machine: the host files of the walk-through
// in a directory of its own, the static nodegen command, and an SSH key
// and client configuration; it runs its commands in the test network,
// where it reaches the machines and the mirror.
type deployer struct {
	t       *testing.T
	tl      *timeline
	network *nspawntest.Network
	dir     string // common.hcl and hosts/ (the walk-through's), nspawn.hcl, fleet/, ssh/
	nodegen string
	sshCfg  string
	pub     []byte // the key's public half, which the machines authorize
	extra   map[string]string
	names   []string // the hosts of fleet/, in order
}

// hosts are the walk-through's hosts and their addresses in the network
// (testdata/walkthrough/hosts/*.hcl's deployment.targetHost).
var hosts = []hostAddress{
	{"master01", "10.88.0.10"},
	{"worker01", "10.88.0.11"},
}

// newDeployer copies the walk-through's files (testdata/walkthrough) and
// the container overlay (testdata/nspawn.hcl) into a new directory, writes
// a host file per host in fleet/ that imports both (fleet/NAME.hcl), makes
// an SSH key and the ssh configuration that uses it, and builds nodegen.
func newDeployer(t *testing.T, tl *timeline, network *nspawntest.Network) *deployer {
	t.Helper()
	var names []string
	for _, h := range hosts {
		names = append(names, h.name)
	}
	return newDeployerOf(t, tl, network, "testdata/walkthrough", names)
}

// newDeployerOf is newDeployer for the host files in src (common files
// and hosts/NAME.hcl), of the hosts names.
func newDeployerOf(t *testing.T, tl *timeline, network *nspawntest.Network, src string, names []string) *deployer {
	t.Helper()
	d := &deployer{t: t, tl: tl, network: network, dir: t.TempDir(), extra: map[string]string{}, names: names}
	if out, err := exec.Command("cp", "-R", src+"/.", d.dir).CombinedOutput(); err != nil {
		t.Fatalf("copying the host files of %s: %v\n%s", src, err, out)
	}
	if out, err := exec.Command("cp", "testdata/nspawn.hcl", d.dir).CombinedOutput(); err != nil {
		t.Fatalf("copying the overlay: %v\n%s", err, out)
	}
	key := filepath.Join(d.dir, "ssh", "id_ed25519")
	if err := os.MkdirAll(filepath.Dir(key), 0o700); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "nodegen-e2e-stock", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	pub, err := os.ReadFile(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	d.pub = pub
	d.sshCfg = filepath.Join(d.dir, "ssh", "config")
	cfg := fmt.Sprintf("Host *\n  User root\n  IdentityFile %s\n  IdentitiesOnly yes\n  StrictHostKeyChecking accept-new\n  UserKnownHostsFile %s\n  LogLevel ERROR\n",
		key, filepath.Join(d.dir, "ssh", "known_hosts"))
	if err := os.WriteFile(d.sshCfg, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		d.writeHost(n)
	}
	d.nodegen = nspawntest.BuildStatic(t, "./cmd/nodegen")
	return d
}

// writeHost writes fleet/NAME.hcl: the walk-through's host, in a
// systemd-nspawn machine (the overlay), reached with the test's ssh
// configuration (where an operator has ~/.ssh/config), and the settings
// d.extra[name] holds.
func (d *deployer) writeHost(name string) {
	d.t.Helper()
	text := fmt.Sprintf(`# The test's %[1]s: the walk-through's host in a systemd-nspawn machine.
imports = ["../hosts/%[1]s.hcl", "../nspawn.hcl"]

config "deployment" {
  sshOptions = ["-F", %[2]q]
}
%[3]s`, name, d.sshCfg, d.extra[name])
	path := filepath.Join(d.dir, "fleet", name+".hcl")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		d.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		d.t.Fatal(err)
	}
}

// setExtra makes body the settings the test adds to the host name, as an
// operator edits its host file.
func (d *deployer) setExtra(name, body string) {
	d.t.Helper()
	d.extra[name] = body
	d.writeHost(name)
}

// fleet returns the paths of the host files of names (every host when
// none is given), relative to d.dir.
func (d *deployer) fleet(names ...string) []string {
	if len(names) == 0 {
		names = d.names
	}
	var files []string
	for _, n := range names {
		files = append(files, "fleet/"+n+".hcl")
	}
	return files
}

// result is what a command printed and its exit code.
type result struct {
	stdout, stderr string
	code           int
	took           time.Duration
}

// run runs name with args in d.dir, in the test network, with stdin, and
// returns what it printed; it fails the test when the command cannot run
// or takes more than timeout.
func (d *deployer) run(timeout time.Duration, stdin []byte, name string, args ...string) result {
	d.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := d.network.Command(ctx, name, args...)
	cmd.Dir = d.dir
	cmd.Env = append(os.Environ(), "HOME="+d.dir)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String(), took: time.Since(start)}
	if ctx.Err() != nil {
		d.t.Fatalf("%s %s: not done within %s\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), timeout, r.stdout, r.stderr)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		d.t.Fatalf("%s: %v", name, err)
	}
	return r
}

// ng runs the deployer's nodegen with args, bounded by ten minutes, and
// logs what it printed.
func (d *deployer) ng(args ...string) result {
	d.t.Helper()
	r := d.run(10*time.Minute, nil, d.nodegen, args...)
	d.t.Logf("nodegen %s: exit %d in %s\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, r.took.Round(time.Millisecond), r.stdout, r.stderr)
	return r
}

// deploy runs nodegen deploy of the hosts names (every host when none is
// given), marks it on the timeline and returns its result.
func (d *deployer) deploy(what string, names ...string) result {
	d.t.Helper()
	r := d.ng(append([]string{"deploy", "--json"}, d.fleet(names...)...)...)
	d.tl.mark(fmt.Sprintf("%s: nodegen deploy exit %d in %s", what, r.code, r.took.Round(100*time.Millisecond)))
	return r
}

// mustDeploy is deploy that fails the test unless every host was
// confirmed.
func (d *deployer) mustDeploy(what string, names ...string) result {
	d.t.Helper()
	r := d.deploy(what, names...)
	if r.code != 0 {
		d.t.Fatalf("%s: nodegen deploy %s exited %d, want 0 (every host confirmed):\n%s", what, strings.Join(d.fleet(names...), " "), r.code, hostOutputs(r.stdout))
	}
	return r
}

// outcomes returns each host's outcome (confirmed, rolled-back, failed,
// ...) from the JSON events of nodegen deploy --json.
func outcomes(events string) map[string]string {
	out := map[string]string{}
	for _, e := range doneEvents(events) {
		out[e.Host] = e.Outcome
	}
	return out
}

// doneEvent is the result of a host in nodegen deploy --json's events.
type doneEvent struct {
	Host, Outcome, Message, Output string
}

// doneEvents returns the results of the hosts, from the JSON events of
// nodegen deploy --json.
func doneEvents(events string) []doneEvent {
	var out []doneEvent
	for _, line := range strings.Split(events, "\n") {
		var e struct {
			Step   string    `json:"step"`
			Result doneEvent `json:"result"`
		}
		if json.Unmarshal([]byte(line), &e) == nil && e.Step == "done" {
			out = append(out, e.Result)
		}
	}
	return out
}

// hostOutputs returns, from the JSON events of nodegen deploy --json,
// each host's outcome and message, and the end of what its switch
// printed.
func hostOutputs(events string) string {
	var b strings.Builder
	for _, e := range doneEvents(events) {
		fmt.Fprintf(&b, "---- %s: %s: %s\n%s\n", e.Host, e.Outcome, e.Message, lastLines(e.Output, 40))
	}
	return b.String()
}

// ssh runs the command line words on the host at address over SSH, as
// the deployer's ssh does, each word quoted for the remote shell.
func (d *deployer) ssh(address string, stdin []byte, words ...string) result {
	d.t.Helper()
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return d.run(2*time.Minute, stdin, "ssh", "-F", d.sshCfg, "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", address, strings.Join(quoted, " "))
}

// packages returns the Debian packages the profiles of the hosts need
// (environment.packages), as nodegen eval reports them.
func (d *deployer) packages() []string {
	d.t.Helper()
	var all []string
	for _, file := range d.fleet() {
		r := d.run(time.Minute, nil, d.nodegen, "eval", "-A", "environment.packages", file)
		if r.code != 0 {
			d.t.Fatalf("nodegen eval -A environment.packages %s: exit %d:\n%s", file, r.code, r.stderr)
		}
		var pkgs map[string]struct {
			Enable bool `json:"enable"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &pkgs); err != nil {
			d.t.Fatalf("nodegen eval -A environment.packages %s: %v", file, err)
		}
		for name, p := range pkgs {
			if p.Enable {
				all = append(all, name)
			}
		}
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
