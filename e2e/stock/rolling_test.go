//go:build linux

package stock

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
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

// rollout is the settings of services.kubernetes.rollout that the
// rolling changes add to every node: drained from the deployer with the
// admin kubeconfig there, and Ready within readyTimeout seconds.
func rollout(kubeconfig, kubectl string, readyTimeout int) string {
	return fmt.Sprintf(`
config "services.kubernetes.rollout" {
  enable       = true
  kubeconfig   = %q
  kubectl      = %q
  drainTimeout = 240
  readyTimeout = %d
}
`, kubeconfig, kubectl, readyTimeout)
}

// maxPods60 is the kubelet change the rolling changes roll out.
const maxPods60 = `
config "services.kubernetes.kubelet.settings" {
  maxPods = 60
}
`

// brokenNetwork replaces the pod network's CNI configuration with a
// network list of no plugins, under another name (a new file in
// /etc/cni/net.d, which containerd sees): containerd loads no network,
// reports NetworkReady false, and the kubelet, which keeps running, makes
// the Node NotReady.
const brokenNetwork = `
config "services.kubernetes.kubelet.cni" {
  config = mkForce([{ cniVersion = "1.0.0", name = "broken", plugins = [] }])
}
`

// adminOnDeployer writes the master's admin kubeconfig (with its
// certificates inlined) to the deployer's directory, pointed at server,
// as the operator copies it, and returns its path.
func adminOnDeployer(c *cluster, server string) string {
	c.t.Helper()
	raw := c.mustKubectl(nil, "config", "view", "--raw", "--flatten")
	raw = regexp.MustCompile(`(?m)^(\s*server:).*$`).ReplaceAllString(raw, "${1} "+server)
	path := filepath.Join(c.d.dir, "admin.kubeconfig")
	if err := os.WriteFile(path, []byte(raw), 0o600); err != nil {
		c.t.Fatal(err)
	}
	return path
}

// sample is what the sampler saw at one second: the Deployment's
// available replicas (-1: kubectl failed, err says why) and the nodes
// cordoned.
type sample struct {
	at        time.Duration
	available int
	cordoned  []string
	err       string
}

// sampler asks, every second, from the deployer, for the available
// replicas of deployment web and which of nodes are cordoned, and reads
// the machines' memory (their peak is kept).
type sampler struct {
	start   time.Time
	stop    context.CancelFunc
	done    chan struct{}
	mu      sync.Mutex
	samples []sample
	peak    map[string]int64
}

// startSampler starts sampling with the deployer's kubectl and the admin
// kubeconfig there.
func startSampler(s *stockCluster, kubeconfig string, nodes []string) *sampler {
	sp := &sampler{start: time.Now(), done: make(chan struct{}), peak: map[string]int64{}}
	ctx, stop := context.WithCancel(context.Background())
	sp.stop = stop
	args := []string{"--kubeconfig", kubeconfig, "--request-timeout=5s", "get", "deploy/web"}
	for _, n := range nodes {
		args = append(args, "node/"+n)
	}
	args = append(args, "-o", `jsonpath={range .items[*]}{.kind}/{.metadata.name} {.status.availableReplicas}{.spec.unschedulable}{"\n"}{end}`)
	go func() {
		defer close(sp.done)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			out, err := s.network.Command(rctx, filepath.Join(s.bins, "kubectl"), args...).CombinedOutput()
			cancel()
			if ctx.Err() != nil {
				return
			}
			smp := sample{at: time.Since(sp.start), available: -1}
			if err != nil {
				smp.err = strings.TrimSpace(string(out))
			} else {
				for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
					name, value, _ := strings.Cut(line, " ")
					switch {
					case name == "Deployment/web":
						smp.available, _ = strconv.Atoi(value) // absent: none available
					case strings.HasPrefix(name, "Node/") && value == "true":
						smp.cordoned = append(smp.cordoned, strings.TrimPrefix(name, "Node/"))
					}
				}
			}
			sp.mu.Lock()
			sp.samples = append(sp.samples, smp)
			for name, m := range s.machines {
				if mem, err := memoryOf(m); err == nil {
					sp.peak[name] = max(sp.peak[name], mem)
				}
			}
			sp.mu.Unlock()
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	return sp
}

