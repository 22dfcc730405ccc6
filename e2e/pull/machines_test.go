//go:build linux

package pull

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"oras.land/oras-go/v2/registry/remote"

	"github.com/nodegen/nodegen/internal/machine"
	"github.com/nodegen/nodegen/internal/nspawntest"
	"github.com/nodegen/nodegen/internal/suitereport"
)

const machineSuite = "pull e2e on nspawn machines (docker-registry)"

// Timing of the machines' pull timers: short, so that the test sees many
// pulls; the module's default is 5min with 1min of jitter.
const (
	pullInterval = "4s"
	pullJitter   = "2s"
	// pullWait bounds the wait for every host to have pulled once more:
	// the interval, the jitter, a pull, and a loaded machine's delays.
	pullWait = 90 * time.Second
)

// nsClient is an HTTP client whose connections are made in the network
// namespace at nsPath: the test's way to the registry the machines use.
func nsClient(nsPath string) *http.Client {
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		var c net.Conn
		err := machine.InNetNS(nsPath, func() error {
			var err error
			c, err = (&net.Dialer{}).DialContext(ctx, network, addr)
			return err
		})
		return c, err
	}
	return &http.Client{Transport: &http.Transport{DialContext: dial}}
}

// pullHost is a booted machine that pulls on its timer.
type pullHost struct {
	*nspawntest.Machine
	t    *testing.T
	file hostFile
}

// run runs a command in the machine and returns its stdout and exit code.
func (h *pullHost) run(args ...string) (string, int) {
	out, _, code, err := h.Run(args...)
	if err != nil {
		return "", -1
	}
	return out, code
}

// generation is the active generation's number (0: none).
func (h *pullHost) generation() int {
	out, code := h.run("readlink", "/var/lib/nodegen/current")
	if code != 0 {
		return 0
	}
	n, _ := strconv.Atoi(filepath.Base(strings.TrimSpace(out)))
	return n
}

// own is /etc/own.txt, the host's own file.
func (h *pullHost) own() string {
	out, _ := h.run("cat", "/etc/own.txt")
	return out
}

// status is nodegen status's output.
func (h *pullHost) status() string {
	out, _ := h.run("nodegen", "status")
	return out
}

// pullState is what systemd says of the host's pull timer and service,
// and the service's last journal lines: why a host did not pull.
func (h *pullHost) pullState() string {
	st, _, _, _ := h.Run("systemctl", "status", "--no-pager", "--lines=0", "nodegen-pull.timer", "nodegen-pull.service")
	timers, _, _, _ := h.Run("systemctl", "list-timers", "--all", "--no-pager", "nodegen-pull.timer")
	journal, err := h.Machine.Machine.Journal("nodegen-pull.service", 30)
	if err != nil {
		journal = err.Error() + "\n"
	}
	return st + timers + journal
}

var lastPullRE = regexp.MustCompile(`last pull: (\S+)`)

// pulledSince reports whether the host's last pull, by its timer, began
// after t (the state's time has seconds).
func (h *pullHost) pulledSince(t time.Time, status string) bool {
	m := lastPullRE.FindStringSubmatch(status)
	if m == nil {
		return false
	}
	at, err := time.Parse(time.RFC3339, m[1])
	return err == nil && at.After(t.Truncate(time.Second))
}

