package kubernetes

import (
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/nspawntest"
)

// overlays are the files of the test environment for a host, on top of
// the fixture's host.hcl.
func overlays(fixture string, more ...string) []string {
	return append([]string{"../../fixtures/" + fixture + "/host.hcl", "testdata/nspawn.hcl"}, more...)
}

// TestSingleHost switches a node that is master and worker (the
// k8s-single fixture with the test environment's overlay) into a machine
// and runs a pod on it.
func TestSingleHost(t *testing.T) {
	const node = "kube" // fixtures/k8s-single
	bins := binaries(t)
	p := evaluate(t, overlays("k8s-single", "testdata/single.hcl")...)
	img := image(t)
	root := nodeRoot(p)
	nspawntest.RootOf(t, root) // built on first use: not on the timeline
	tl := newTimeline(t)
	n := bootNode(t, tl, "node", root, bins, img)

	n.switchTo(n.install(p))
	n.pollKubectl("apiserver /readyz ok", 2*time.Minute, "ok", "get", "--raw", "/readyz")
	n.runPod(n, node, "sleeper")
	n.requireNoFailedUnits()
	t.Logf("timeline of %s:\n%s", t.Name(), tl)
}

// TestTwoHosts switches a master (k8s-master) and a worker (k8s-worker),
// with the library's roles and easyCerts, into two machines joined by a
// veth pair; handed the master's CA token, the worker gets its
// certificates, joins the cluster and runs a pod.
func TestTwoHosts(t *testing.T) {
	const workerNode = "worker01.cluster.example.com" // fixtures/k8s-worker
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

	master.switchTo(master.install(pm))
	master.pollKubectl("apiserver /readyz ok", 2*time.Minute, "ok", "get", "--raw", "/readyz")
	master.giveToken(worker)
	worker.switchTo(worker.install(pw))
	master.runPod(worker, workerNode, "sleeper-on-worker")
	master.requireNoFailedUnits()
	worker.requireNoFailedUnits()
	t.Logf("timeline of %s:\n%s", t.Name(), tl)
}
