package stock

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nodegen/nodegen/e2e/internal/k8se2e"
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
