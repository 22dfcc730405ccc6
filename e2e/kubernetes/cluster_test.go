package kubernetes

import (
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/nspawntest"
)

// serviceIP is the apiserver's address in the service range (10.0.0.0/24,
// the library's default).
const serviceIP = "10.0.0.1"

// overlays are the files of the test environment for a host, on top of
// the fixture's host.hcl.
func overlays(fixture string, more ...string) []string {
	return append([]string{"../../fixtures/" + fixture + "/host.hcl", "testdata/nspawn.hcl"}, more...)
}

// TestSingleHost switches a node that is master and worker (the
// k8s-single fixture with the test environment's overlay) into a machine
// and runs a pod on it.
func TestSingleHost(t *testing.T) {
	const node, ip = "kube", "10.88.0.10" // testdata/single.hcl
	bins := binaries(t)
	p := evaluate(t, overlays("k8s-single", "testdata/single.hcl")...)
	img := image(t)
	root := nodeRoot(p)
	nspawntest.RootOf(t, root) // built on first use: not on the timeline
	tl := newTimeline(t)
	n := bootNode(t, tl, "node", root, bins, img)

	ca := newPKI(t)
	profileDir := n.install(p, ca, masterCerts(ip, serviceIP, node))
	n.WriteFile(adminPath, ca.kubeconfig("https://"+ip+":6443", "cluster-admin"), 0o600)
	n.switchTo(profileDir)
	n.pollKubectl("apiserver /readyz ok", 2*time.Minute, "ok", "get", "--raw", "/readyz")
	n.runPod(n, node, "sleeper")
	n.requireNoFailedUnits()
	t.Logf("timeline of %s:\n%s", t.Name(), tl)
}

// TestTwoHosts switches a master (k8s-master) and a worker (k8s-worker)
// into two machines joined by a veth pair; the worker joins the cluster
// and runs a pod.
func TestTwoHosts(t *testing.T) {
	const masterIP, workerIP = "10.88.0.10", "10.88.0.11" // testdata/master.hcl, worker.hcl
	const masterNode, workerNode = "master01.cluster.example.com", "worker01.cluster.example.com"
	bins := binaries(t)
	pm := evaluate(t, overlays("k8s-master", "testdata/two-hosts.hcl", "testdata/master.hcl")...)
	pw := evaluate(t, overlays("k8s-worker", "testdata/two-hosts.hcl", "testdata/worker.hcl")...)
	img := image(t)
	root := nodeRoot(pm, pw)
	nspawntest.RootOf(t, root) // built on first use: not on the timeline
	tl := newTimeline(t)
	// The master powers off first, and the worker's kubelet and proxy stop
	// before it does: kube-apiserver's graceful shutdown waits for the
	// watches of clients that are still there, and the worker's power-off
	// would take the master's address (the veth pair) with it.
	worker := bootNode(t, tl, "worker", root, bins, img)
	master := bootNode(t, tl, "master", root, bins, img)
	connect(t, master, worker)
	t.Cleanup(worker.stopClients)

	ca := newPKI(t)
	masterProfile := master.install(pm, ca, masterCerts(masterIP, serviceIP, masterNode, "master01", "kubernetes.cluster.example.com"))
	workerProfile := worker.install(pw, ca, nodeCerts(workerIP, workerNode, "worker01"))
	master.WriteFile(adminPath, ca.kubeconfig("https://"+masterIP+":6443", "cluster-admin"), 0o600)
	master.switchTo(masterProfile)
	master.pollKubectl("apiserver /readyz ok", 2*time.Minute, "ok", "get", "--raw", "/readyz")
	worker.switchTo(workerProfile)
	master.runPod(worker, workerNode, "sleeper-on-worker")
	master.requireNoFailedUnits()
	worker.requireNoFailedUnits()
	t.Logf("timeline of %s:\n%s", t.Name(), tl)
}
