//go:build linux

package kubernetes

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
	"github.com/nodegen/nodegen/profile"
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
	img := k8se2e.Image(t)
	root := nodeRoot(p)
	nspawntest.RootOf(t, root) // built on first use: not on the timeline
	tl := newTimeline(t)
	n := bootNode(t, tl, "node", root, bins, img)

	n.switchTo(n.install(p))
	n.pollKubectl("apiserver /readyz ok", 2*time.Minute, "ok", "get", "--raw", "/readyz")
	n.runPod(n, node, "sleeper")
	// The addon manager applied the bootstrap addons before it started,
	// then the addons.
	n.pollKubectl("bootstrap addon applied", time.Minute, "system:kube-apiserver:kubelet-api-admin",
		"get", "clusterrolebinding", "system:kube-apiserver:kubelet-api-admin", "-o", "jsonpath={.metadata.name}")
	n.pollKubectl("addon applied by the addon manager", 2*time.Minute, "by the addon manager",
		"-n", "kube-system", "get", "configmap", "nodegen-e2e", "-o", "jsonpath={.data.applied}")
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
	tl, master, worker := switchTwoHosts(t, pm, pw, bins)
	master.runPod(worker, workerNode, "sleeper-on-worker")
	master.requireNoFailedUnits()
	worker.requireNoFailedUnits()
	t.Logf("timeline of %s:\n%s", t.Name(), tl)
}

// switchTwoHosts boots two machines from a root with the packages of the
// profiles pm and pw, joined by a veth pair, with the binaries in bins,
// the image and the binds more besides; switches the first to pm (the
// master) and, once its apiserver is ready, hands the worker the master's
// CA token and switches it to pw. The timeline starts once the root is
// built.
func switchTwoHosts(t *testing.T, pm, pw profile.Profile, bins string, more ...nspawntest.Bind) (tl *timeline, master, worker *node) {
	t.Helper()
	img := k8se2e.Image(t)
	root := nodeRoot(pm, pw)
	nspawntest.RootOf(t, root) // built on first use: not on the timeline
	tl = newTimeline(t)
	// The master powers off first, and the worker's kubelet and proxy stop
	// before it does: kube-apiserver's graceful shutdown waits for the
	// watches of clients that are still there, and the worker's power-off
	// would take the master's address (the veth pair) with it.
	worker = bootNode(t, tl, "worker", root, bins, img, more...)
	master = bootNode(t, tl, "master", root, bins, img, more...)
	connect(t, master, worker)
	t.Cleanup(worker.stopClients)

	master.switchTo(master.install(pm))
	master.pollKubectl("apiserver /readyz ok", 2*time.Minute, "ok", "get", "--raw", "/readyz")
	master.giveToken(worker)
	worker.switchTo(worker.install(pw))
	return tl, master, worker
}

// flannelDir is where scripts/build-flannel.sh puts flannel:
// CACHE/flannel-VERSION/flanneld and .../cni, each with bin/flannel.
func flannelDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(k8se2e.CacheDir(), "flannel-v0.28.10")
	for _, p := range []string{"flanneld/bin/flannel", "cni/bin/flannel"} {
		if info, err := os.Stat(filepath.Join(dir, p)); err != nil || info.Mode()&0o111 == 0 {
			suitereport.Skip(t, suite, "no flannel in "+dir+"; make e2e-kubernetes-build builds it")
		}
	}
	return dir
}

