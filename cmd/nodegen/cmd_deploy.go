package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/nodegen/nodegen/deploy"
	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/evalprofile"
	"github.com/nodegen/nodegen/internal/runtimetune"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/profile"
)

// Exit codes of nodegen deploy, beyond exitError (a host's evaluation
// failed: nothing was deployed) and exitUsage.
const (
	exitActivationFailed = 10 // a host's activation failed (it went back by itself), or a step of its deploy
	exitRolledBack       = 11 // a host was not confirmed and rolls back by itself
	exitUnreachable      = 12 // a host could not be reached
	exitBudget           = 13 // the failure budget stopped the later waves
	exitRefused          = 14 // a host's switch refused before changing anything (with --dry-run: a plan has conflicts)
	exitBusy             = 15 // another nodegen command held a host's lock: nothing changed there
	exitUnhealthy        = 16 // a host's health check failed after its activation: it was rolled back
	exitHookFailed       = 17 // a host's beforeSwitch hook failed (nothing changed) or its afterSwitch hook did (it was rolled back)
)

// outcomeCodes are the exit codes of the hosts' outcomes; the highest
// applies, unless the failure budget stopped the deploy.
var outcomeCodes = map[deploy.Outcome]int{
	deploy.Failed: exitActivationFailed, deploy.RolledBack: exitActivationFailed, deploy.NotConfirmed: exitRolledBack,
	deploy.Unreachable: exitUnreachable, deploy.Refused: exitRefused, deploy.Busy: exitBusy,
	deploy.Unhealthy: exitUnhealthy, deploy.HookFailed: exitHookFailed,
}

// summaryOrder is the order of the outcomes in the summary line.
var summaryOrder = []struct {
	o    deploy.Outcome
	text string
}{
	{deploy.Confirmed, "confirmed"}, {deploy.Planned, "planned"}, {deploy.Refused, "refused"}, {deploy.Busy, "busy"},
	{deploy.Failed, "failed"}, {deploy.RolledBack, "rolled back"}, {deploy.NotConfirmed, "not confirmed (rolling back)"},
	{deploy.Unhealthy, "unhealthy (rolled back)"}, {deploy.HookFailed, "hook failed"},
	{deploy.Unreachable, "unreachable"}, {deploy.Skipped, "skipped"},
}

func init() {
	commands = append(commands, &command{
		name:    "deploy",
		summary: "Deploy hosts over SSH: copy each profile, switch, and confirm over a new connection.",
		usage:   "nodegen deploy [--on SELECTOR]... [--parallel N] [--max-per-jump N] [--waves LIST] [--max-fail N|P%] [--max-unavailable N] [--confirm-timeout DUR] [--backup] [--dry-run] [--json] [-v] [--fleet FLEET.hcl] HOST.hcl...",
		help: `Each HOST.hcl is evaluated as nodegen build does; then, per host, nodegen
deploy connects with the system's ssh (one master connection; the host's
deployment.targetHost, targetPort, targetUser and sshOptions, then
~/.ssh/config), copies the nodegen binary when the host lacks this one and
of the profile the files the host has no copy of (by hash; nodegen receive
there; below /var/lib/nodegen/deploy), writes the host's deployment.keys, and runs
"nodegen switch --rollback-on-failure --confirm-token-file -" there, a
new token on its stdin. The switch arms a systemd timer on the host that
rolls back unless "nodegen confirm GEN" with the token comes within
--confirm-timeout (a boot unit keeps that promise across a reboot); the
deployer sends it
over a new SSH connection and reads the active generation back. A host
that keeps the deployer out rolls back by itself.

A host's switch takes over the files its installer and packages put in
/etc unchanged (/etc/hostname, dpkg conffiles, ...) and refuses files an
admin edited; --backup (or a host's deployment.backupConflicts) has it
move those aside too, and put them back when nodegen stops managing them.

--on chooses hosts by name, glob or @TAG (deployment.tags), repeated or
comma-separated; more than 5 hosts need --on ('*' for all). --waves
1,10%,100% deploys one host, then up to 10% of them, then the rest; after a
wave, more failed hosts than --max-fail (default 0) stops the later waves.
--max-unavailable N (or the smallest deployment.maxUnavailable of the
hosts) bounds how many hosts are unavailable at once: from their
beforeSwitch hooks until their deploy ends.

A host's deployment.beforeSwitch hooks run (on the host or here) before
its keys and switch; one that fails stops the host, nothing changed. Once
the new generation is active, its afterSwitch hooks and then its
deployment.healthChecks run; one that fails rolls the host back at once.

On failure, each host's line says why first, followed by what its switch
printed on stderr (the failed units' journals); -v adds the plan its
switch printed, which --json always has.

Exit codes: 0 every host confirmed (or planned); 10 an activation failed
(the host went back by itself) or a step of a host's deploy failed; 11 a
host was not confirmed and rolls back by itself; 12 a host was
unreachable; 13 the failure budget stopped the deploy; 14 a host's switch
refused before changing anything (files in the way, an invalid profile;
with --dry-run, a plan has conflicts); 15 another nodegen command held a
host's lock; 16 a host's health check failed (it was rolled back); 17 a
host's hook failed (the highest one applies, but 13 whenever the budget stopped
the deploy); 1 an evaluation failed and nothing was deployed. Nothing is
kept here between runs: a rerun deploys what is missing.
docs/deploying.md explains it all.`,
		example: "nodegen deploy --on @web --parallel 10 hosts/*.hcl\nnodegen deploy --dry-run hosts/db1.hcl",
		args:    argsModules,
		flags:   deployCommand,
		gc:      runtimetune.ManyEvaluations,
	})
}

