//go:build linux

package kubernetes

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/nodegen/nodegen/e2e/internal/k8se2e"
	"github.com/nodegen/nodegen/internal/nspawntest"
	"github.com/nodegen/nodegen/profile"
)

// Paths in a node: where the test binds what it brings (testdata/nspawn.hcl
// names the same paths), and what the library's easyCerts makes there.
const (
	packageDir = "/opt/k8s"               // services.kubernetes.package
	imagePath  = "/opt/k8s-e2e/image.tar" // kubelet.seedDockerImages
	// The master's kubeconfig with cluster-admin rights (easyCerts).
	adminPath = "/etc/kubernetes/cluster-admin.kubeconfig"
	// Where easyCerts keeps a host's certificates, and the master's API
	// token that a worker needs to be issued its own.
	secretsDir    = "/var/lib/kubernetes/secrets"
	cfsslTokenDir = "/var/lib/cfssl"
)

// kubeUnits are the units whose journals a failure shows, in start order.
var kubeUnits = []string{
	"k8s-node-prep", "cfssl", "cfssl-online", "kube-certs", "etcd", "containerd",
	"kube-apiserver", "kube-apiserver-online", "kube-controller-manager",
	"kube-scheduler", "kubelet", "kube-proxy", "flannel", "flannel-rbac-bootstrap", "kube-addon-manager",
}

// clientUnits are the units that hold connections to the apiserver:
// stopped before a power-off, so that the apiserver's graceful shutdown
// does not wait for their watches (up to its TimeoutStopSec, 90 s).
var clientUnits = []string{"kubelet", "kube-proxy", "kube-controller-manager", "kube-scheduler", "flannel", "kube-addon-manager"}

// timeline records when the steps of a test were reached, from its start.
type timeline struct {
	t     *testing.T
	start time.Time
	marks []string
}

func newTimeline(t *testing.T) *timeline {
	return &timeline{t: t, start: time.Now()}
}

// mark records and logs that the step what was reached now.
func (tl *timeline) mark(what string) {
	line := fmt.Sprintf("%6.1fs  %s", time.Since(tl.start).Seconds(), what)
	tl.marks = append(tl.marks, line)
	tl.t.Log(line)
}

// String is the timeline so far, one step a line.
func (tl *timeline) String() string { return strings.Join(tl.marks, "\n") }

// node is a machine that runs a Kubernetes node.
type node struct {
	*nspawntest.Machine
	role string // what the timeline calls it
	t    *testing.T
	tl   *timeline
}

// bootNode boots a machine, called role on the timeline, from root that
// can run a Kubernetes node, with the binds more besides: without nspawn's
// system call filter, with every capability, cgroups of
// its own in every hierarchy, /dev/kmsg, the binaries in bins at
// packageDir/bin and the image at imagePath (both read-only), and
// /var/lib/containerd, /var/lib/kubernetes and /var/log/pods on the host's
// disk (containerd's overlayfs snapshots cannot sit on the machine's
// overlay root, and cAdvisor wants a real file system behind the kubelet's
// directory). Before the machine powers off, the Kubernetes clients in it
// are stopped, and when the test failed, the journal of every Kubernetes
// unit is logged.
func bootNode(t *testing.T, tl *timeline, role string, root nspawntest.Root, bins, img string, more ...nspawntest.Bind) *node {
	t.Helper()
	m := nspawntest.Boot(t, k8se2e.BootOptions(t, root, append([]nspawntest.Bind{
		{Host: bins, Container: packageDir + "/bin", ReadOnly: true},
		{Host: img, Container: imagePath, ReadOnly: true},
	}, more...)...))
	n := &node{Machine: m, role: role, t: t, tl: tl}
	t.Cleanup(func() {
		if t.Failed() {
			secrets, _, _, _ := n.Run("ls", "-l", secretsDir)
			t.Logf("%s (%s): %s:\n%s\njournals:\n%s", role, m.Name(), secretsDir, secrets, n.journals(40))
		}
		n.stopClients()
	})
	tl.mark(role + ": machine " + m.Name() + " booted")
	return n
}

// stopClients stops the units of the machine that hold connections to an
// apiserver.
func (n *node) stopClients() {
	n.Run(append([]string{"systemctl", "stop"}, clientUnits...)...)
}

// journals returns the state and last lines of the journal of each
// Kubernetes unit that the machine has.
func (n *node) journals(lines int) string {
	var b strings.Builder
	for _, unit := range kubeUnits {
		state, _, _, err := n.Run("systemctl", "show", "-P", "LoadState,ActiveState,SubState,Result", unit+".service")
		if err != nil || strings.Contains(state, "not-found") {
			continue
		}
		journal, _, _, _ := n.Run("journalctl", "-u", unit, "-n", fmt.Sprint(lines), "--no-pager", "-o", "cat")
		fmt.Fprintf(&b, "---- %s: %s\n%s", unit, strings.Join(strings.Fields(state), " "), journal)
	}
	return b.String()
}