// waitFor polls check on every host in hosts until it holds for each, or
// fails the test after timeout with each host's last word on why not. It
// returns the time from start until each host was done.
func waitFor(t *testing.T, what string, start time.Time, timeout time.Duration, hosts []*pullHost, check func(h *pullHost) (bool, string)) map[string]time.Duration {
	t.Helper()
	took := map[string]time.Duration{}
	why := map[string]string{}
	deadline := time.Now().Add(timeout)
	for {
		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, h := range hosts {
			if _, done := took[h.file.name]; done {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, w := check(h)
				mu.Lock()
				defer mu.Unlock()
				if ok {
					took[h.file.name] = time.Since(start)
				}
				why[h.file.name] = w
			}()
		}
		wg.Wait()
		if len(took) == len(hosts) {
			t.Logf("%s: %v", what, took)
			return took
		}
		if time.Now().After(deadline) {
			var b strings.Builder
			for _, h := range hosts {
				if _, done := took[h.file.name]; !done {
					fmt.Fprintf(&b, "---- %s: %s\n%s", h.file.name, why[h.file.name], h.pullState())
				}
			}
			t.Fatalf("%s: not within %s:\n%s", what, timeout, b.String())
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// applied checks that the host runs the profile of version (its own
// file says "HOST VERSION"), confirmed.
func applied(version string) func(h *pullHost) (bool, string) {
	return func(h *pullHost) (bool, string) {
		own, st := h.own(), h.status()
		ok := own == h.file.name+" "+version+"\n" && strings.Contains(st, ", confirmed") && !strings.Contains(st, "last error")
		return ok, fmt.Sprintf("own.txt %q, generation %d, status:\n%s", own, h.generation(), st)
	}
}

// TestPullMachines boots three stock machines on a network of their own,
// with the registry at the network's gateway. Each gets nodegen and the
// publisher's public key, as a deployer would copy them, and its first
// generation by a first nodegen pull that names everything with flags;
// from then on only the machines' nodegen-pull.timer pulls. It checks
// that a publish reaches all three, a wave of one then the rest by
// promotion, that a replayed older manifest, a manifest signed by an
// unknown key, an expired one and a tampered blob are each refused with
// nothing changed (the generation and the files as they were, nodegen
// status showing the error), that the registry stopped for a while
// changes nothing and the hosts catch up when it is back, and that a
// generation whose health check fails is rolled back on that host alone,
// through the live rollback timer and confirmation.
func TestPullMachines(t *testing.T) {
	bin := suitereport.Program(t, machineSuite, "docker-registry", "Debian's docker-registry", "/usr/bin")
	suitereport.Root(t, machineSuite, "booting systemd-nspawn machines")
	nodegen := nspawntest.BuildStatic(t, "github.com/nodegen/nodegen/cmd/nodegen")
	network := nspawntest.NewNetwork(t, "10.90.0.1/24")
	inNetwork := func(name string, args ...string) *exec.Cmd {
		return network.Command(context.Background(), name, args...)
	}
	client := nsClient(network.NSPath())
	dir := t.TempDir()
	addr := network.Gateway() + ":5000"
	os.MkdirAll(filepath.Join(dir, "registry"), 0o755)
	reg := startRegistryWith(&registry{t: t, bin: bin, dir: filepath.Join(dir, "registry"), addr: addr, command: inNetwork, client: client})
	e := &env{t: t, nodegen: nodegen, dir: dir, reg: reg, registry: addr + "/fleet", command: inNetwork}
	k1 := newKey(t, dir, "k1")
	k2 := newKey(t, dir, "k2")
	repo, err := remote.NewRepository(e.registry)
	if err != nil {
		t.Fatal(err)
	}
	repo.PlainHTTP = true
	repo.Client = client
	ctx := context.Background()

	var hosts []*pullHost
	files := func(version string) []hostFile {
		var out []hostFile
		for _, h := range hosts {
			h.file.text = h.file.name + " " + version
			out = append(out, h.file)
		}
		return out
	}
	for _, name := range []string{"web1", "web2", "web3"} {
		hosts = append(hosts, &pullHost{t: t, file: hostFile{name: name, channel: "stable", trusted: []keyPair{k1}, interval: pullInterval, jitter: pullJitter}})
	}
	published := e.publish(k1, "stable", nil, files("v1")...)
	t.Logf("published v1: %d bytes", published)

	// The machines: what a provider gives (a network), then what a
	// deployer copies (nodegen, the public key) and the first pull.
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		for _, h := range hosts {
			if h.Machine != nil {
				t.Logf("---- %s: nodegen status:\n%s---- journal of nodegen-pull:\n%s", h.file.name, h.status(), h.Journal("nodegen-pull.service", 40))
			}
		}
	})
	for i, h := range hosts {
		h.Machine = nspawntest.Boot(t, nspawntest.Options{HostName: h.file.name})
		network.Attach(h.Machine, fmt.Sprintf("10.90.0.%d", 10+i))
		h.CopyFile(nodegen, "/usr/local/bin/nodegen", 0o755)
		h.CopyFile(k1.pub, "/root/publish.pub", 0o644)
	}
	for _, h := range hosts {
		stdout, stderr, code, err := h.RunFor(3*time.Minute, "nodegen", "pull", "--registry", e.registry, "--plain-http", "--channel", "stable", "--host", h.file.name, "--trusted-key", "/root/publish.pub")
		if err != nil || code != 0 {
			t.Fatalf("%s: the first pull: exit %d, %v\n%s%s", h.file.name, code, err, stdout, stderr)
		}
		if h.generation() != 1 || h.own() != h.file.name+" v1\n" {
			t.Fatalf("%s: after the first pull: generation %d, own.txt %q", h.file.name, h.generation(), h.own())
		}
		if out, code := h.run("systemctl", "is-active", "nodegen-pull.timer"); code != 0 {
			t.Fatalf("%s: nodegen-pull.timer is %s", h.file.name, out)
		}
	}

	// A publish reaches all three, by their timers (the first fires a
	// minute after boot).
	e.publish(k1, "stable", nil, files("v2")...)
	waitFor(t, "v2 applied by every host", time.Now(), pullWait+time.Minute, hosts, applied("v2"))
	v2 := map[string]string{}
	for _, h := range hosts {
		d, err := repo.Resolve(ctx, h.file.name+"_stable")
		if err != nil {
			t.Fatal(err)
		}
		v2[h.file.name] = string(d.Digest)
	}

	// A wave: v3 to canary, web1 promoted first; web2 and web3 pull and
	// stay on v2 until the rest are promoted.
	e.publish(k1, "canary", nil, files("v3")...)
	e.mustRun(0, "promote", "--registry", e.registry, "--plain-http", "--from", "canary", "--to", "stable", "web1")
	start := time.Now()
	took := waitFor(t, "web1 on v3, promoted alone", start, pullWait, hosts[:1], applied("v3"))
	measure(t, "publish to applied (web1, promoted)", took)
	waitFor(t, "web2 and web3 pulled since and are still on v2", start, pullWait, hosts[1:], func(h *pullHost) (bool, string) {
		st := h.status()
		return h.pulledSince(start, st) && h.own() == h.file.name+" v2\n", st
	})
	e.mustRun(0, "promote", "--registry", e.registry, "--plain-http", "--from", "canary", "--to", "stable")
	took = waitFor(t, "web2 and web3 on v3, promoted", time.Now(), pullWait, hosts[1:], applied("v3"))
	measure(t, "publish to applied (web2, web3, promoted)", took)

	// What every host refuses, changing nothing: its generation and files
	// stay, and nodegen status says why.
	refused := func(what string, code int, want string, act func()) {
		t.Helper()
		before := map[string]int{}
		own := map[string]string{}
		for _, h := range hosts {
			before[h.file.name], own[h.file.name] = h.generation(), h.own()
		}
		start := time.Now()
		act()
		waitFor(t, what+": refused", start, pullWait, hosts, func(h *pullHost) (bool, string) {
			st := h.status()
			ok := h.pulledSince(start, st) && strings.Contains(st, fmt.Sprintf("last error (exit %d)", code)) && strings.Contains(st, want)
			return ok, st
		})
		for _, h := range hosts {
			if g, o := h.generation(), h.own(); g != before[h.file.name] || o != own[h.file.name] {
				t.Errorf("%s: %s: generation %d, own.txt %q; before: %d, %q", what, h.file.name, g, o, before[h.file.name], own[h.file.name])
			}
		}
	}
	refused("a replayed older manifest", 22, "is not greater than", func() {
		for _, h := range hosts {
			d, err := repo.Resolve(ctx, v2[h.file.name])
			if err != nil {
				t.Fatal(err)
			}
			if err := repo.Tag(ctx, d, h.file.name+"_stable"); err != nil {
				t.Fatal(err)
			}
		}
	})
	refused("a manifest signed by an unknown key", 21, "not trusted here", func() {
		e.publish(k2, "stable", nil, files("v4 by an unknown key")...)
	})
	refused("an expired manifest", 23, "expired at", func() {
		e.publish(k1, "stable", []string{"--expires", "1ms"}, files("v4 expired")...)
	})
	refused("a tampered blob", 21, "mismatched digest", func() {
		// Published to a channel no host follows, tampered with, then
		// promoted: no host can have fetched it untampered.
		e.publish(k1, "staging", nil, files("v5 tampered")...)
		tampered := 0
		filepath.WalkDir(filepath.Join(dir, "registry/storage/docker/registry/v2/blobs"), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || d.Name() != "data" {
				return nil
			}
			b, _ := os.ReadFile(p)
			if strings.HasSuffix(string(b), " v5 tampered\n") {
				os.WriteFile(p, []byte(strings.ToUpper(string(b))), 0o644)
				tampered++
			}
			return nil
		})
		if tampered != len(hosts) {
			t.Fatalf("found %d blobs to tamper with, want %d", tampered, len(hosts))
		}
		e.mustRun(0, "promote", "--registry", e.registry, "--plain-http", "--from", "staging", "--to", "stable")
	})

	// The registry down for a while: nothing changes; back up, the hosts
	// catch up with the next publish.
	gens := map[string]int{}
	for _, h := range hosts {
		gens[h.file.name] = h.generation()
	}
	refused("the registry stopped", 20, "nothing changed: the host runs what it ran", reg.stop)
	time.Sleep(5 * time.Second)
	for _, h := range hosts {
		if g := h.generation(); g != gens[h.file.name] {
			t.Errorf("%s: generation %d with the registry down, want %d", h.file.name, g, gens[h.file.name])
		}
	}
	reg.start()
	e.publish(k1, "stable", nil, files("v6")...)
	took = waitFor(t, "every host on v6 once the registry is back", time.Now(), pullWait, hosts, applied("v6"))
	measure(t, "publish to applied (every host, after the outage)", took)

	// A generation whose health check fails on web3 alone: web3 goes back
	// by itself, through the rollback timer's confirmation; the others
	// confirm it.
	web3 := hosts[2]
	web3.file.health = "exit 1"
	before := web3.generation()
	start = time.Now()
	e.publish(k1, "stable", nil, files("v7")...)
	took = waitFor(t, "web1 and web2 on v7", start, pullWait, hosts[:2], applied("v7"))
	measure(t, "publish to applied (web1, web2)", took)
	// (The failed pull's "last error (exit 16)" lasts in the status only
	// until the next pull, a few seconds later, which may come before
	// this wait begins, after web2's: the journal keeps its exit.)
	waitFor(t, "web3 rolled v7 back", start, pullWait, hosts[2:], func(h *pullHost) (bool, string) {
		st := h.status()
		ok := h.pulledSince(start, st) && strings.Contains(st, ", rolled back") && strings.Contains(st, "health check check failed")
		return ok, st
	})
	if g, o := web3.generation(), web3.own(); g != before || o != "web3 v6\n" {
		t.Errorf("web3 after its failed health check: generation %d, own.txt %q; want %d, web3 v6", g, o, before)
	}
	if j := web3.Journal("nodegen-pull.service", 200); !strings.Contains(j, "going back") || !strings.Contains(j, "status=16") {
		t.Errorf("web3's nodegen-pull.service did not go back and exit 16 (unhealthy):\n%s", j)
	}
	if st := web3.status(); !regexp.MustCompile(fmt.Sprintf(`generation %d, rolled back`, before+1)).MatchString(st) {
		t.Errorf("web3's status does not name generation %d as rolled back:\n%s", before+1, st)
	}
	// It does not try v7 again.
	start = time.Now()
	waitFor(t, "web3 pulled again, staying on v6", start, pullWait, hosts[2:], func(h *pullHost) (bool, string) {
		st := h.status()
		return h.pulledSince(start, st) && h.generation() == before && h.own() == "web3 v6\n", st
	})
}

// measure logs the times from a publish or promotion to each host having
// applied it, as MEASURE lines.
func measure(t *testing.T, what string, took map[string]time.Duration) {
	t.Helper()
	var most time.Duration
	for _, d := range took {
		most = max(most, d)
	}
	t.Logf("MEASURE %s: %v (slowest %s; timer interval %s, jitter %s)", what, took, most.Round(100*time.Millisecond), pullInterval, pullJitter)
}
