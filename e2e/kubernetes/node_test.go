package kubernetes

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/nspawntest"
	"github.com/nodegen/nodegen/profile"
)

// Where the test binds what it brings into a node (testdata/nspawn.hcl
// names the same paths).
const (
	packageDir = "/opt/k8s"                    // services.kubernetes.package
	imagePath  = "/opt/k8s-e2e/image.tar"      // kubelet.seedDockerImages
	adminPath  = "/root/admin.kubeconfig"      // the test's own kubectl
	secretsDir = "/var/lib/kubernetes/secrets" // the PKI
)

// kubeUnits are the units whose journals a failure shows, in start order.
var kubeUnits = []string{
	"k8s-node-prep", "etcd", "containerd", "kube-apiserver", "kube-controller-manager",
	"kube-scheduler", "kubelet", "kube-proxy", "flannel",
}

// clientUnits are the units that hold connections to the apiserver:
// stopped before a power-off, so that the apiserver's graceful shutdown
// does not wait for their watches (up to its TimeoutStopSec, 90 s).
var clientUnits = []string{"kubelet", "kube-proxy", "kube-controller-manager", "kube-scheduler", "flannel"}

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
	t  *testing.T
	tl *timeline
}

// bootNode boots a machine from root that can run a Kubernetes node:
// without nspawn's system call filter, with every capability, cgroups of
// its own in every hierarchy, /dev/kmsg, the binaries in bins at
// packageDir/bin and the image at imagePath (both read-only), and
// /var/lib/containerd, /var/lib/kubernetes and /var/log/pods on the host's
// disk (containerd's overlayfs snapshots cannot sit on the machine's
// overlay root, and cAdvisor wants a real file system behind the kubelet's
// directory). Before the machine powers off, the Kubernetes clients in it
// are stopped, and when the test failed, the journal of every Kubernetes
// unit is logged.
func bootNode(t *testing.T, tl *timeline, root nspawntest.Root, bins, img string) *node {
	t.Helper()
	state := t.TempDir()
	binds := []nspawntest.Bind{
		{Host: "/dev/kmsg", Container: "/dev/kmsg"},
		{Host: bins, Container: packageDir + "/bin", ReadOnly: true},
		{Host: img, Container: imagePath, ReadOnly: true},
	}
	for _, dir := range []string{"/var/lib/containerd", "/var/lib/kubernetes", "/var/log/pods"} {
		host := filepath.Join(state, filepath.Base(dir))
		if err := os.Mkdir(host, 0o755); err != nil {
			t.Fatal(err)
		}
		binds = append(binds, nspawntest.Bind{Host: host, Container: dir})
	}
	m := nspawntest.Boot(t, nspawntest.Options{
		Root:              root,
		Binds:             binds,
		NoSeccomp:         true,
		AllCapabilities:   true,
		ControllerCgroups: true,
	})
	n := &node{Machine: m, t: t, tl: tl}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("journals of %s:\n%s", m.Name(), n.journals(40))
		}
		n.Run(append([]string{"systemctl", "stop"}, clientUnits...)...)
	})
	tl.mark("machine " + m.Name() + " booted")
	return n
}

// journals returns the state and last lines of the journal of each
// Kubernetes unit that the machine has.
func (n *node) journals(lines int) string {
	var b strings.Builder
	for _, unit := range kubeUnits {
		state, _, _, err := n.Run("systemctl", "show", "-P", "ActiveState,SubState,Result", unit+".service")
		if err != nil || strings.Contains(state, "not-found") {
			continue
		}
		journal, _, _, _ := n.Run("journalctl", "-u", unit, "-n", fmt.Sprint(lines), "--no-pager", "-o", "cat")
		fmt.Fprintf(&b, "---- %s: %s\n%s", unit, strings.Join(strings.Fields(state), " "), journal)
	}
	return b.String()
}

// installProfile copies the nodegen command and a profile into the
// machine at /usr/local/bin/nodegen and /root/profile.
func (n *node) installProfile(dir string) string {
	n.t.Helper()
	n.CopyFile(nspawntest.BuildStatic(n.t, "./cmd/nodegen"), "/usr/local/bin/nodegen", 0o755)
	const dst = "/root/profile"
	if out, err := exec.Command("cp", "-a", dir, n.Path(dst)).CombinedOutput(); err != nil {
		n.t.Fatalf("copying the profile into %s: %v\n%s", n.Name(), err, out)
	}
	return dst
}

// installPKI makes the users of the profile's sysusers.d files (the
// switch would make them too, but the keys must belong to them before
// the services start), and writes the CA and the certificates of specs
// to secretsDir, each key readable only by its owner.
func (n *node) installPKI(p *pki, specs []certSpec, profileDir string) {
	n.t.Helper()
	n.MustRun("sh", "-c", "systemd-sysusers "+profileDir+"/etc/sysusers.d/*.conf")
	n.WriteFile(secretsDir+"/ca.pem", p.caCert, 0o644)
	for _, spec := range specs {
		pair := p.certs[spec.Name]
		n.WriteFile(secretsDir+"/"+spec.Name+".pem", pair[0], 0o644)
		key := secretsDir + "/" + spec.Name + "-key.pem"
		n.WriteFile(key, pair[1], 0o600)
		n.MustRun("chown", spec.Owner, key)
	}
}

// switchTo runs nodegen switch on the profile in the machine, and fails
// the test with its output when it fails. --backup moves aside the files
// of Debian's packages that the profile replaces, such as
// /etc/containerd/config.toml.
func (n *node) switchTo(profileDir string) {
	n.t.Helper()
	stdout, stderr, code, err := n.Run("nodegen", "switch", "--backup", profileDir)
	if err != nil || code != 0 {
		n.t.Fatalf("nodegen switch in %s: exit %d, %v\n%s%s", n.Name(), code, err, stdout, stderr)
	}
	n.tl.mark("nodegen switch done")
	n.t.Logf("nodegen switch:\n%s%s", stdout, stderr)
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
			n.tl.mark(what)
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

// requirePackages fails the test unless the machine has every package the
// profile needs installed: the machine has no network, so nodegen switch
// could not install one (nodeRoot adds them to the root file system).
func (n *node) requirePackages(p profile.Profile) {
	n.t.Helper()
	for _, pkg := range p.Packages {
		if _, _, code, err := n.Run("dpkg-query", "-W", pkg.Name); err != nil || code != 0 {
			n.t.Fatalf("the node's root file system lacks the package %s (%s): %v", pkg.Name, pkg.Option, err)
		}
	}
}

// podManifest is a pod of the sleeper image, listening on 8080, on the
// node nodeName.
func podManifest(name, nodeName string) string {
	return `apiVersion: v1
kind: Pod
metadata: {name: ` + name + `, namespace: default, labels: {app: sleeper}}
spec:
  nodeName: ` + nodeName + `
  terminationGracePeriodSeconds: 5
  containers:
  - name: sleeper
    image: ` + imageTags[1] + `
    imagePullPolicy: Never
    env: [{name: LISTEN, value: ":8080"}]
`
}