func deployCommand(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
	var ef evalFlags
	on := fs.StringSlice("on", nil, "deploy only the hosts that `SELECTOR` matches: a name, a glob, or @TAG")
	parallel := fs.Int("parallel", 10, "deploy `N` hosts at once")
	perJump := fs.Int("max-per-jump", 5, "deploy at most `N` hosts at once through one jump host (ProxyJump), whose sshd bounds connections (MaxStartups)")
	waves := fs.String("waves", "", "deploy in waves: `LIST` of hosts done after each wave, a number or a percentage (1,10%,100%)")
	maxFail := fs.String("max-fail", "0", "the failure budget: after a wave, more than `N` (or P% of the hosts) failed stops the later waves")
	maxUnavailable := fs.Int("max-unavailable", 0, "at most `N` hosts unavailable at once (from their beforeSwitch hooks until their deploy ends); 0: no bound but --parallel and the hosts' deployment.maxUnavailable")
	confirmTimeout := fs.Duration("confirm-timeout", 30*time.Second, "how long a host waits for its confirmation after its activation before it rolls back")
	dry := fs.Bool("dry-run", false, "show each host's plan (nodegen switch --dry-run there); change nothing")
	backup := fs.Bool("backup", false, "have every host's switch move the files in the way of its profile aside (nodegen switch --backup), as deployment.backupConflicts does for one host")
	asJSON := fs.Bool("json", false, "print the progress as JSON events, one a line, and the summary as the last")
	verbose := fs.BoolP("verbose", "v", false, "print the plan of a host that failed too (what its switch printed on stdout)")
	ef.add(fs)
	return func(args []string, stdout, stderr io.Writer) int {
		c := findCommand("deploy")
		if len(args) == 0 {
			// With --fleet alone, the fleet's hosts.
			for _, h := range ef.fleetHosts {
				args = append(args, h.File)
			}
		}
		if len(args) == 0 {
			return usageError(stderr, c, "no host given")
		}
		if *parallel < 1 {
			return usageError(stderr, c, "--parallel %d: want at least 1", *parallel)
		}
		if *perJump < 1 {
			return usageError(stderr, c, "--max-per-jump %d: want at least 1", *perJump)
		}
		if *maxUnavailable < 0 {
			return usageError(stderr, c, "--max-unavailable %d: want at least 1 (0: no bound)", *maxUnavailable)
		}
		if *confirmTimeout < time.Second {
			return usageError(stderr, c, "--confirm-timeout %s: want at least 1s", *confirmTimeout)
		}
		budget, err := deploy.ParseAmount(*maxFail)
		if err != nil {
			return usageError(stderr, c, "--max-fail %s", err)
		}
		if _, err := deploy.Waves(*waves, 1); err != nil {
			return usageError(stderr, c, "%s", err)
		}
		files, err := buildHosts(args)
		if err != nil {
			return usageError(stderr, c, "%s", err)
		}
		exe, err := os.Executable()
		if err != nil {
			fmt.Fprintf(stderr, "nodegen deploy: %s\n", err)
			return exitError
		}
		tmp, err := os.MkdirTemp("", "nodegen-deploy-")
		if err != nil {
			fmt.Fprintf(stderr, "nodegen deploy: %s\n", err)
			return exitError
		}
		defer os.RemoveAll(tmp)
		hosts, code := evalDeployHosts("deploy", files, &ef, tmp, stderr)
		if code != exitOK {
			return code
		}
		chosen, err := deploy.Select(hosts, *on)
		if err != nil {
			return usageError(stderr, c, "%s", err)
		}
		// A Ctrl-C or SIGTERM cancels the hosts' commands; each host's own
		// timer decides what a cut-off switch leaves.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		start := time.Now()
		var outMu sync.Mutex
		cfg := deploy.Config{
			Binary: exe, Parallel: *parallel, MaxPerJump: *perJump, Waves: *waves, MaxFail: budget,
			MaxUnavailable: *maxUnavailable, ConfirmTimeout: *confirmTimeout, DryRun: *dry, Backup: *backup,
			Event: func(e deploy.Event) {
				outMu.Lock()
				defer outMu.Unlock()
				if *asJSON {
					writeJSONLine(stdout, e)
					return
				}
				if hookSteps[e.Step] {
					fmt.Fprintf(stderr, "%s: %s: %s\n", e.Host, e.Step, e.Message)
				}
				if e.Result != nil {
					printHostResult(stdout, stderr, e.Result, *dry, *verbose)
				}
			},
		}
		results, stopped, err := deploy.Run(ctx, cfg, chosen)
		if err != nil {
			fmt.Fprintf(stderr, "nodegen deploy: %s\n", err)
			return exitError
		}
		return deploySummary(results, stopped, time.Since(start), *asJSON, stdout, stderr)
	}
}