// install readies the machine for the profile p: it checks that the
// machine has the packages p lists, and copies the nodegen command (where
// the profile's kube-certs.service runs it) and the profile into it
// (/usr/local/bin/nodegen, /root/profile). It returns the profile's path
// in the machine.
func (n *node) install(p profile.Profile) string {
	n.t.Helper()
	for _, pkg := range p.Packages {
		// The machine has no network: nodegen switch could not install
		// one (nodeRoot adds them to the root file system).
		if _, _, code, err := n.Run("dpkg-query", "-W", pkg.Name); err != nil || code != 0 {
			n.t.Fatalf("the node's root file system lacks the package %s (%s): %v", pkg.Name, pkg.Option, err)
		}
	}
	n.CopyFile(nspawntest.BuildStatic(n.t, "./cmd/nodegen"), "/usr/local/bin/nodegen", 0o755)
	const dst = "/root/profile"
	if out, err := exec.Command("cp", "-a", writeProfile(n.t, p), n.Path(dst)).CombinedOutput(); err != nil {
		n.t.Fatalf("copying the profile into %s: %v\n%s", n.Name(), err, out)
	}
	return dst
}

// giveToken writes the API token of the master's cfssl CA where the
// worker's kube-certs.service reads it, as the operator of a cluster with
// easyCerts does for each node.
func (n *node) giveToken(worker *node) {
	n.t.Helper()
	token := n.MustRun("cat", cfsslTokenDir+"/apitoken.secret")
	worker.WriteFile(secretsDir+"/apitoken.secret", []byte(token), 0o600)
}

// switchTo runs nodegen switch on the profile in the machine, and fails
// the test with its output when it fails. No --backup: the switch takes
// over the files Debian's packages and debootstrap put there unchanged,
// such as /etc/containerd/config.toml and /etc/hostname.
func (n *node) switchTo(profileDir string) {
	n.t.Helper()
	// nodegen switch waits up to 90 s for the units it starts.
	stdout, stderr, code, err := n.RunFor(3*time.Minute, "nodegen", "switch", profileDir)
	if err != nil || code != 0 {
		n.t.Fatalf("nodegen switch in %s: exit %d, %v\n%s%s", n.Name(), code, err, stdout, stderr)
	}
	n.tl.mark(n.role + ": nodegen switch done")
	n.t.Logf("nodegen switch:\n%s%s", stdout, stderr)
}

// connect joins two machines with a veth pair, each end called k8s0 in its
// machine (testdata/nspawn.hcl's k8s-node-prep gives it the node IP).
func connect(t *testing.T, a, b *node) {
	t.Helper()
	suffix := fmt.Sprintf("%06x", time.Now().UnixNano()&0xffffff)
	ends := [2]string{"k8e" + suffix + "a", "k8e" + suffix + "b"}
	if out, err := exec.Command("ip", "link", "add", ends[0], "type", "veth", "peer", "name", ends[1]).CombinedOutput(); err != nil {
		t.Fatalf("making a veth pair: %v\n%s", err, out)
	}
	// Gone with the machines; only an end not moved in yet is left here.
	t.Cleanup(func() { exec.Command("ip", "link", "del", ends[0]).Run() })
	for i, n := range []*node{a, b} {
		if out, err := exec.Command("ip", "link", "set", ends[i], "netns", fmt.Sprint(n.PID())).CombinedOutput(); err != nil {
			t.Fatalf("moving %s into %s: %v\n%s", ends[i], n.Name(), err, out)
		}
		n.MustRun("ip", "link", "set", ends[i], "name", "k8s0")
	}
}

// kubectl runs kubectl in the machine with the test's admin kubeconfig,
// each request bounded, and returns its stdout, or an error with stderr.
func (n *node) kubectl(args ...string) (string, error) {
	args = append([]string{packageDir + "/bin/kubectl", "--kubeconfig=" + adminPath, "--request-timeout=10s"}, args...)
	stdout, stderr, code, err := n.Run(args...)
	if err != nil {
		return stdout, err
	}
	if code != 0 {
		return stdout, fmt.Errorf("kubectl %s: exit %d: %s", strings.Join(args[3:], " "), code, strings.TrimSpace(stderr))
	}
	return stdout, nil
}

// mustKubectl is kubectl that fails the test on errors.
func (n *node) mustKubectl(args ...string) string {
	n.t.Helper()
	out, err := n.kubectl(args...)
	if err != nil {
		n.t.Fatal(err)
	}
	return out
}

