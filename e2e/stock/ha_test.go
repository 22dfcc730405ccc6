//go:build linux

package stock

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// haHosts are the hosts of testdata/ha: three control-plane members and a
// worker, at their addresses in the test network (their
// deployment.targetHost).
var haHosts = []hostAddress{
	{"master01", "10.88.0.21"},
	{"master02", "10.88.0.22"},
	{"master03", "10.88.0.23"},
	{"worker01", "10.88.0.31"},
}

// TestHACluster brings up a highly available control plane as
// docs/kubernetes.md's "A highly available control plane" does: three
// masters and a worker on stock Debian machines, from one set of host
// files (testdata/ha, the masters taking pods too), deployed at once with
// nodegen deploy. Every node gets Ready and etcd has three healthy
// members. A change of the kubelet's settings is rolled through the four
// nodes in waves, draining each, with a 2-replica Deployment and its
// PodDisruptionBudget available throughout (rollingChange); a change that
// makes a node NotReady rolls that node back and stops the waves
// (brokenChange). Then master01's machine (the CA's host, and the one
// whose kubectl the test used) is powered off: kubectl through master02
// still works, the worker stays Ready, and a new pod is scheduled and
// runs. The memory and CPU of the four machines are logged, idle and
// during the rolling change (BENCHMARKS.md).
func TestHACluster(t *testing.T) {
	// The operator's secrets, made once before the first deploy: the CA's
	// API token and the ServiceAccount key the masters share.
	// The masters take pods too (roles master and node: not tainted, not
	// unschedulable), so that a drained node's pods have somewhere to
	// go in the rolling changes.
	base := map[string]string{"worker01": ""}
	for _, m := range haHosts[:3] {
		base[m.name] = "\nconfig \"services.kubernetes\" {\n  roles = [\"node\"]\n}\n"
	}
	s := newStockCluster(t, "testdata/ha", haHosts, func(d *deployer) {
		writeSecrets(t, filepath.Join(d.dir, "secrets"))
		d.tl.mark("secrets/apitoken.secret and secrets/service-account-key.pem made")
		for n, extra := range base {
			d.setExtra(n, extra)
		}
	})
	tl, d, machines := s.tl, s.d, s.machines

	// One deploy of the whole fleet: the masters that are not the CA's
	// host, and the worker, wait for master01's CA.
	d.mustDeploy("the fleet (three masters and a worker)")
	c := &cluster{t: t, tl: tl, d: d, master: machines["master01"]}
	c.pollKubectl("apiserver /readyz ok through master01's load balancer", 5*time.Minute, "ok", "get", "--raw", "/readyz")
	for _, h := range haHosts {
		c.pollKubectl("node "+h.name+" Ready", 5*time.Minute, "True",
			"get", "node", h.name, "-o", `jsonpath={.status.conditions[?(@.type=="Ready")].status}`)
	}
	requireEtcdHealthy(t, tl, d, machines["master02"], 3)
	c.runPod("before", "worker01")
	for _, h := range haHosts {
		machines[h.name].requireNoFailedUnits()
	}
	logUsage(t, tl, machines, 30*time.Second)

	// Rolling changes, with the operator's admin kubeconfig on the
	// deployer pointed at master02's apiserver: one through every node,
	// and one that breaks the first node it reaches, which goes back and
	// stops the waves.
	admin := adminOnDeployer(c, "https://"+machines["master02"].address+":6443")
	c.mustKubectl([]byte(rollingWorkload), "apply", "-f", "-")
	c.pollKubectl("deployment web: 2 available", 3*time.Minute, "2", "get", "deploy", "web", "-o", "jsonpath={.status.availableReplicas}")
	t.Logf("pods before the rolling change:\n%s", c.mustKubectl(nil, "get", "pods", "-o", "wide"))
	rollingChange(t, s, c, admin, base, []string{"worker01", "master03", "master02", "master01"})
	brokenChange(t, s, c, admin, base, []string{"master03", "worker01", "master02", "master01"})

	// master01 goes away: its machine is powered off.
	machines["master01"].PowerOff()
	tl.mark("master01 powered off")
	c2 := &cluster{t: t, tl: tl, d: d, master: machines["master02"]}
	c2.pollKubectl("kubectl through master02's load balancer answers", 2*time.Minute, "ok", "get", "--raw", "/readyz")
	requireEtcdHealthy(t, tl, d, machines["master02"], 2)

	// The worker stays Ready: sampled every second for longer than the
	// node monitor's grace period (50 s).
	notReady := 0
	for end := time.Now().Add(70 * time.Second); time.Now().Before(end); time.Sleep(time.Second) {
		out, err := c2.kubectl(nil, "get", "node", "worker01", "-o", `jsonpath={.status.conditions[?(@.type=="Ready")].status}`)
		if err != nil || strings.TrimSpace(out) != "True" {
			notReady++
			tl.note(fmt.Sprintf("worker01 not Ready: %q %v", out, err))
		}
	}
	if notReady > 0 {
		t.Errorf("worker01 was not Ready (or kubectl failed) in %d samples of the 70 s after master01's power-off", notReady)
	}
	tl.mark(fmt.Sprintf("worker01 Ready in every sample of the 70 s after the power-off (%d not)", notReady))
	c2.pollKubectl("master01's node NotReady (Unknown)", 3*time.Minute, "Unknown",
		"get", "node", "master01", "-o", `jsonpath={.status.conditions[?(@.type=="Ready")].status}`)

	// A new pod: the scheduler (master02's or master03's, whichever holds
	// the lease now) places it, and the kubelet runs it.
	c2.runPod("after", "worker01")
	for _, n := range []string{"master02", "master03", "worker01"} {
		machines[n].requireNoFailedUnits()
	}
}

