package deploy

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// steps returns the commands the host got and the deployer's hooks ran
// (they append to the same file), shortened to what the test compares:
// each hook's or check's marker, and the deploy's own commands by their
// verb.
func steps(commands []string) []string {
	var out []string
	for _, c := range commands {
		switch {
		case strings.HasPrefix(c, "mark "):
			out = append(out, strings.TrimPrefix(c, "mark "))
		case strings.Contains(c, " timeout -k 5 "):
			// Its own mark follows.
		case strings.Contains(c, " receive --key "):
			out = append(out, "keys")
		case strings.Contains(c, " switch "):
			out = append(out, "switch")
		case strings.Contains(c, " confirm --expire "):
			out = append(out, "expire")
		case strings.Contains(c, " confirm "):
			out = append(out, "confirm")
		}
	}
	return out
}

// mark is a hook's command that writes "mark TEXT" to the stand-in's log,
// with the hook's environment, and then exits with code.
func (f *hostileFixture) mark(text string, code int) string {
	return fmt.Sprintf(`echo "mark %s $NODEGEN_PHASE $NODEGEN_HOST" >> %s; exit %d`, text, filepath.Join(f.dir, "commands"), code)
}

// TestDeployHooks: the hooks run in their order around the switch, on the
// deployer or the host, then the health checks by name, then the
// confirmation; a failure stops the host where the table says, rolled
// back (confirm --expire) once it has switched.
func TestDeployHooks(t *testing.T) {
	text := "s3cret\n"
	key := map[string]Key{"k": {Name: "k", Text: &text, DestDir: "/run/keys", User: "root", Group: "root", Permissions: "0600"}}
	for _, tc := range []struct {
		name      string
		failAt    string // the mark of the hook or check that fails
		want      Outcome
		wantMsg   string
		wantSteps []string
		// wantReason is what the rollback tells the host (confirm
		// --expire --reason) and the rollback event says.
		wantReason string
	}{
		{"all pass", "", Confirmed, "", []string{
			"drain beforeSwitch web1", "stop beforeSwitch web1", "keys", "switch",
			"uncordon afterSwitch web1", "a-ready health web1", "b-pods health web1", "confirm"}, ""},
		{"a beforeSwitch hook fails", "stop", HookFailed,
			"beforeSwitch hook stop (on the host) failed: exit 3; nothing was changed on the host",
			[]string{"drain beforeSwitch web1", "stop beforeSwitch web1"}, ""},
		{"an afterSwitch hook fails", "uncordon", HookFailed,
			"afterSwitch hook uncordon (on the deployer) failed: exit 3; rolled back: no generation is active",
			[]string{"drain beforeSwitch web1", "stop beforeSwitch web1", "keys", "switch", "uncordon afterSwitch web1", "expire"},
			"hook failed: afterSwitch uncordon (on the deployer): exit 3"},
		{"a health check fails", "b-pods", Unhealthy,
			"health check b-pods failed (3 tries): exit 3; rolled back: no generation is active",
			[]string{"drain beforeSwitch web1", "stop beforeSwitch web1", "keys", "switch", "uncordon afterSwitch web1",
				"a-ready health web1", "b-pods health web1", "b-pods health web1", "b-pods health web1", "expire"},
			"health check failed: b-pods (3 tries): exit 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newHostile(t, key)
			code := func(m string) int {
				if m == tc.failAt {
					return 3
				}
				return 0
			}
			f.host.Options.BeforeSwitch = []Hook{
				{Name: "drain", RunOn: "deployer", Command: f.mark("drain", code("drain")), Timeout: 10},
				{Name: "stop", RunOn: "host", Command: f.mark("stop", code("stop")), Timeout: 10},
			}
			f.host.Options.AfterSwitch = []Hook{{Name: "uncordon", RunOn: "deployer", Command: f.mark("uncordon", code("uncordon")), Timeout: 10}}
			f.host.Options.HealthChecks = map[string]HealthCheck{
				"b-pods":  {Command: f.mark("b-pods", code("b-pods")), Timeout: 10, Retries: 2, Interval: 1},
				"a-ready": {Command: f.mark("a-ready", code("a-ready")), Timeout: 10, Interval: 1},
			}
			var events []Event
			f.cfg.Event = func(e Event) { events = append(events, e) }
			r, commands := f.run()
			if r.Outcome != tc.want || r.Message != tc.wantMsg {
				t.Errorf("result %s %q, want %s %q", r.Outcome, r.Message, tc.want, tc.wantMsg)
			}
			if diff := cmp.Diff(tc.wantSteps, steps(commands)); diff != "" {
				t.Errorf("steps (-want +got):\n%s\ncommands:\n%s", diff, strings.Join(commands, "\n"))
			}
			// The rollback tells the host why, and says it.
			var expire, rollback []string
			for _, c := range commands {
				if strings.Contains(c, " confirm --expire ") {
					expire = append(expire, c)
				}
			}
			for _, e := range events {
				if e.Step == "rollback" {
					rollback = append(rollback, e.Message)
				}
			}
			if tc.wantReason == "" {
				if len(expire)+len(rollback) > 0 {
					t.Errorf("rolled back: %q, events %q", expire, rollback)
				}
			} else {
				if len(expire) != 1 || !strings.Contains(expire[0], " confirm --expire --reason '"+tc.wantReason+"' ") {
					t.Errorf("the rollback's commands %q, want one with --reason '%s'", expire, tc.wantReason)
				}
				if want := []string{"generation 1: " + tc.wantReason}; !slices.Equal(rollback, want) {
					t.Errorf("rollback events %q, want %q", rollback, want)
				}
			}
			// Each hook and check is reported as it ends.
			var reported []string
			for _, e := range events {
				if e.Step == phaseBefore || e.Step == phaseAfter || e.Step == phaseHealth {
					name, _, _ := strings.Cut(e.Message, " ")
					reported = append(reported, e.Step+" "+strings.TrimSuffix(name, ":"))
				}
			}
			if len(reported) == 0 || !strings.HasPrefix(reported[0], "beforeSwitch drain") {
				t.Errorf("events: %q", reported)
			}
		})
	}
}

