//go:build linux

package stock

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nodegen/nodegen/e2e/internal/k8se2e"
	"github.com/nodegen/nodegen/internal/nspawntest"
	"github.com/nodegen/nodegen/internal/suitereport"
)

// cluster reaches the cluster as the walk-through does: kubectl on the
// master, over SSH from the deployer, with the cluster-admin kubeconfig
// that easyCerts writes there.
type cluster struct {
	t      *testing.T
	tl     *timeline
	d      *deployer
	master *host
}

// kubectl runs kubectl on the master with args (and stdin, when not nil),
// each request bounded, and returns its stdout, or an error with stderr.
func (c *cluster) kubectl(stdin []byte, args ...string) (string, error) {
	c.t.Helper()
	words := append([]string{kubectlPath, "--kubeconfig=" + adminKubeconfig, "--request-timeout=10s"}, args...)
	r := c.d.ssh(c.master.address, stdin, words...)
	if r.code != 0 {
		return r.stdout, fmt.Errorf("ssh %s kubectl %s: exit %d: %s", c.master.address, strings.Join(args, " "), r.code, strings.TrimSpace(r.stderr))
	}
	return r.stdout, nil
}

// mustKubectl is kubectl that fails the test on errors.
func (c *cluster) mustKubectl(stdin []byte, args ...string) string {
	c.t.Helper()
	out, err := c.kubectl(stdin, args...)
	if err != nil {
		c.t.Fatal(err)
	}
	return out
}

// pollKubectl polls until kubectl with args prints want (spaces trimmed),
// then marks what on the timeline.
func (c *cluster) pollKubectl(what string, timeout time.Duration, want string, args ...string) {
	c.t.Helper()
	poll(c.t, c.tl, what, timeout, func() (bool, string) {
		out, err := c.kubectl(nil, args...)
		if err != nil {
			return false, err.Error()
		}
		got := strings.TrimSpace(out)
		return got == want, fmt.Sprintf("kubectl %s printed %q, want %q", strings.Join(args, " "), got, want)
	})
}

// runPod runs a pod of the sleeper image on the node nodeName, waits until
// it is Running and until kubectl logs shows its output (the apiserver
// reads it from that node's kubelet), and deletes it.
func (c *cluster) runPod(pod, nodeName string) {
	c.t.Helper()
	// Pods are refused until the namespace's service account exists.
	c.pollKubectl("default service account", time.Minute, "default", "-n", "default", "get", "sa", "default", "-o", "jsonpath={.metadata.name}")
	c.mustKubectl([]byte(k8se2e.SleeperPod(pod, nodeName, "", "", "")), "apply", "-f", "-")
	c.pollKubectl("pod "+pod+" Running on "+nodeName, 3*time.Minute, "Running "+nodeName,
		"get", "pod", pod, "-o", "jsonpath={.status.phase} {.spec.nodeName}")
	poll(c.t, c.tl, "kubectl logs "+pod+" (through "+nodeName+"'s kubelet)", 30*time.Second, func() (bool, string) {
		out, err := c.kubectl(nil, "logs", pod)
		if err != nil {
			return false, err.Error()
		}
		return strings.Contains(out, "sleeper: up"), "kubectl logs printed " + out
	})
	c.mustKubectl(nil, "delete", "pod", pod, "--wait=true", "--timeout=60s")
	c.tl.mark("pod " + pod + " deleted")
}