// TestTwoHostsFlannelDNS is TestTwoHosts with the library's flannel
// (vxlan, the Kubernetes subnet manager, the flannel CNI plugin) instead
// of a bridge network per node, and its DNS addon (CoreDNS): a pod on each
// machine, each answering the other machine through the overlay, and a
// pod on the worker that resolves the apiserver's Service name through
// CoreDNS.
func TestTwoHostsFlannelDNS(t *testing.T) {
	const masterNode, workerNode = "master01.cluster.example.com", "worker01.cluster.example.com"
	bins := binaries(t)
	fl := flannelDir(t)
	dns := corednsImage(t)
	pm := evaluate(t, overlays("k8s-master", "testdata/two-hosts.hcl", "testdata/master.hcl", "testdata/flannel.hcl", "testdata/dns.hcl")...)
	pw := evaluate(t, overlays("k8s-worker", "testdata/two-hosts.hcl", "testdata/worker.hcl", "testdata/flannel.hcl", "testdata/dns.hcl")...)
	tl, master, worker := switchTwoHosts(t, pm, pw, bins,
		nspawntest.Bind{Host: filepath.Join(fl, "flanneld"), Container: "/opt/flanneld", ReadOnly: true},
		nspawntest.Bind{Host: filepath.Join(fl, "cni"), Container: "/opt/flannel-cni", ReadOnly: true},
		nspawntest.Bind{Host: dns, Container: "/opt/k8s-e2e/coredns.tar", ReadOnly: true},
	)
	for _, n := range []*node{master, worker} {
		n.poll("flannel's subnet.env", 2*time.Minute, func() (bool, string) {
			_, _, code, err := n.Run("test", "-s", "/run/flannel/subnet.env")
			return err == nil && code == 0, "no /run/flannel/subnet.env yet"
		})
	}
	ips := map[string]string{}
	for _, p := range []struct{ pod, node string }{{"sleeper-a", masterNode}, {"sleeper-b", workerNode}} {
		master.startPod(p.node, p.pod, podManifest(p.pod, p.node), "")
		ips[p.pod] = master.mustKubectl("get", "pod", p.pod, "-o", "jsonpath={.status.podIP}")
	}
	// Each machine reaches the pod on the other through flannel's vxlan.
	master.pollAnswer("worker's pod answers the master at "+ips["sleeper-b"], ips["sleeper-b"]+"/8080")
	worker.pollAnswer("master's pod answers the worker at "+ips["sleeper-a"], ips["sleeper-a"]+"/8080")
	for _, pod := range []string{"sleeper-a", "sleeper-b"} {
		master.mustKubectl("delete", "service", pod)
		master.mustKubectl("delete", "pod", pod, "--wait=true", "--timeout=60s")
	}

	// CoreDNS, which the addon manager applied, answers a pod on the
	// worker for the apiserver's Service. (The k8s-worker fixture's node
	// has a gpu taint that CoreDNS does not tolerate, and the master takes
	// no pods: the test lifts the taint, as an operator would to run the
	// cluster's services there.)
	master.mustKubectl("taint", "node", workerNode, "gpu:NoSchedule-")
	master.poll("CoreDNS ready", 3*time.Minute, func() (bool, string) {
		ready, err := master.kubectl("-n", "kube-system", "get", "deployment", "coredns", "-o", "jsonpath={.status.readyReplicas}")
		if err == nil && strings.TrimSpace(ready) == "2" {
			return true, ""
		}
		pods, _ := master.kubectl("-n", "kube-system", "get", "pods", "-l", "k8s-app=kube-dns", "-o",
			`jsonpath={range .items[*]}{.metadata.name} {.spec.nodeName} {.status.phase} {.status.conditions} {.status.containerStatuses}{"\n"}{end}`)
		events, _ := master.kubectl("-n", "kube-system", "get", "events", "--sort-by=.lastTimestamp")
		return false, fmt.Sprintf("ready replicas %q, want 2 (%v); its pods:\n%s\nevents:\n%s", strings.TrimSpace(ready), err, pods, events)
	})
	apiserverIP := master.mustKubectl("get", "service", "kubernetes", "-o", "jsonpath={.spec.clusterIP}")
	master.WriteFile("/root/resolver.yaml", []byte(lookupPod("resolver", workerNode, "kubernetes.default.svc.cluster.local")), 0o644)
	master.mustKubectl("apply", "-f", "/root/resolver.yaml")
	master.poll("a pod on the worker resolves kubernetes.default through CoreDNS", 2*time.Minute, func() (bool, string) {
		out, err := master.kubectl("logs", "resolver")
		if err != nil {
			return false, err.Error()
		}
		return strings.Contains(out, "lookup kubernetes.default.svc.cluster.local: "+apiserverIP), "kubectl logs printed " + out
	})
	master.mustKubectl("delete", "pod", "resolver", "--wait=true", "--timeout=60s")
	master.requireNoFailedUnits()
	worker.requireNoFailedUnits()
	t.Logf("timeline of %s:\n%s", t.Name(), tl)
}