// TestDeployHookTimeout: a hook on the deployer that outlives its timeout
// is stopped and fails the host.
func TestDeployHookTimeout(t *testing.T) {
	f := newHostile(t, nil)
	f.host.Options.BeforeSwitch = []Hook{{Name: "slow", RunOn: "deployer", Command: "sleep 20", Timeout: 1}}
	start := time.Now()
	r, commands := f.run()
	if r.Outcome != HookFailed || r.Message != "beforeSwitch hook slow (on the deployer) failed: stopped after 1s; nothing was changed on the host" {
		t.Errorf("result %s %q", r.Outcome, r.Message)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %s", took)
	}
	if slices.Contains(steps(commands), "switch") {
		t.Errorf("switched: %q", commands)
	}
}

// TestDeployConfirmWindow: the host's confirmation timeout covers the
// afterSwitch hooks and the health checks at their longest.
func TestDeployConfirmWindow(t *testing.T) {
	f := newHostile(t, nil)
	f.host.Options.AfterSwitch = []Hook{{Name: "a", RunOn: "deployer", Command: "true", Timeout: 60}}
	f.host.Options.HealthChecks = map[string]HealthCheck{"h": {Command: "true", Timeout: 10, Retries: 2, Interval: 5}}
	_, commands := f.run()
	// 5 s of --confirm-timeout, 60+15 for the hook, 3*(10+15)+2*5 for the check.
	i := slices.IndexFunc(commands, func(c string) bool { return strings.Contains(c, " switch ") })
	if i < 0 || !strings.Contains(commands[i], "--confirm-timeout 165s ") {
		t.Errorf("switch: %q", commands)
	}
}

