//go:build linux

package deploy

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// hooked is the deployment of a host with a hook on each side of its
// switch on the deployer (marking the host down and up in timeline), one
// on the host on each side (noting what /etc/deployed says then), and a
// health check (noting it too).
func hooked(timeline string) string {
	return fmt.Sprintf(`
config "deployment" {
  beforeSwitch = [
    { name = "down", runOn = "deployer", command = "echo \"$(date +%%s.%%N) + $NODEGEN_HOST\" >> %[1]s; sleep 1" },
    { name = "note-before", command = "echo \"before $(cat /etc/deployed 2>/dev/null || echo nothing)\" >> /var/tmp/hooks" },
  ]
  afterSwitch = [
    { name = "note-after", command = "echo \"after $(cat /etc/deployed)\" >> /var/tmp/hooks" },
    { name = "up", runOn = "deployer", command = "echo \"$(date +%%s.%%N) - $NODEGEN_HOST\" >> %[1]s" },
  ]
  healthChecks = {
    deployed = { command = "echo \"health $(cat /etc/deployed)\" >> /var/tmp/hooks" }
  }
}
`, timeline)
}

// TestHooksAndBudget deploys three hosts with hooks and a health check,
// three at once but --max-unavailable 2: on each host the hooks run in
// their order around the switch (the host's before hook sees the old
// /etc, its after hook and the check the new), and never more than 2
// hosts are between their first hook and their end at once.
func TestHooksAndBudget(t *testing.T) {
	names := []string{"a", "b", "c"}
	f := newFleet(t, names...)
	timeline := filepath.Join(f.dir, "timeline")
	var files []string
	for _, n := range names {
		files = append(files, f.host(n, hooked(timeline)))
	}
	start := time.Now()
	_, stderr, code := f.deploy(append([]string{"--parallel", "3", "--max-unavailable", "2"}, files...)...)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, n := range names {
		f.waitGeneration(n, 1, "confirmed", 0)
		want := fmt.Sprintf("before nothing\nafter host %[1]s\nhealth host %[1]s\n", n)
		if got := f.machines[n].MustRun("cat", "/var/tmp/hooks"); got != want {
			t.Errorf("%s: the host's hooks noted %q, want %q", n, got, want)
		}
		for _, line := range []string{n + ": beforeSwitch: down (on the deployer): passed", n + ": afterSwitch: note-after (on the host): passed", n + ": health: deployed: passed (1 tries)"} {
			if !strings.Contains(stderr, line) {
				t.Errorf("no line %q in the output", line)
			}
		}
	}
	data, err := os.ReadFile(timeline)
	if err != nil {
		t.Fatal(err)
	}
	peak := printTimeline(t, start, string(data))
	if peak != 2 {
		t.Errorf("at most %d hosts were down at once, want 2 (the budget, used)", peak)
	}
}

// printTimeline logs the marks of the hosts going down (+) and up (-),
// in seconds from start, and returns how many were down at once at most.
func printTimeline(t *testing.T, start time.Time, data string) int {
	t.Helper()
	type mark struct {
		at   float64
		sign string
		host string
	}
	var marks []mark
	for _, line := range strings.Split(strings.TrimSpace(data), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			t.Fatalf("timeline line %q", line)
		}
		at, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			t.Fatal(err)
		}
		marks = append(marks, mark{at, f[1], f[2]})
	}
	sort.SliceStable(marks, func(i, j int) bool { return marks[i].at < marks[j].at })
	down, peak := 0, 0
	var b strings.Builder
	origin := float64(start.UnixNano()) / 1e9
	for _, m := range marks {
		if m.sign == "+" {
			down++
		} else {
			down--
		}
		peak = max(peak, down)
		what := "down"
		if m.sign == "-" {
			what = "up"
		}
		fmt.Fprintf(&b, "%7.2f s  %s %-4s (%d down)\n", m.at-origin, m.host, what, down)
	}
	t.Logf("timeline:\n%s", b.String())
	return peak
}

// TestUnhealthyRollsBack deploys a generation whose health check fails
// on the first wave's host: the deploy rolls it back at once (before its
// timer would), exits 13 as the failure budget stops the later wave, and
// the host runs generation 1 again, generation 2 marked rolled back.
func TestUnhealthyRollsBack(t *testing.T) {
	f := newFleet(t, "a", "b")
	files := []string{f.host("a", ""), f.host("b", "")}
	if _, _, code := f.deploy(files...); code != 0 {
		t.Fatalf("generation 1: exit %d", code)
	}
	f.waitGeneration("a", 1, "confirmed", 0)
	check := `
config "environment.etc.\"nodegen-two\"" { text = "two\n" }
config "deployment" {
  healthChecks = {
    app = { command = "test -e /etc/app-ready || { echo app not ready; exit 1; }", retries = 2, interval = 1, timeout = 5 }
  }
}
`
	files = []string{f.host("a", check), f.host("b", check)}
	start := time.Now()
	stdout, stderr, code := f.deploy(append([]string{"--waves", "1,100%", "--confirm-timeout", "120s"}, files...)...)
	took := time.Since(start)
	if code != 13 {
		t.Fatalf("exit %d, want 13 (the failure budget stopped the deploy)", code)
	}
	for _, want := range []string{
		"a: health: app: failed after 3 tries: exit 1: app not ready",
		"a: unhealthy (generation 2): health check app failed (3 tries): exit 1: app not ready; rolled back: generation 1 is active again",
		"b: skipped",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("no %q in the output", want)
		}
	}
	if !strings.Contains(stdout, "1 unhealthy (rolled back), 1 skipped (stopped by the failure budget)") {
		t.Errorf("summary: %s", stdout)
	}
	// At once: long before the 120 s confirmation timeout.
	if took > 90*time.Second {
		t.Errorf("the deploy took %s", took)
	}
	f.waitGeneration("a", 1, "rolled-back", 0)
	if out, _, code, _ := f.machines["a"].Run("test", "-e", "/etc/nodegen-two"); code == 0 {
		t.Errorf("/etc/nodegen-two is still there after the rollback %s", out)
	}
	gens := f.machines["a"].MustRun("sh", "-c", "/var/lib/nodegen/deploy/nodegen-* generations")
	if !strings.Contains(gens, "generation 2 rolled back (") {
		t.Errorf("nodegen generations after the rollback:\n%s", gens)
	}
	f.waitGeneration("b", 1, "confirmed", 0)
	t.Logf("unhealthy host rolled back, deploy ended in %s", took.Round(100*time.Millisecond))
}