// end stops the sampler and returns its samples' timeline (each change of
// the available replicas or of the cordoned nodes, and each failure), the
// lowest availability, the most nodes cordoned at once, and the number of
// failed samples.
func (sp *sampler) end() (timeline string, low, mostCordoned, failed int) {
	sp.stop()
	<-sp.done
	sp.mu.Lock()
	defer sp.mu.Unlock()
	var b strings.Builder
	low, prev := 1<<30, ""
	for _, s := range sp.samples {
		if s.available < 0 {
			failed++
			fmt.Fprintf(&b, "%6.1f s  kubectl failed: %s\n", s.at.Seconds(), s.err)
			continue
		}
		low = min(low, s.available)
		mostCordoned = max(mostCordoned, len(s.cordoned))
		now := fmt.Sprintf("%d available, cordoned: %s", s.available, strings.Join(s.cordoned, " "))
		if now != prev {
			fmt.Fprintf(&b, "%6.1f s  %s\n", s.at.Seconds(), now)
			prev = now
		}
	}
	return b.String(), low, mostCordoned, failed
}

// rollingChange rolls a change of the kubelet's settings (maxPods = 60)
// through every node of the cluster in waves, with
// services.kubernetes.rollout: waves of 1, 1 and the rest, two hosts at
// once in the last, and never more than one node unavailable
// (--max-unavailable 1), each drained from the deployer before its
// switch and uncordoned once Ready, confirmed once its Node stays Ready.
// Deployment web (2 replicas, a PodDisruptionBudget of minAvailable 1),
// sampled every second from the deployer, never has fewer than 1
// available replica, no two nodes are cordoned at once, and every node
// ends uncordoned on its next generation with 60 pods of capacity. base
// is each host's settings besides; order is the order of the waves. It
// logs the availability's timeline, the deploy's steps and the machines'
// memory and CPU during the change.
func rollingChange(t *testing.T, s *stockCluster, c *cluster, admin string, base map[string]string, order []string) {
	t.Helper()
	d, kubectl := s.d, filepath.Join(s.bins, "kubectl")
	gens := map[string]int{}
	for _, n := range order {
		gens[n] = s.machines[n].generation()
		d.setExtra(n, base[n]+rollout(admin, kubectl, 180)+maxPods60)
	}
	cpu := machinesCPU(t, s.machines)
	sp := startSampler(s, admin, order)
	r := d.ng(append([]string{"deploy", "--json", "--waves", "1,2,100%", "--parallel", "2", "--max-unavailable", "1", "--confirm-timeout", "60s"}, d.fleet(order...)...)...)
	s.tl.mark(fmt.Sprintf("rolling kubelet change through %d nodes: nodegen deploy exit %d in %s", len(order), r.code, r.took.Round(100*time.Millisecond)))
	usage := usageSince(t, s.machines, cpu, sp)
	time.Sleep(10 * time.Second) // samples after the deploy too
	text, low, cordoned, failed := sp.end()
	s.tl.note("the machines during the rolling change (peak memory, CPU over the deploy):\n" + usage)
	t.Logf("the rolling deploy's steps:\n%s", hookTimeline(r.stdout))
	t.Logf("deployment web and the cordoned nodes, %d samples (%d failed), changes:\n%s", len(sp.samples), failed, text)
	if r.code != 0 {
		t.Fatalf("the rolling deploy exited %d, want 0:\n%s", r.code, hostOutputs(r.stdout))
	}
	if len(sp.samples) < int(r.took.Seconds())/2 {
		t.Errorf("only %d samples in %s", len(sp.samples), r.took.Round(time.Second))
	}
	if low < 1 {
		t.Errorf("deployment web had %d available replicas during the rolling change, want at least 1 (its PodDisruptionBudget)", low)
	}
	if cordoned > 1 {
		t.Errorf("%d nodes were cordoned at once during the rolling change, want at most 1 (--max-unavailable 1)", cordoned)
	}
	if failed > len(sp.samples)/10 {
		t.Errorf("%d of %d samples failed", failed, len(sp.samples))
	}
	for _, n := range order {
		if got := s.machines[n].generation(); got != gens[n]+1 {
			t.Errorf("%s: generation %d after the rolling change, want %d", n, got, gens[n]+1)
		}
		if out, _ := c.kubectl(nil, "get", "node", n, "-o", "jsonpath={.spec.unschedulable} {.status.capacity.pods}"); strings.TrimSpace(out) != "60" {
			t.Errorf("%s: unschedulable and pods %q, want uncordoned with 60 pods", n, out)
		}
	}
	t.Logf("pods after the rolling change:\n%s", c.mustKubectl(nil, "get", "pods", "-o", "wide"))
}

