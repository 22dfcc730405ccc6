package stock

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nodegen/nodegen/e2e/internal/k8se2e"
)

// rollingWorkload is a Deployment of two sleepers, preferably on two
// nodes, and a PodDisruptionBudget that keeps one of them available.
var rollingWorkload = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      terminationGracePeriodSeconds: 5
      affinity:
        podAntiAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 100
            podAffinityTerm: {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: web}}}
      containers:
      - name: sleeper
        image: ` + k8se2e.ImageTags[1] + `
        imagePullPolicy: Never
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: default}
spec:
  minAvailable: 1
  selector: {matchLabels: {app: web}}
`

// TestRollingKubeletChange rolls a change of the kubelet's settings
// through the walk-through's cluster (the master taking pods too, so that
// a drained node's pods have somewhere to go) with
// services.kubernetes.rollout: one node at a time (--max-unavailable 1,
// waves of one then the rest), each drained from the deployer before its
// switch and uncordoned once Ready, confirmed once its Node is Ready. A
// 2-replica Deployment with a PodDisruptionBudget of minAvailable 1,
// sampled every second from the deployer, never has fewer than 1
// available replica, and every node ends uncordoned on its new
// generation.
func TestRollingKubeletChange(t *testing.T) {
	// The master takes pods too: two nodes to move the workload between.
	s := newStockCluster(t, "testdata/walkthrough", hosts, func(d *deployer) {
		d.setExtra("master01", "\nconfig \"services.kubernetes\" {\n  roles = [\"node\"]\n}\n")
	})
	tl, d, bins, network, machines := s.tl, s.d, s.bins, s.network, s.machines
	master := machines["master01"]
	d.mustDeploy("master01 (first deploy)", "master01")
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
	d.mustDeploy("fleet (the worker joins)")
	for _, h := range hosts {
		c.pollKubectl("node "+h.name+" Ready", 3*time.Minute, "True",
			"get", "node", h.name, "-o", `jsonpath={.status.conditions[?(@.type=="Ready")].status}`)
	}

	// The operator's admin kubeconfig on the deploying machine, pointed
	// at the master's address.
	admin := filepath.Join(d.dir, "admin.kubeconfig")
	raw := c.mustKubectl(nil, "config", "view", "--raw", "--flatten")
	raw = regexp.MustCompile(`(?m)^(\s*server:).*$`).ReplaceAllString(raw, "${1} https://"+master.address+":6443")
	if err := os.WriteFile(admin, []byte(raw), 0o600); err != nil {
		t.Fatal(err)
	}
	kubectl := filepath.Join(bins, "kubectl")
	local := func(ctx context.Context, args ...string) (string, error) {
		cmd := network.Command(ctx, kubectl, append([]string{"--kubeconfig", admin, "--request-timeout=5s"}, args...)...)
		out, err := cmd.CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	c.pollKubectl("default service account", time.Minute, "default", "-n", "default", "get", "sa", "default", "-o", "jsonpath={.metadata.name}")
	c.mustKubectl([]byte(rollingWorkload), "apply", "-f", "-")
	c.pollKubectl("deployment web: 2 available", 3*time.Minute, "2", "get", "deploy", "web", "-o", "jsonpath={.status.availableReplicas}")
	t.Logf("pods before:\n%s", c.mustKubectl(nil, "get", "pods", "-o", "wide"))

	// Availability, sampled every second from the deployer.
	type sample struct {
		at        time.Duration
		available int
		err       string
	}
	var (
		mu      sync.Mutex
		samples []sample
	)
	start := time.Now()
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			out, err := local(rctx, "get", "deploy", "web", "-o", "jsonpath={.status.availableReplicas}")
			cancel()
			s := sample{at: time.Since(start)}
			if err != nil {
				s.available, s.err = -1, out
			} else {
				s.available, _ = strconv.Atoi(out)
			}
			if ctx.Err() != nil {
				return
			}
			mu.Lock()
			samples = append(samples, s)
			mu.Unlock()
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()

	gens := map[string]int{}
	for _, h := range hosts {
		gens[h.name] = machines[h.name].generation()
	}
	rollout := fmt.Sprintf(`