// kubectlFromDeployer does what the walk-through's other way does: it
// copies the master's admin kubeconfig, with its certificates inlined
// (kubectl config view --raw --flatten), to the deployer, and runs the
// deployer's own kubectl with it against the master's address.
func (c *cluster) kubectlFromDeployer(bins string) {
	c.t.Helper()
	config := c.mustKubectl(nil, "config", "view", "--raw", "--flatten")
	path := filepath.Join(c.d.dir, "admin.kubeconfig")
	if err := os.WriteFile(path, []byte(config), 0o600); err != nil {
		c.t.Fatal(err)
	}
	r := c.d.run(time.Minute, nil, filepath.Join(bins, "kubectl"), "--kubeconfig", path, "--server", "https://"+c.master.address+":6443",
		"--request-timeout=10s", "get", "nodes", "-o", "name")
	if want := "node/master01\nnode/worker01\n"; r.code != 0 || r.stdout != want {
		c.t.Fatalf("kubectl get nodes on the deployer, with the master's kubeconfig: exit %d, printed %q, want %q\n%s", r.code, r.stdout, want, r.stderr)
	}
	c.tl.mark("kubectl on the deployer, with the copied kubeconfig, lists both nodes")
}

// hostAddress is a host of a test's fleet and its address in the test
// network (its deployment.targetHost).
type hostAddress struct{ name, address string }

// stockCluster is what every cluster test starts from: the test network
// with the mirror and the package proxy on it, the deployer with the host
// files, and a stock machine booted per host, not yet deployed.
type stockCluster struct {
	tl       *timeline
	bins     string // the Kubernetes binaries (the deployer's kubectl)
	network  *nspawntest.Network
	d        *deployer
	machines map[string]*host
}

// stockAbsent are packages every profile of the tests wants and no stock
// machine has: nodegen switch installs them (etcd, cfssl and the CNI
// plugins are no dependency of the stock root's packages).
var stockAbsent = []string{"etcd-server", "golang-cfssl", "containernetworking-plugins"}

// newStockCluster sets up what the cluster tests share: the binaries and
// the mirror's tree, the test network (the deployer's side at 10.88.0.1)
// with the mirror and the package proxy, a deployer with the host files
// of src (common files and hosts/NAME.hcl) for hosts, then prepare (the
// operator's edits and secrets, when not nil), nodegen lock, the stock
// root, and a stock machine per host, booted and checked stock.
func newStockCluster(t *testing.T, src string, hosts []hostAddress, prepare func(d *deployer)) *stockCluster {
	t.Helper()
	requireTools(t)
	s := &stockCluster{bins: binaries(t), tl: newTimeline(t), machines: map[string]*host{}}
	tree := mirrorTree(t, s.bins)
	s.tl.mark("mirror's tarballs ready: " + tree)
	s.network = nspawntest.NewNetwork(t, "10.88.0.1/24")
	serveMirror(t, s.network, tree, s.tl)
	serveAptProxy(t, s.network, s.tl)
	var names []string
	for _, h := range hosts {
		names = append(names, h.name)
	}
	s.d = newDeployerOf(t, s.tl, s.network, src, names)
	suitereport.Ran(t, suite)
	if prepare != nil {
		prepare(s.d)
	}

	// The operator's first step: the hashes of what the hosts download.
	if r := s.d.ng(append([]string{"lock"}, s.d.fleet()...)...); r.code != 0 {
		t.Fatalf("nodegen lock %s: exit %d, want 0 (nodegen.lock.hcl written; issue 35 part 4):\n%s%s", strings.Join(s.d.fleet(), " "), r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(s.d.dir, "fleet", "nodegen.lock.hcl")); err != nil {
		t.Fatalf("nodegen lock wrote no nodegen.lock.hcl beside the host files: %v", err)
	}
	s.tl.mark("nodegen lock: nodegen.lock.hcl written")

	root := stockRoot()
	nspawntest.RootOf(t, root)
	s.tl.mark(fmt.Sprintf("stock root ready (debootstrap, %s)", strings.Join(root.Packages, " ")))
	// What the profiles need that the stock machines lack: nodegen
	// switch installs it, through the package proxy.
	packages := s.d.packages()
	for _, h := range hosts {
		m := bootHost(t, s.tl, s.d, root, h.name, h.address)
		m.requireStock(packages, stockAbsent)
		s.machines[h.name] = m
	}
	return s
}
