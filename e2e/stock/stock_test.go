//go:build linux

package stock

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestStockCluster brings a Kubernetes cluster up on stock Debian
// machines with nodegen deploy alone, as docs/kubernetes.md's "A cluster
// on stock machines" does, then changes the kubelet's settings, deploys
// an unchanged fleet, and deploys a setting the kubelet refuses.
func TestStockCluster(t *testing.T) {
	s := newStockCluster(t, "testdata/walkthrough", hosts, nil)
	tl, d, bins, machines := s.tl, s.d, s.bins, s.machines
	lock, err := os.ReadFile(filepath.Join(d.dir, "fleet", "nodegen.lock.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("nodegen.lock.hcl:\n%s", lock)
	master, worker := machines["master01"], machines["worker01"]

	// The master first: its CA's API token is the worker's key.
	d.mustDeploy("master01 (first deploy)", "master01")
	master.requireInstalledBySwitch()
	c := &cluster{t: t, tl: tl, d: d, master: master}
	c.pollKubectl("apiserver /readyz ok", 3*time.Minute, "ok", "get", "--raw", "/readyz")
	token := d.ssh(master.address, nil, "cat", apiToken)
	if token.code != 0 || strings.TrimSpace(token.stdout) == "" {
		t.Fatalf("ssh %s cat %s: exit %d: %s", master.address, apiToken, token.code, token.stderr)
	}
	secret := filepath.Join(d.dir, "hosts", "secrets", "apitoken.secret")
	if err := os.MkdirAll(filepath.Dir(secret), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(secret, []byte(token.stdout), 0o600); err != nil {
		t.Fatal(err)
	}
	tl.mark("the master's CA token fetched to hosts/secrets/apitoken.secret")

	d.mustDeploy("fleet (the worker joins)")
	worker.requireInstalledBySwitch()
	for _, h := range hosts {
		c.pollKubectl("node "+h.name+" Ready", 3*time.Minute, "True",
			"get", "node", h.name, "-o", `jsonpath={.status.conditions[?(@.type=="Ready")].status}`)
	}
	c.runPod("sleeper", "worker01")
	c.kubectlFromDeployer(bins)
	master.requireNoFailedUnits()
	worker.requireNoFailedUnits()

	// A change of the kubelet's settings restarts the kubelet, and
	// nothing else, on the worker only.
	before := map[string]map[string]string{"master01": master.invocations(), "worker01": worker.invocations()}
	gen := worker.generation()
	d.setExtra("worker01", "\nconfig \"services.kubernetes.kubelet.settings\" {\n  maxPods = 50\n}\n")
	d.mustDeploy("fleet with the worker's kubelet at maxPods = 50")
	if got := worker.generation(); got != gen+1 {
		t.Errorf("worker01: generation %d after the settings' deploy, want %d", got, gen+1)
	}
	if got := master.restartedSince(before["master01"]); len(got) > 0 {
		t.Errorf("master01: units restarted or stopped by the worker's settings' deploy: %v", got)
	}
	if got := worker.restartedSince(before["worker01"]); !slices.Equal(got, []string{"kubelet.service"}) {
		t.Errorf("worker01: units restarted or stopped by the kubelet's settings' deploy: %v, want [kubelet.service]", got)
	}
	c.pollKubectl("worker01's node reports maxPods 50", 2*time.Minute, "50", "get", "node", "worker01", "-o", "jsonpath={.status.capacity.pods}")

	// An unchanged fleet: nothing is copied, no unit restarts.
	before = map[string]map[string]string{"master01": master.invocations(), "worker01": worker.invocations()}
	gens := map[string]int{"master01": master.generation(), "worker01": worker.generation()}
	r := d.mustDeploy("unchanged fleet")
	if strings.Contains(r.stdout, `"step":"copy-`) {
		t.Errorf("the deploy of an unchanged fleet copied:\n%s", r.stdout)
	}
	if r.took > 30*time.Second {
		t.Errorf("the deploy of an unchanged fleet took %s, want seconds", r.took.Round(time.Second))
	}
	for _, h := range []*host{master, worker} {
		if got := h.restartedSince(before[h.name]); len(got) > 0 {
			t.Errorf("%s: units restarted or stopped by the deploy of an unchanged fleet: %v", h.name, got)
		}
		if got := h.generation(); got != gens[h.name] {
			t.Errorf("%s: generation %d after the deploy of an unchanged fleet, want %d", h.name, got, gens[h.name])
		}
	}

	// A setting the kubelet refuses: the worker goes back by itself.
	d.setExtra("worker01", "\nconfig \"services.kubernetes.kubelet.settings\" {\n  maxPods         = 50\n  registryPullQPS = -1\n}\n")
	r = d.deploy("fleet with a kubelet setting the kubelet refuses (registryPullQPS = -1)")
	if r.code != 10 {
		t.Errorf("the deploy of a refused kubelet setting exited %d, want 10 (an activation failed; the host went back by itself):\n%s", r.code, hostOutputs(r.stdout))
	}
	if got := outcomes(r.stdout); got["worker01"] != "rolled-back" || got["master01"] != "confirmed" {
		t.Errorf("the deploy of a refused kubelet setting: outcomes %v, want worker01 rolled-back and master01 confirmed", got)
	}
	if got := worker.generation(); got != gens["worker01"] {
		t.Errorf("worker01: generation %d active after the refused setting, want %d (the one before)", got, gens["worker01"])
	}
	if got := master.generation(); got != gens["master01"] {
		t.Errorf("master01: generation %d active after the worker's refused setting, want %d", got, gens["master01"])
	}
	worker.poll("kubelet active again", 2*time.Minute, func() (bool, string) {
		out, _, _, _ := worker.Run("systemctl", "is-active", "kubelet.service")
		return strings.TrimSpace(out) == "active", "kubelet.service is " + strings.TrimSpace(out)
	})
	c.pollKubectl("node worker01 Ready again", 3*time.Minute, "True",
		"get", "node", "worker01", "-o", `jsonpath={.status.conditions[?(@.type=="Ready")].status}`)
	master.requireNoFailedUnits()
	worker.requireNoFailedUnits()
}