config "services.kubernetes.rollout" {
  enable       = true
  kubeconfig   = %q
  kubectl      = %q
  drainTimeout = 240
}
config "services.kubernetes.kubelet.settings" {
  maxPods = 60
}
`, admin, kubectl)
	d.setExtra("master01", "\nconfig \"services.kubernetes\" {\n  roles = [\"node\"]\n}\n"+rollout)
	d.setExtra("worker01", rollout)
	t.Logf("the rolling deploy begins at %.1f s of the sampling", time.Since(start).Seconds())
	r := d.ng(append([]string{"deploy", "--json", "--waves", "1,100%", "--max-unavailable", "1", "--confirm-timeout", "60s"}, d.fleet("worker01", "master01")...)...)
	tl.mark(fmt.Sprintf("rolling kubelet change: nodegen deploy exit %d in %s", r.code, r.took.Round(100*time.Millisecond)))
	// Ten more seconds of samples after the deploy.
	time.Sleep(10 * time.Second)
	stop()
	<-done
	if r.code != 0 {
		t.Errorf("the rolling deploy exited %d, want 0:\n%s", r.code, hostOutputs(r.stdout))
	}
	t.Logf("the rolling deploy's steps:\n%s", hookTimeline(r.stdout))

	// The availability's timeline: each change, and the minimum.
	mu.Lock()
	defer mu.Unlock()
	var tlText strings.Builder
	low, failed := 2, 0
	prev := -2
	for _, s := range samples {
		if s.available < 0 {
			failed++
			fmt.Fprintf(&tlText, "%6.1f s  kubectl failed: %s\n", s.at.Seconds(), s.err)
			continue
		}
		low = min(low, s.available)
		if s.available != prev {
			fmt.Fprintf(&tlText, "%6.1f s  %d available\n", s.at.Seconds(), s.available)
			prev = s.available
		}
	}
	t.Logf("availability of deployment web, %d samples (%d failed), changes:\n%s", len(samples), failed, tlText.String())
	if len(samples) < int(r.took.Seconds())/2 {
		t.Errorf("only %d samples in %s", len(samples), r.took.Round(time.Second))
	}
	if low < 1 {
		t.Errorf("deployment web had %d available replicas during the rolling change, want at least 1 (its PodDisruptionBudget)", low)
	}
	if failed > len(samples)/10 {
		t.Errorf("%d of %d samples failed", failed, len(samples))
	}
	for _, h := range hosts {
		if got := machines[h.name].generation(); got != gens[h.name]+1 {
			t.Errorf("%s: generation %d after the rolling change, want %d", h.name, got, gens[h.name]+1)
		}
		if out, _ := c.kubectl(nil, "get", "node", h.name, "-o", "jsonpath={.spec.unschedulable} {.status.capacity.pods}"); strings.TrimSpace(out) != "60" {
			t.Errorf("%s: unschedulable and pods %q, want uncordoned with 60 pods", h.name, out)
		}
	}
	t.Logf("pods after:\n%s", c.mustKubectl(nil, "get", "pods", "-o", "wide"))
}

// hookTimeline returns the steps of nodegen deploy --json that the
// hooks, switches, health checks and confirmations are, a line each with
// its time since the deploy began, in their order.
func hookTimeline(events string) string {
	var b strings.Builder
	for _, line := range strings.Split(events, "\n") {
		var e struct {
			Host, Step, Message string
			At                  float64
			Result              *struct{ Outcome, Message string }
		}
		if json.Unmarshal([]byte(line), &e) != nil || e.Step == "" {
			continue
		}
		switch e.Step {
		case "beforeSwitch", "switch", "afterSwitch", "health", "rollback", "confirm":
			fmt.Fprintf(&b, "%6.1f s  %s: %s %s\n", e.At, e.Host, e.Step, e.Message)
		case "done":
			fmt.Fprintf(&b, "%6.1f s  %s: %s %s\n", e.At, e.Host, e.Result.Outcome, e.Result.Message)
		}
	}
	return b.String()
}