// poll calls check every half second until it reports done, then marks
// what on the timeline; after timeout it fails the test with check's last
// word on why it was not done.
func (n *node) poll(what string, timeout time.Duration, check func() (done bool, why string)) {
	n.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		done, why := check()
		if done {
			n.tl.mark(n.role + ": " + what)
			return
		}
		if time.Now().After(deadline) {
			n.t.Fatalf("%s: not within %s: %s\ntimeline:\n%s", what, timeout, why, n.tl)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// pollKubectl polls until kubectl with args prints want (spaces trimmed).
func (n *node) pollKubectl(what string, timeout time.Duration, want string, args ...string) {
	n.t.Helper()
	n.poll(what, timeout, func() (bool, string) {
		out, err := n.kubectl(args...)
		if err != nil {
			return false, err.Error()
		}
		got := strings.TrimSpace(out)
		return got == want, fmt.Sprintf("kubectl %s printed %q, want %q", strings.Join(args, " "), got, want)
	})
}

// runPod waits, with kubectl in this machine (the master), until the
// node nodeName (of the machine on) is Ready, then runs a pod of the
// sleeper image on it with a Service in front, waits until it runs, until
// kubectl logs shows its output (the apiserver reads it from that node's
// kubelet), and until it answers in the machine on at its pod IP (the CNI
// network) and at the Service's cluster IP (kube-proxy's rules), and
// deletes both.
func (n *node) runPod(on *node, nodeName, pod string) {
	n.t.Helper()
	n.startPod(nodeName, pod, podManifest(pod, nodeName), " on "+on.role)
	n.poll("kubectl logs "+pod, 30*time.Second, func() (bool, string) {
		out, err := n.kubectl("logs", pod)
		if err != nil {
			return false, err.Error()
		}
		return strings.Contains(out, "sleeper: up"), "kubectl logs printed " + out
	})
	podIP := n.mustKubectl("get", "pod", pod, "-o", "jsonpath={.status.podIP}")
	on.pollAnswer("pod "+pod+" answers at "+podIP+":8080", podIP+"/8080")
	serviceIP := n.mustKubectl("get", "service", pod, "-o", "jsonpath={.spec.clusterIP}")
	on.pollAnswer("service "+pod+" answers at "+serviceIP+":80 (kube-proxy)", serviceIP+"/80")
	n.mustKubectl("delete", "service", pod)
	n.mustKubectl("delete", "pod", pod, "--wait=true", "--timeout=60s")
	n.tl.mark(n.role + ": pod " + pod + " deleted")
}

// startPod waits, with kubectl in this machine (the master), until the
// node nodeName is Ready and pods can be made, applies manifest, and waits
// until its pod called pod is Running; where is added to what the
// timeline says.
func (n *node) startPod(nodeName, pod, manifest, where string) {
	n.t.Helper()
	n.pollKubectl("node "+nodeName+" Ready", 2*time.Minute, "True",
		"get", "node", nodeName, "-o", `jsonpath={.status.conditions[?(@.type=="Ready")].status}`)
	// Pods are refused until the namespace's service account exists.
	n.pollKubectl("default service account", time.Minute, "default", "-n", "default", "get", "sa", "default", "-o", "jsonpath={.metadata.name}")
	n.WriteFile("/root/"+pod+".yaml", []byte(manifest), 0o644)
	n.mustKubectl("apply", "-f", "/root/"+pod+".yaml")
	n.pollKubectl("pod "+pod+" Running"+where, 2*time.Minute, "Running", "get", "pod", pod, "-o", "jsonpath={.status.phase}")
}

// pollAnswer polls until a TCP connection from the machine to address
// (IP/PORT) reads the sleeper's greeting.
func (n *node) pollAnswer(what, address string) {
	n.t.Helper()
	n.poll(what, 30*time.Second, func() (bool, string) {
		out, stderr, _, err := n.Run("timeout", "3", "bash", "-c", "exec 3<>/dev/tcp/"+address+" && cat <&3")
		if err != nil {
			return false, err.Error()
		}
		return strings.HasPrefix(out, "sleeper "), "the connection read " + strings.TrimSpace(out+" "+stderr)
	})
}

// requireNoFailedUnits fails the test when a unit of the machine failed,
// such as one the switch started that has given up since.
func (n *node) requireNoFailedUnits() {
	n.t.Helper()
	if out := n.MustRun("systemctl", "list-units", "--state=failed", "--no-legend", "--plain"); strings.TrimSpace(out) != "" {
		n.t.Errorf("%s: units failed in %s:\n%s", n.role, n.Name(), out)
	}
}

// podManifest is a pod of the sleeper image, listening on 8080, that the
// scheduler puts on the node nodeName, whatever its taints, and a Service
// of the same name that forwards its port 80 there.
func podManifest(name, nodeName string) string {
	return k8se2e.SleeperPod(name, nodeName, "labels: {app: sleeper}", "LISTEN", ":8080") + `---
apiVersion: v1
kind: Service
metadata: {name: ` + name + `, namespace: default}
spec:
  selector: {app: sleeper}
  ports: [{port: 80, targetPort: 8080}]
`
}

// lookupPod is a pod of the sleeper image on the node nodeName, whatever
// its taints, that resolves name through the cluster's DNS and prints what
// it found.
func lookupPod(name, nodeName, lookup string) string {
	return k8se2e.SleeperPod(name, nodeName, "", "LOOKUP", lookup)
}
