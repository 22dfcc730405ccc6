//go:build linux

package deploy

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestFleetTimed deploys 20 machines with --parallel 10, three times: the
// first generation (binary and profile copied), a rerun with nothing
// changed, and a second generation; it logs the wall time and each host's
// time. BENCHMARKS.md reports it. It boots 20 machines, so it runs only
// when NODEGEN_DEPLOY_BENCH is set (to the number of machines, default
// 20).
func TestFleetTimed(t *testing.T) {
	n := 0
	switch v := os.Getenv("NODEGEN_DEPLOY_BENCH"); v {
	case "":
		t.Skip("set NODEGEN_DEPLOY_BENCH=20 to deploy 20 machines and time it")
	default:
		fmt.Sscan(v, &n)
		if n <= 0 {
			n = 20
		}
	}
	var names []string
	for i := range n {
		names = append(names, fmt.Sprintf("h%02d", i+1))
	}
	bootStart := time.Now()
	f := newFleet(t, names...)
	t.Logf("booted %d machines in %s", n, time.Since(bootStart).Round(time.Millisecond))
	files := func(body string) []string {
		var fs []string
		for _, name := range names {
			fs = append(fs, f.host(name, body))
		}
		return fs
	}
	run := func(what string, fs []string) {
		t.Helper()
		start := time.Now()
		stdout, _, code := f.deploy(append([]string{"--json", "--on", "*", "--parallel", "10"}, fs...)...)
		wall := time.Since(start)
		if code != 0 {
			t.Fatalf("%s: exit %d", what, code)
		}
		lines := strings.Split(strings.TrimSpace(stdout), "\n")
		var sum struct {
			Hosts []struct {
				Seconds float64 `json:"seconds"`
			} `json:"hosts"`
		}
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &sum); err != nil {
			t.Fatal(err)
		}
		var secs []float64
		total := 0.0
		for _, h := range sum.Hosts {
			secs = append(secs, h.Seconds)
			total += h.Seconds
		}
		sort.Float64s(secs)
		t.Logf("BENCH %s: %d hosts, --parallel 10: wall %.2f s; per host: median %.2f s, max %.2f s, mean %.2f s",
			what, len(secs), wall.Seconds(), secs[len(secs)/2], secs[len(secs)-1], total/float64(len(secs)))
	}
	run("first generation", files(""))
	run("rerun, nothing changed", files(""))
	run("second generation", files(`config "environment.etc.\"nodegen-two\"" { text = "two\n" }`))
}