// brokenChange rolls, in the same waves, a change that makes a node
// NotReady (brokenNetwork) through the nodes of order: the first wave's
// node is drained and switched, its Node goes NotReady, its uncordon hook
// or its health check fails, and it is rolled back at once to the
// generation it had, where its Node is Ready again; the failure budget
// (--max-fail 0) stops the waves, so that no other node's generation
// changes. Deployment web stays available throughout.
func brokenChange(t *testing.T, s *stockCluster, c *cluster, admin string, base map[string]string, order []string) {
	t.Helper()
	d, kubectl := s.d, filepath.Join(s.bins, "kubectl")
	first := order[0]
	gens := map[string]int{}
	for _, n := range order {
		gens[n] = s.machines[n].generation()
		d.setExtra(n, base[n]+rollout(admin, kubectl, 40)+maxPods60+brokenNetwork)
	}
	sp := startSampler(s, admin, order)
	r := d.ng(append([]string{"deploy", "--json", "--waves", "1,100%", "--max-unavailable", "1", "--confirm-timeout", "60s"}, d.fleet(order...)...)...)
	s.tl.mark(fmt.Sprintf("a change that breaks the pod network: nodegen deploy exit %d in %s", r.code, r.took.Round(100*time.Millisecond)))
	t.Logf("the broken change's steps:\n%s", hookTimeline(r.stdout))
	if r.code != 13 {
		t.Errorf("the deploy of a change that makes %s NotReady exited %d, want 13 (the failure budget stopped the waves):\n%s", first, r.code, hostOutputs(r.stdout))
	}
	var result doneEvent
	for _, e := range doneEvents(r.stdout) {
		switch {
		case e.Host == first:
			result = e
		case e.Outcome != "skipped":
			t.Errorf("%s: %s after the first wave failed, want skipped (the later waves not started): %s", e.Host, e.Outcome, e.Message)
		}
	}
	if result.Outcome != "unhealthy" && result.Outcome != "hook-failed" {
		t.Errorf("%s: %s (%s), want unhealthy or hook-failed (its Node not Ready: rolled back)", first, result.Outcome, result.Message)
	}
	if !strings.Contains(result.Message, fmt.Sprintf("rolled back: generation %d is active again", gens[first])) {
		t.Errorf("%s: message %q, want it rolled back to generation %d", first, result.Message, gens[first])
	}
	for _, n := range order {
		if got := s.machines[n].generation(); got != gens[n] {
			t.Errorf("%s: generation %d active after the broken change, want %d (the one before)", n, got, gens[n])
		}
	}
	// The host says why its generation was rolled back: nodegen status
	// (the confirmation) and nodegen generations (its mark).
	status, _, _, _ := s.machines[first].Run("sh", "-c", `for f in /var/lib/nodegen/deploy/nodegen-*; do "$f" status; "$f" generations; break; done`)
	t.Logf("%s: nodegen status and generations after the rollback:\n%s", first, status)
	for _, want := range []string{
		fmt.Sprintf("confirmation: generation %d was rolled back", gens[first]+1),
		fmt.Sprintf("generation %d rolled back", gens[first]+1),
	} {
		if !strings.Contains(status, want) {
			t.Errorf("%s: nodegen status and generations do not say %q", first, want)
		}
	}
	if why := []string{"): health check failed: ", "): hook failed: "}; !slices.ContainsFunc(why, func(w string) bool { return strings.Contains(status, w) }) {
		t.Errorf("%s: nodegen status and generations do not say that a health check or a hook failed", first)
	}
	c.pollKubectl("node "+first+" Ready again, on its generation of before", 3*time.Minute, "True",
		"get", "node", first, "-o", `jsonpath={.status.conditions[?(@.type=="Ready")].status}`)
	text, low, _, failed := sp.end()
	t.Logf("deployment web and the cordoned nodes during the broken change, %d samples (%d failed), changes:\n%s", len(sp.samples), failed, text)
	if low < 1 {
		t.Errorf("deployment web had %d available replicas during the broken change, want at least 1", low)
	}
	// The operator puts the node back in service once they know why.
	c.mustKubectl(nil, "uncordon", first)
	s.tl.mark(first + " uncordoned")
	for _, n := range order {
		d.setExtra(n, base[n]+rollout(admin, kubectl, 180)+maxPods60)
	}
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
