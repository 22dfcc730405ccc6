//go:build linux

package deploy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/nspawntest"
	"github.com/nodegen/nodegen/internal/suitereport"
)

// sshRoot is the machines' root file system: the default one with
// OpenSSH's server, which starts at boot, and sudo, for a deploy as
// another user than root (one root for all the tests: one build).
var sshRoot = nspawntest.Root{Packages: []string{"openssh-server", "sudo"}}

// fleet is a set of machines that a deploy reaches over SSH, with the key
// and the ssh configuration made for the test.
type fleet struct {
	t        *testing.T
	dir      string // the test's files: key, ssh_config, hosts/
	sshCfg   string
	nodegen  string // the static nodegen binary, the deployer
	machines map[string]*nspawntest.Machine
	ports    map[string]string
	pub      []byte // the test key's public half
}

// settled waits, at most timeout, until no host waits for a confirmation
// or is activating, and returns each host's active generation and the
// state of its confirmation.
func (f *fleet) settled(timeout time.Duration, names ...string) map[string]string {
	f.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		states := map[string]string{}
		busy := false
		for _, n := range names {
			active, confirm := f.generation(n)
			states[n] = fmt.Sprintf("%d %s", active, confirm)
			busy = busy || active < 0 || confirm == "activating" || confirm == "waiting"
		}
		if !busy {
			return states
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("still waiting after %s: %v", timeout, states)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// newFleet boots one machine per name, each sshd reachable on a loopback
// port of its own (nspawntest's Forward), root's authorized key the
// test's.
func newFleet(t *testing.T, names ...string) *fleet {
	t.Helper()
	requireSSH(t)
	f := &fleet{t: t, dir: t.TempDir(), machines: map[string]*nspawntest.Machine{}, ports: map[string]string{}}
	f.nodegen = nspawntest.BuildStatic(t, "./cmd/nodegen")
	key := filepath.Join(f.dir, "key")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "nodegen-deploy-test", "-f", key).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	pub, err := os.ReadFile(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	f.pub = pub
	f.sshCfg = filepath.Join(f.dir, "ssh_config")
	cfg := fmt.Sprintf("Host *\n  IdentityFile %s\n  IdentitiesOnly yes\n  StrictHostKeyChecking no\n  UserKnownHostsFile /dev/null\n  LogLevel ERROR\n", key)
	if err := os.WriteFile(f.sshCfg, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		m := nspawntest.Boot(t, nspawntest.Options{Root: sshRoot})
		m.WriteFile("/root/.ssh/authorized_keys", pub, 0o600)
		m.MustRun("chmod", "700", "/root/.ssh")
		m.MustRun("systemctl", "is-active", "ssh.service")
		f.machines[name] = m
		_, port, _ := net.SplitHostPort(m.Forward(22))
		f.ports[name] = port
	}
	return f
}

// requireSSH skips the test (fails it under CI) without OpenSSH's client.
func requireSSH(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"ssh", "ssh-keygen"} {
		suitereport.Program(t, "deploy over OpenSSH (e2e/deploy)", tool, "Debian's openssh-client")
	}
}

// host writes the host file of name: its deployment options reach the
// machine's forwarded port with the test's ssh configuration, then body.
func (f *fleet) host(name, body string) string {
	f.t.Helper()
	return f.hostAt(name, f.ports[name], body)
}

func (f *fleet) hostAt(name, port, body string) string {
	f.t.Helper()
	text := fmt.Sprintf(`config "deployment" {
  targetHost = "127.0.0.1"
  targetPort = %s
  sshOptions = ["-F", %q]
}

config "environment.etc.\"deployed\"" {
  text = "host %s\n"
}
%s`, port, f.sshCfg, name, body)
	path := filepath.Join(f.dir, "hosts", name+".hcl")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		f.t.Fatal(err)
	}
	return path
}

// deploy runs nodegen deploy with args and returns its stdout, stderr and
// exit code.
func (f *fleet) deploy(args ...string) (string, string, int) {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, f.nodegen, append([]string{"deploy"}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = append(os.Environ(), "HOME="+f.dir)
	start := time.Now()
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		f.t.Fatalf("nodegen deploy: %v", err)
	}
	f.t.Logf("nodegen deploy %s: exit %d in %s\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, time.Since(start).Round(time.Millisecond), stdout.String(), stderr.String())
	return stdout.String(), stderr.String(), code
}

// generation is what the machine's nodegen says of its generations: the
// active one (0: none) and the state of its confirmation ("" without).
func (f *fleet) generation(name string) (active int, confirm string) {
	f.t.Helper()
	m := f.machines[name]
	out, _, code, err := m.Run("sh", "-c", "ls /var/lib/nodegen/deploy/nodegen-* | head -1")
	if err != nil || code != 0 || strings.TrimSpace(out) == "" {
		return 0, ""
	}
	exe := strings.TrimSpace(out)
	var gens []struct {
		Number  int  `json:"number"`
		Current bool `json:"current"`
	}
	// A rollback holds the system's lock for a moment: -1 says "ask again".
	listing, stderr, code, err := m.Run(exe, "generations", "--json")
	if err != nil || code != 0 {
		f.t.Logf("%s: nodegen generations: exit %d, %v: %s", name, code, err, strings.TrimSpace(stderr))
		return -1, ""
	}
	if err := json.Unmarshal([]byte(listing), &gens); err != nil {
		f.t.Fatal(err)
	}
	for _, g := range gens {
		if g.Current {
			active = g.Number
		}
	}
	if data, _, code, _ := m.Run("cat", "/var/lib/nodegen/confirm.json"); code == 0 {
		var c struct{ State string }
		json.Unmarshal([]byte(data), &c)
		confirm = c.State
	}
	return active, confirm
}

// waitGeneration waits, at most timeout, until the machine's active
// generation is want with its confirmation in state.
func (f *fleet) waitGeneration(name string, want int, state string, timeout time.Duration) {
	f.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		active, confirm := f.generation(name)
		if active == want && confirm == state {
			return
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("%s: generation %d (%q), not %d (%q), after %s\n%s", name, active, confirm, want, state, timeout,
				f.machines[name].MustRun("journalctl", "-u", "nodegen-rollback-*", "--no-pager", "-n", "40"))
		}
		time.Sleep(300 * time.Millisecond)
	}
}