// evalDeployHosts evaluates each host file, writes its profile below dir
// and reads its deployment options. Any host's failure is the command's
// (deploy or publish): nothing is deployed unless every host evaluates.
func evalDeployHosts(cmd string, files []buildHost, ef *evalFlags, dir string, stderr io.Writer) ([]deploy.Host, int) {
	hosts := make([]deploy.Host, len(files))
	reports := make([][]byte, len(files))
	// The hosts read each other (with those of --fleet), and share the
	// declared trees they have in common.
	ef.addHosts(files)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				hosts[i], reports[i] = evalDeployHost(files[i], ef, filepath.Join(dir, files[i].name))
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	code := exitOK
	for i, r := range reports {
		if r != nil {
			fmt.Fprintf(stderr, "%s: not %sed: its evaluation failed (%s):\n", files[i].name, strings.TrimSuffix(cmd, "e"), files[i].file)
			stderr.Write(r)
			code = exitError
		}
	}
	if code != exitOK {
		fmt.Fprintf(stderr, "nodegen %s: nothing was %sed\n", cmd, strings.TrimSuffix(cmd, "e"))
	}
	return hosts, code
}

// hookSteps are the events printed as they come, without --json: the
// hooks, the health checks and a rollback they caused.
var hookSteps = map[string]bool{"beforeSwitch": true, "afterSwitch": true, "health": true, "rollback": true}

var deploymentPath, _ = options.ParsePath("deployment")

