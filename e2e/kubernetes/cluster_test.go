package kubernetes

import (
	"strings"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/nspawntest"
)

// The single host's names and addresses (testdata/nspawn.hcl and
// fixtures/k8s-single).
const (
	singleNode = "kube"
	singleIP   = "10.88.0.10"
	// serviceIP is the apiserver's address in the service range
	// (10.0.0.0/24, the library's default).
	serviceIP = "10.0.0.1"
)

// TestSingleHost switches a node that is master and worker (the
// k8s-single fixture with the test environment's overlay) into a machine
// and runs a pod on it.
func TestSingleHost(t *testing.T) {
	bins := binaries(t)
	p := evaluate(t, "../../fixtures/k8s-single/host.hcl", "testdata/nspawn.hcl")
	profileDir := writeProfile(t, p)
	img := image(t)
	root := nodeRoot(p)
	nspawntest.RootOf(t, root) // built on first use: not on the timeline
	tl := newTimeline(t)
	n := bootNode(t, tl, root, bins, img)
	n.requirePackages(p)

	ca := newPKI(t)
	specs := clusterCerts(singleNode, singleIP, serviceIP)
	for _, spec := range specs {
		ca.issue(t, spec)
	}
	dst := n.installProfile(profileDir)
	n.installPKI(ca, specs, dst)
	n.WriteFile(adminPath, ca.kubeconfig("https://"+singleIP+":6443", "cluster-admin"), 0o600)
	n.switchTo(dst)

	n.pollKubectl("apiserver /readyz ok", 2*time.Minute, "ok", "get", "--raw", "/readyz")
	n.pollKubectl("node "+singleNode+" Ready", 2*time.Minute, "True",
		"get", "node", singleNode, "-o", `jsonpath={.status.conditions[?(@.type=="Ready")].status}`)
	// Pods are refused until the namespace's service account exists.
	n.pollKubectl("default service account", time.Minute, "default", "-n", "default", "get", "sa", "default", "-o", "jsonpath={.metadata.name}")
	n.WriteFile("/root/pod.yaml", []byte(podManifest("sleeper", singleNode)), 0o644)
	n.mustKubectl("apply", "-f", "/root/pod.yaml")
	n.pollKubectl("pod Running", 2*time.Minute, "Running", "get", "pod", "sleeper", "-o", "jsonpath={.status.phase}")
	n.poll("kubectl logs (apiserver to kubelet)", 30*time.Second, func() (bool, string) {
		out, err := n.kubectl("logs", "sleeper")
		if err != nil {
			return false, err.Error()
		}
		return strings.Contains(out, "sleeper: up"), "kubectl logs printed " + out
	})
	n.mustKubectl("delete", "pod", "sleeper", "--wait=true", "--timeout=60s")
	tl.mark("pod deleted")
	t.Logf("timeline of %s:\n%s", t.Name(), tl)
}