// TestUnavailableBudget: the smallest of the flag and the hosts' own
// values, 0 when none is set.
func TestUnavailableBudget(t *testing.T) {
	one, three := 1, 3
	for _, tc := range []struct {
		flag  int
		hosts []Host
		want  int
	}{
		{0, []Host{{}, {}}, 0},
		{2, []Host{{}, {}}, 2},
		{0, []Host{{Options: Options{MaxUnavailable: &three}}, {}}, 3},
		{2, []Host{{Options: Options{MaxUnavailable: &three}}, {Options: Options{MaxUnavailable: &one}}}, 1},
		{2, []Host{{Options: Options{MaxUnavailable: &three}}}, 2},
	} {
		if got := UnavailableBudget(tc.flag, tc.hosts); got != tc.want {
			t.Errorf("UnavailableBudget(%d, %+v) = %d, want %d", tc.flag, tc.hosts, got, tc.want)
		}
	}
}

// TestMaxUnavailable: with 6 hosts, --parallel 6 and a budget of 2, no
// more than 2 hosts are between their switch's start and their end at
// once, and 2 are (the budget is used).
func TestMaxUnavailable(t *testing.T) {
	for _, budget := range []int{1, 2} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			f := newHostile(t, nil)
			busy := filepath.Join(f.dir, "busy")
			// The before hook marks the start, the switch takes a while,
			// the health check marks the end.
			f.write("switch.sh", "sleep 0.4\n")
			var hosts []Host
			for i := range 6 {
				h := f.host
				h.Name = fmt.Sprintf("n%d", i)
				h.Options.BeforeSwitch = []Hook{{Name: "down", RunOn: "deployer", Command: "echo + >> " + busy, Timeout: 10}}
				h.Options.HealthChecks = map[string]HealthCheck{"up": {Command: "echo - >> " + busy, Timeout: 10, Interval: 1}}
				hosts = append(hosts, h)
			}
			f.cfg.Parallel, f.cfg.MaxUnavailable = 6, budget
			var mu sync.Mutex
			f.cfg.Event = func(Event) { mu.Lock(); mu.Unlock() }
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			results, _, err := Run(ctx, f.cfg, hosts)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range results {
				if r.Outcome != Confirmed {
					t.Fatalf("%s: %s %s", r.Host, r.Outcome, r.Message)
				}
			}
			data, err := os.ReadFile(busy)
			if err != nil {
				t.Fatal(err)
			}
			depth, peak := 0, 0
			for _, c := range strings.Fields(string(data)) {
				if c == "+" {
					depth++
				} else {
					depth--
				}
				peak = max(peak, depth)
			}
			if peak != budget {
				t.Errorf("at most %d hosts were down at once, want %d: %q", peak, budget, data)
			}
		})
	}
}

// TestRollbackReason: the reason a rollback gives the host is one
// printable line, cut at a character, that never reaches confirm
// --reason's bound.
func TestRollbackReason(t *testing.T) {
	long := "health check failed: x (1 tries): exit 1: " + strings.Repeat("é", 400)
	for _, tc := range []struct{ name, why, want string }{
		{"as it is", "hook failed: afterSwitch u (on the host): exit 1", "hook failed: afterSwitch u (on the host): exit 1"},
		{"empty", "", "rolled back by nodegen deploy"},
		{"lines and controls", "health check failed: h (1 tries): exit 1: a\nb\tc \x1b[31mred", `health check failed: h (1 tries): exit 1: a b c \x1b[31mred`},
		{"long", long, long[:296] + "..."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := rollbackReason(tc.why)
			if got != tc.want {
				t.Errorf("rollbackReason(%q) = %q, want %q", tc.why, got, tc.want)
			}
			if len(got) > maxReasonBytes || strings.ContainsAny(got, "\n\r") || !utf8.ValidString(got) {
				t.Errorf("rollbackReason(%q) = %q: not one valid line of at most %d bytes", tc.why, got, maxReasonBytes)
			}
		})
	}
}