// evalDeployHost evaluates one host; report is its rendered errors, nil
// when it evaluated.
func evalDeployHost(h buildHost, ef *evalFlags, out string) (deploy.Host, []byte) {
	r := hostResult{Name: h.name, File: h.file}
	cfg := ef.config([]string{h.file})
	cfg.Host = h.name
	ev, diags := newEvaluator(cfg)
	if diags.HasErrors() {
		return deploy.Host{}, r.failed(ev.Files(), diags).report
	}
	p, diags := evalprofile.Build(ev)
	if diags.HasErrors() {
		return deploy.Host{}, r.failed(ev.Files(), diags).report
	}
	v, diags := ev.Get(deploymentPath)
	if diags.HasErrors() {
		return deploy.Host{}, r.failed(ev.Files(), diags).report
	}
	data, err := eval.JSON(v)
	if err != nil {
		return deploy.Host{}, fmt.Appendf(nil, "Error: the deployment options: %s\n", err)
	}
	host := deploy.Host{Name: h.name, Profile: out}
	if err := json.Unmarshal(data, &host.Options); err != nil {
		return deploy.Host{}, fmt.Appendf(nil, "Error: the deployment options: %s\n", err)
	}
	if err := profile.WriteUnsynced(out, p); err != nil {
		return deploy.Host{}, fmt.Appendf(nil, "Error: %s\n", err)
	}
	return host, nil
}

// printHostResult prints one host's end: a line on stderr, with the reason
// of a failure; below it, indented, what the host printed on stderr, and
// with verbose its plan. With dry, a host's plan goes to stdout.
func printHostResult(stdout, stderr io.Writer, r *deploy.HostResult, dry, verbose bool) {
	line := fmt.Sprintf("%s: %s", r.Host, r.Outcome)
	if r.Generation != 0 {
		line += fmt.Sprintf(" (generation %d)", r.Generation)
	}
	if r.Message != "" {
		line += ": " + r.Message
	}
	fmt.Fprintf(stderr, "%s [%.1f s]\n", line, r.Seconds)
	if dry && (r.Outcome == deploy.Planned || r.Outcome == deploy.Refused) {
		fmt.Fprintf(stdout, "%s:\n%s", r.Host, indent(strings.TrimRight(r.Plan+r.Output, "\n"), "  ")+"\n")
		return
	}
	if r.Outcome == deploy.Confirmed {
		return
	}
	if out := strings.TrimRight(r.Output, "\n"); out != "" {
		fmt.Fprintln(stderr, indent(out, "    "))
	}
	if plan := strings.TrimRight(r.Plan, "\n"); plan != "" && verbose {
		fmt.Fprintf(stderr, "    %s's plan:\n%s\n", r.Host, indent(plan, "      "))
	}
}

// deploySummary prints the totals and returns the exit code.
func deploySummary(results []deploy.HostResult, stopped bool, took time.Duration, asJSON bool, stdout, stderr io.Writer) int {
	counts := map[deploy.Outcome]int{}
	for _, r := range results {
		counts[r.Outcome]++
	}
	code := exitOK
	for o, n := range counts {
		if n > 0 {
			code = max(code, outcomeCodes[o])
		}
	}
	if stopped {
		code = exitBudget
	}
	var parts []string
	for _, s := range summaryOrder {
		if counts[s.o] > 0 || s.o == deploy.Confirmed && len(results) == 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[s.o], s.text))
		}
	}
	text := fmt.Sprintf("deployed %d host(s) in %.1f s: %s", len(results), took.Seconds(), strings.Join(parts, ", "))
	if stopped {
		text += " (stopped by the failure budget)"
	}
	if asJSON {
		writeJSONLine(stdout, struct {
			Summary  string              `json:"summary"`
			Hosts    []deploy.HostResult `json:"hosts"`
			Stopped  bool                `json:"stopped"`
			ExitCode int                 `json:"exitCode"`
		}{text, results, stopped, code})
		return code
	}
	fmt.Fprintln(stdout, text)
	return code
}

func writeJSONLine(w io.Writer, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	w.Write(append(b, '\n'))
}