// writeSecrets writes what the operator makes before the first deploy:
// dir/apitoken.secret (openssl rand -hex 16) and
// dir/service-account-key.pem (openssl genrsa 2048).
func writeSecrets(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	token := make([]byte, 16)
	if _, err := rand.Read(token); err != nil {
		t.Fatal(err)
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	for name, data := range map[string][]byte{
		"apitoken.secret":         []byte(hex.EncodeToString(token) + "\n"),
		"service-account-key.pem": pemKey,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// requireEtcdHealthy polls until etcdctl endpoint health, run on h over
// SSH against the three members with h's etcd certificate, reports want
// healthy members.
func requireEtcdHealthy(t *testing.T, tl *timeline, d *deployer, h *host, want int) {
	t.Helper()
	var endpoints []string
	for _, m := range haHosts[:3] {
		endpoints = append(endpoints, "https://"+m.address+":2379")
	}
	poll(t, tl, fmt.Sprintf("etcdctl endpoint health on %s: %d healthy", h.name, want), 3*time.Minute, func() (bool, string) {
		r := d.ssh(h.address, nil, "etcdctl", "--endpoints="+strings.Join(endpoints, ","),
			"--cacert=/var/lib/kubernetes/secrets/ca.pem", "--cert=/var/lib/kubernetes/secrets/etcd.pem",
			"--key=/var/lib/kubernetes/secrets/etcd-key.pem", "--command-timeout=3s", "endpoint", "health")
		out := r.stdout + r.stderr
		healthy := strings.Count(out, "is healthy")
		if healthy == want {
			tl.note("etcdctl endpoint health:\n" + strings.TrimSpace(out))
		}
		return healthy == want, fmt.Sprintf("%d healthy, want %d: %s", healthy, want, out)
	})
}

// logUsage logs each machine's memory (its cgroup's usage less inactive
// page cache, as the kubelet's working set) and CPU (cpuacct over window,
// in cores), read from the host's cgroup v1 hierarchies of the machine's
// init.
func logUsage(t *testing.T, tl *timeline, machines map[string]*host, window time.Duration) {
	t.Helper()
	before := map[string]int64{}
	for _, h := range haHosts {
		before[h.name] = machineCPU(t, machines[h.name])
	}
	start := time.Now()
	time.Sleep(window)
	elapsed := time.Since(start)
	var lines []string
	for _, h := range haHosts {
		cpu := float64(machineCPU(t, machines[h.name])-before[h.name]) / float64(elapsed.Nanoseconds())
		lines = append(lines, fmt.Sprintf("%s: memory %d MiB, CPU %.2f cores (over %s)", h.name, machineMemory(t, machines[h.name])>>20, cpu, window))
	}
	tl.note("the machines' use:\n" + strings.Join(lines, "\n"))
}

// machineCgroup returns the directory of the machine's cgroup in the v1
// hierarchy of controller, from its init's /proc/PID/cgroup (the cgroup
// above the init.scope that systemd in the machine makes).
func machineCgroup(t *testing.T, h *host, controller string) string {
	t.Helper()
	dir, err := cgroupOf(h, controller)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// cgroupOf is machineCgroup for any goroutine: it returns its errors.
func cgroupOf(h *host, controller string) (string, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", h.PID()))
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) == 3 && strings.Contains(","+f[1]+",", ","+controller+",") {
			return filepath.Join("/sys/fs/cgroup", f[1], strings.TrimSuffix(f[2], "/init.scope")), nil
		}
	}
	return "", fmt.Errorf("%s: no %s cgroup in /proc/%d/cgroup:\n%s", h.name, controller, h.PID(), data)
}

// machinesCPU returns the CPU time each machine used so far, in ns.
func machinesCPU(t *testing.T, machines map[string]*host) map[string]int64 {
	t.Helper()
	cpu := map[string]int64{}
	for n, m := range machines {
		cpu[n] = machineCPU(t, m)
	}
	return cpu
}

// usageSince says, a line a machine in the order of haHosts, the peak
// memory the sampler saw and the CPU used since before (machinesCPU),
// in cores.
func usageSince(t *testing.T, machines map[string]*host, before map[string]int64, sp *sampler) string {
	t.Helper()
	elapsed := time.Since(sp.start)
	sp.mu.Lock()
	defer sp.mu.Unlock()
	var lines []string
	for _, h := range haHosts {
		cpu := float64(machineCPU(t, machines[h.name])-before[h.name]) / float64(elapsed.Nanoseconds())
		lines = append(lines, fmt.Sprintf("%s: memory %d MiB at most, CPU %.2f cores (over %s)", h.name, sp.peak[h.name]>>20, cpu, elapsed.Round(time.Second)))
	}
	return strings.Join(lines, "\n")
}

// machineCPU returns the CPU time the machine used so far, in ns.
func machineCPU(t *testing.T, h *host) int64 {
	t.Helper()
	return readInt(t, filepath.Join(machineCgroup(t, h, "cpuacct"), "cpuacct.usage"))
}

// machineMemory returns the machine's working set in bytes.
func machineMemory(t *testing.T, h *host) int64 {
	t.Helper()
	n, err := memoryOf(h)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// memoryOf is machineMemory for any goroutine: it returns its errors.
func memoryOf(h *host) (int64, error) {
	dir, err := cgroupOf(h, "memory")
	if err != nil {
		return 0, err
	}
	raw, err := os.ReadFile(filepath.Join(dir, "memory.usage_in_bytes"))
	if err != nil {
		return 0, err
	}
	usage, err := strconv.ParseInt(strings.TrimSpace(string(raw)), 10, 64)
	if err != nil {
		return 0, err
	}
	stat, err := os.ReadFile(filepath.Join(dir, "memory.stat"))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(stat), "\n") {
		if v, ok := strings.CutPrefix(line, "total_inactive_file "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return usage - n, nil
		}
	}
	return usage, nil
}

func readInt(t *testing.T, path string) int64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return n
}

// haSection is the section of docs/kubernetes.md that shows testdata/ha.
const haSection = "## A highly available control plane"

// TestHAFiles checks that docs/kubernetes.md's highly available control
// plane shows the host files TestHACluster deploys (testdata/ha) as they
// are, each in a hcl block whose first line names it, and shows every one
// of them but master03's (master02's with its number).
func TestHAFiles(t *testing.T) {
	src, err := os.ReadFile(walkthroughDoc)
	if err != nil {
		t.Fatal(err)
	}
	section, ok := sectionOf(string(src), haSection)
	if !ok {
		t.Fatalf("%s has no section %q", walkthroughDoc, haSection)
	}
	shown := map[string]bool{}
	for _, b := range fencedBlocks(section) {
		if b.lang != "hcl" {
			continue
		}
		m := fileNameLine.FindStringSubmatch(b.body)
		if m == nil {
			t.Errorf("%s: a hcl block of %q names no file in its first line:\n%s", walkthroughDoc, haSection, b.body)
			continue
		}
		shown[m[1]] = true
		data, err := os.ReadFile(filepath.Join("testdata/ha", m[1]))
		if err != nil {
			t.Errorf("%s: %q shows %s, which testdata/ha does not have: %v", walkthroughDoc, haSection, m[1], err)
			continue
		}
		if string(data) != b.body {
			t.Errorf("%s: %q shows %s otherwise than testdata/ha has it (-doc +file):\n%s", walkthroughDoc, haSection, m[1], cmp.Diff(b.body, string(data)))
		}
	}
	for _, name := range []string{"common.hcl", "masters.hcl", "hosts/master01.hcl", "hosts/master02.hcl", "hosts/worker01.hcl"} {
		if !shown[name] {
			t.Errorf("%s: %q does not show %s", walkthroughDoc, haSection, name)
		}
	}
	m2, err := os.ReadFile("testdata/ha/hosts/master02.hcl")
	if err != nil {
		t.Fatal(err)
	}
	m3, err := os.ReadFile("testdata/ha/hosts/master03.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.NewReplacer("master02", "master03", "10.88.0.22", "10.88.0.23", "10.1.2.0", "10.1.3.0").Replace(string(m2)); string(m3) != want {
		t.Errorf("testdata/ha/hosts/master03.hcl is not master02's with its number, as the docs say (-want +got):\n%s", cmp.Diff(want, string(m3)))
	}
}
