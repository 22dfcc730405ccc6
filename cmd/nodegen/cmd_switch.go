package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/pflag"

	"github.com/nodegen/nodegen/activate"
	"github.com/nodegen/nodegen/deploy"
	"github.com/nodegen/nodegen/evalprofile"
	"github.com/nodegen/nodegen/internal/keyset"
	"github.com/nodegen/nodegen/internal/runtimetune"
	"github.com/nodegen/nodegen/profile"
)

const rootFlagUsage = "apply to the system tree at `DIR` instead of / (switch creates it): state under DIR/var/lib/nodegen; units are not acted on, only reported"

func init() {
	commands = append(commands,
		&command{
			name:    "switch",
			gc:      runtimetune.OneEvaluation,
			summary: "Install a profile on this machine as a new generation, and start what changed.",
			usage:   "nodegen switch [--root DIR] [--dry-run] [--backup] [--rollback-on-failure] [--offline] [--take-over PATH]... [--keys DIR] [--confirm-timeout DUR --confirm-token-file FILE] PROFILE | HOST.hcl...",
			help: `PROFILE is a profile directory written by nodegen eval; HOST.hcl files are
evaluated first, as nodegen eval does. The profile is copied into a new
generation under /var/lib/nodegen/generations first (the same profile as
the active generation makes none), and only the copy is read after; then:

  - binaries: the profile's assets (environment.assets) are downloaded into
    /var/lib/nodegen/assets and checked against their hashes, or taken from
    that cache after it is verified (--offline: from the cache only), and
    its packages (environment.packages) are checked with dpkg and installed
    with apt-get; every asset or package that cannot be provided is listed,
    and nothing in /etc changes;
  - check, once the binaries are there: every /etc path the profile places
    and every path the active generation placed is inspected; a file
    nodegen does not manage (an admin's, a package's), or one changed since
    nodegen placed it, stops the switch before anything changes, and all of
    them are listed (--backup moves them aside instead, and puts them back
    when nodegen stops managing the path; --take-over PATH replaces one on
    purpose, moving it below /var/lib/nodegen/taken-over); a file the OS
    installer or a package put there and nobody changed (/etc/hostname,
    /etc/hosts, a dpkg conffile or package file with the md5 sum dpkg
    recorded, a package's enable link of a unit the profile enables too)
    is taken over without --backup, moved aside as --backup does, and the
    plan says so ("taking over PATH (...; backed up)"); so does what a
    later stage would fail on: sysusers.d lines systemd-sysusers rejects,
    tmpfiles.d owners nobody creates, modes, unit names;
  - units that are removed, or changed and stop-if-changed, are stopped;
  - systemd-sysusers runs on the profile's sysusers.d files; /etc/static
    points to the generation; each 0644 root:root file becomes a link
    /etc/PATH -> /etc/static/PATH, any other file a copy with its mode and
    owner, each symlink a symlink; what the old generation placed and the
    new one does not is removed (each path looked at again first);
  - the state (/var/lib/nodegen/state.json) is written, then
    systemd-tmpfiles --create, daemon-reload, and units are reloaded,
    restarted and started as NixOS's switch-to-configuration does
    (restartIfChanged, reloadIfChanged, stopIfChanged; new units wanted by
    an active target are started; removed units stopped).

Assets are linked at their paths like /etc entries, so a rollback brings
back the previous binaries.

Keys (deployment.keys) belong to a generation: --keys DIR names a stage
that nodegen receive --key --stage wrote (nodegen deploy does), whose keys
are copied into the new generation (keys/, root's only, each key's owner
and mode recorded); a change of keys alone makes a new generation. The
activation's keys step, after the files and before tmpfiles and units,
puts the generation's keys at their paths (no component of a key's
directory may be a symbolic link; the file is created with its owner and
mode and renamed into place, through descriptors) and removes the keys
nodegen placed that it does not have; a file in the way that nodegen did
not place is kept as NAME.nodegen-kept. So a rollback, deactivate or a
refused switch leaves the keys of the generation that is active. A switch
without --keys makes a generation without keys. A stage below
/var/lib/nodegen/deploy/keys is used once: the switch removes it.

A unit that does not come up (active, or a oneshot that exited
successfully) makes the switch exit 1, with its last journal lines;
--rollback-on-failure then activates the previous generation again. Units
failed before the switch and failed still are listed. A stage that fails
after the files began to change makes the switch go back to the previous
generation by itself and exit 1 naming the stage. A switch killed half way
is completed by the next nodegen command that changes the system (switch,
rollback, deactivate, gc); nodegen status shows what is pending.

With --confirm-token-file FILE (- for stdin), the new generation must be
confirmed: before anything changes, a transient systemd timer is armed
that activates the previous generation again unless "nodegen confirm GEN"
with FILE's token on stdin comes within --confirm-timeout after the
activation (the timer covers the activation too). A unit that runs at
boot keeps the promise across a reboot. This is what nodegen deploy does
(the token on stdin); docs/deploying.md explains it.`,
			example: "nodegen switch --dry-run fixtures/minimal/host.hcl\nnodegen eval host.hcl -o result && nodegen switch --rollback-on-failure result",
			args:    argsModules,
			flags:   switchCommand,
		},
		&command{
			name:    "rollback",
			summary: "Activate the previous good generation again (or generation N).",
			usage:   "nodegen rollback [--root DIR] [--to N] [--dry-run] [--offline]",
			help: `Without --to, activates the newest generation older than the active one
that is not marked: generations whose last activation failed or was rolled
back (units that did not come up, a step that failed, a confirmation that
did not come in time; nodegen generations shows them) are skipped. --to N
activates generation N whatever its mark; an activation of it whose units
come up removes its mark.`,
			example: "nodegen rollback\nnodegen rollback --to 3",
			flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
				root := rootFlag(fs)
				to := fs.Int("to", 0, "the generation `N` to activate, even one that failed or was rolled back (default: the newest good one before the active one)")
				dry := fs.Bool("dry-run", false, "print what would be done, change nothing")
				offline := fs.Bool("offline", false, "take assets only from the cache; download nothing")
				var wait activate.SwitchOptions
				unitWaitFlags(fs, &wait)
				return func(args []string, stdout, stderr io.Writer) int {
					if len(args) > 0 {
						return usageError(stderr, findCommand("rollback"), "unexpected argument %q", args[0])
					}
					return withSystem("rollback", *root, stdout, stderr, func(s *activate.System) int {
						res, err := s.Rollback(*to, activate.SwitchOptions{DryRun: *dry, Offline: *offline, Settle: wait.Settle, Stable: wait.Stable, Checked: planPrinter("rollback", s, *dry, stdout)})
						return report("rollback", res, err, *dry, stdout, stderr)
					})
				}
			},
		},
		&command{
			name:    "generations",
			summary: "List the generations installed on this machine.",
			usage:   "nodegen generations [--root DIR] [--json]",
			help: `One line per generation: its number, date, host name, the start of its
profile's hash, its status ("failed" or "rolled back" when its last
activation failed or was rolled back, which nodegen rollback skips) and
"*" for the active one; then what went wrong with each marked generation.
--json has the same, with "mark" ({kind, why, date}) and "failures" (the
steps that failed) per generation.`,
			example: "nodegen generations",
			flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
				root := rootFlag(fs)
				asJSON := fs.Bool("json", false, "print the list as JSON")
				return func(args []string, stdout, stderr io.Writer) int {
					if len(args) > 0 {
						return usageError(stderr, findCommand("generations"), "unexpected argument %q", args[0])
					}
					return withSystem("generations", *root, stdout, stderr, func(s *activate.System) int {
						return listGenerations(s, *asJSON, stdout, stderr)
					})
				}
			},
		},
		&command{
			name:    "deactivate",
			summary: "Remove everything nodegen placed in /etc and put back the files it moved aside.",
			usage:   "nodegen deactivate [--root DIR] [--dry-run]",
			help: `Stops the units of the active generation, removes every /etc entry nodegen
placed (and /etc/static, and the directories it created when they are
empty), and restores the files that switch moved aside (with --backup, or
taken over from the OS installer or a package). A unit it removed that was
running gives way to the system's own unit of that name, which is started
again when it is enabled (Debian's ssh.service for the profile's sshd, a
package's containerd.service): a remote host keeps its login path. An edit
made through a link into the generation is kept under
/var/lib/nodegen/taken-over. Afterwards nothing of nodegen is left in /etc. The generations stay under
/var/lib/nodegen (nodegen switch or rollback activates one again).`,
			example: "nodegen deactivate --dry-run\nnodegen deactivate",
			flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
				root := rootFlag(fs)
				dry := fs.Bool("dry-run", false, "print what would be done, change nothing")
				return func(args []string, stdout, stderr io.Writer) int {
					if len(args) > 0 {
						return usageError(stderr, findCommand("deactivate"), "unexpected argument %q", args[0])
					}
					return withSystem("deactivate", *root, stdout, stderr, func(s *activate.System) int {
						res, err := s.Deactivate(activate.SwitchOptions{DryRun: *dry, Checked: planPrinter("deactivate", s, *dry, stdout)})
						return report("deactivate", res, err, *dry, stdout, stderr)
					})
				}
			},
		},
		&command{
			name:    "gc",
			summary: "Delete old generations, keeping the newest N and the active one, and the received profiles none of them needs.",
			usage:   "nodegen gc [--root DIR] --keep N",
			example: "nodegen gc --keep 5",
			flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
				root := rootFlag(fs)
				keep := fs.Int("keep", -1, "how many of the newest generations to keep, besides the active one")
				return func(args []string, stdout, stderr io.Writer) int {
					c := findCommand("gc")
					if len(args) > 0 {
						return usageError(stderr, c, "unexpected argument %q", args[0])
					}
					if *keep < 0 {
						return usageError(stderr, c, "--keep N is required (0 keeps only the active generation)")
					}
					return withSystem("gc", *root, stdout, stderr, func(s *activate.System) int {
						removed, err := s.GC(*keep)
						if err != nil {
							fmt.Fprintf(stderr, "nodegen gc: %s\n", err)
							return exitError
						}
						if len(removed) == 0 {
							fmt.Fprintln(stdout, "no generation to remove")
						} else {
							fmt.Fprintf(stdout, "removed generation(s) %s\n", joinInts(removed))
						}
						return collectReceived(s, *root, stdout, stderr)
					})
				}
			},
		},
	)
}

// collectReceived removes the profiles received by nodegen deploy that
// no generation left needs (deploy.CollectReceived), for gc.
func collectReceived(s *activate.System, root string, stdout, stderr io.Writer) int {
	gens, err := s.Generations()
	if err != nil {
		fmt.Fprintf(stderr, "nodegen gc: %s\n", err)
		return exitError
	}
	keep := map[string]bool{}
	for _, g := range gens {
		keep[deploy.ReceivedName(g.ProfileHash)] = true
	}
	removed, err := deploy.CollectReceived(deploy.ReceivedDir(root), keep)
	if err != nil {
		fmt.Fprintf(stderr, "nodegen gc: %s\n", err)
		return exitError
	}
	if len(removed) > 0 {
		fmt.Fprintf(stdout, "removed %d received profile(s)\n", len(removed))
	}
	return exitOK
}

func rootFlag(fs *pflag.FlagSet) *string {
	root := fs.String("root", "/", rootFlagUsage)
	completeWith(fs, "root", completeDirs)
	return root
}

// withSystem opens the system at root (taking its lock) for a command,
// and removes what cut receives left (deploy.CleanReceived).
func withSystem(name, root string, stdout, stderr io.Writer, body func(*activate.System) int) int {
	return openSystem(name, root, false, stdout, stderr, body)
}

// openSystem is withSystem that, with create, makes a missing root.
func openSystem(name, root string, create bool, stdout, stderr io.Writer, body func(*activate.System) int) int {
	if root == "" {
		return usageError(stderr, findCommand(name), "--root must name a directory")
	}
	now, err := sourceDate()
	if err != nil {
		fmt.Fprintf(stderr, "nodegen %s: %s\n", name, err)
		return exitUsage
	}
	s, err := activate.Open(activate.Options{Root: root, Log: stdout, Now: now, Create: create && root != "/"})
	if err != nil {
		fmt.Fprintf(stderr, "nodegen %s: %s\n", name, err)
		return exitError
	}
	defer s.Close()
	// With the lock held, no receive is writing: what one that was cut
	// left beside the received profiles goes.
	if _, err := deploy.CleanReceived(deploy.ReceivedDir(root)); err != nil {
		fmt.Fprintf(stderr, "nodegen %s: warning: removing what a cut nodegen receive left: %s\n", name, err)
	}
	// Keys staged by a deploy that never switched (refused, cut, busy).
	if _, err := keyset.CleanStages(keyStageRoot(root), time.Now(), keyset.StaleAge); err != nil {
		fmt.Fprintf(stderr, "nodegen %s: warning: removing stale staged keys: %s\n", name, err)
	}
	return body(s)
}

// keyStageRoot is where nodegen receive --key --stage stages keys on the
// system at root.
func keyStageRoot(root string) string {
	return keyset.StageRoot(filepath.Join(root, "var", "lib", "nodegen"))
}

// readStagedKeys reads the keys staged in dir for switch --keys; a stage
// below the system's stage root is used once, and removed once read
// (not on a dry run).
func readStagedKeys(root, dir string, dryRun bool) ([]keyset.Entry, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	keys, err := keyset.ReadStage(abs)
	if err != nil {
		return nil, err
	}
	if !dryRun && keyset.InStageRoot(keyStageRoot(root), abs) {
		if err := os.RemoveAll(abs); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// sourceDate returns the clock that dates generations: SOURCE_DATE_EPOCH
// when it is set (reproducible images), else the time of day.
func sourceDate() (func() time.Time, error) {
	v := os.Getenv("SOURCE_DATE_EPOCH")
	if v == "" {
		return time.Now, nil
	}
	secs, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("SOURCE_DATE_EPOCH=%q is not a number of seconds", v)
	}
	return func() time.Time { return time.Unix(secs, 0) }, nil
}

// unitWaitFlags are switch's and rollback's flags for how long units are
// watched once their jobs are done (activate.SwitchOptions' Settle and
// Stable).
func unitWaitFlags(fs *pflag.FlagSet, o *activate.SwitchOptions) {
	fs.DurationVar(&o.Settle, "settle", time.Second, "how long units are given, once their jobs are done, before their state is read")
	fs.DurationVar(&o.Stable, "stable", 3*time.Second, "how long a service the activation (re)started must keep running to count as up")
}

func switchCommand(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
	var ef evalFlags
	root := rootFlag(fs)
	var o activate.SwitchOptions
	fs.BoolVar(&o.DryRun, "dry-run", false, "check and print what switching would do; change nothing")
	fs.BoolVar(&o.Backup, "backup", false, "move files in the way aside (to /var/lib/nodegen/backups) instead of refusing; they come back on rollback and deactivate")
	fs.BoolVar(&o.RollbackOnFailure, "rollback-on-failure", false, "when a unit fails, activate the previous generation again")
	fs.DurationVar(&o.JobTimeout, "timeout", 90*time.Second, "how long to wait for units to start")
	unitWaitFlags(fs, &o)
	fs.BoolVar(&o.Offline, "offline", false, "take assets only from the cache (/var/lib/nodegen/assets); download nothing")
	keysDir := fs.String("keys", "", "copy the keys staged in `DIR` (nodegen receive --key --stage) into the new generation")
	fs.StringArrayVar(&o.TakeOver, "take-over", nil, "replace the file at `PATH` (changed since nodegen placed it, or not nodegen's) with the profile's, after moving it to /var/lib/nodegen/taken-over; repeat for more paths")
	var cf confirmFlags
	cf.add(fs)
	ef.add(fs)
	return func(args []string, stdout, stderr io.Writer) int {
		c := findCommand("switch")
		if len(args) == 0 {
			return usageError(stderr, c, "no profile or host file given")
		}
		if code := cf.check(c, stderr); code != exitOK {
			return code
		}
		dir, cleanup, code := profileArg(args, &ef, stderr)
		if code != exitOK {
			return code
		}
		defer cleanup()
		return openSystem("switch", *root, true, stdout, stderr, func(s *activate.System) int {
			if fs.Changed("keys") {
				keys, err := readStagedKeys(*root, *keysDir, o.DryRun)
				if err != nil {
					fmt.Fprintf(stderr, "nodegen switch: --keys: %s\n", err)
					return exitError
				}
				o.Keys = keys
			}
			o.Checked = planPrinter("switch", s, o.DryRun, stdout)
			if cf.token != "" && !o.DryRun {
				return switchConfirmed(s, dir, o, &cf, stdout, stderr)
			}
			res, err := s.Switch(dir, o)
			return report("switch", res, err, o.DryRun, stdout, stderr)
		})
	}
}

// profileArg returns the profile directory of switch's arguments: one
// profile directory as it is, or host files evaluated into a temporary
// profile (removed by cleanup).
func profileArg(args []string, ef *evalFlags, stderr io.Writer) (dir string, cleanup func(), code int) {
	cleanup = func() {}
	if len(args) == 1 {
		if fi, err := os.Stat(args[0]); err == nil && fi.IsDir() {
			if _, err := profile.Read(args[0]); err != nil {
				fmt.Fprintf(stderr, "nodegen switch: %s\n", err)
				return "", cleanup, exitError
			}
			return args[0], cleanup, exitOK
		}
	}
	for _, a := range args {
		if fi, err := os.Stat(a); err == nil && fi.IsDir() {
			return "", cleanup, usageError(stderr, findCommand("switch"), "%s is a directory: give one profile directory, or host .hcl files", a)
		}
	}
	ev, diags := newEvaluator(ef.config(args))
	if diags.HasErrors() {
		printDiags(stderr, ev.Files(), diags)
		return "", cleanup, exitError
	}
	p, diags := evalprofile.Build(ev)
	for _, w := range profileWarnings(p, diags) {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	if diags.HasErrors() {
		printDiags(stderr, ev.Files(), diags)
		return "", cleanup, exitError
	}
	tmp, err := os.MkdirTemp("", "nodegen-switch-")
	if err != nil {
		fmt.Fprintf(stderr, "nodegen switch: %s\n", err)
		return "", cleanup, exitError
	}
	cleanup = func() { os.RemoveAll(tmp) }
	dir = filepath.Join(tmp, "profile")
	if err := profile.Write(dir, p); err != nil {
		cleanup()
		fmt.Fprintf(stderr, "nodegen switch: %s\n", err)
		return "", func() {}, exitError
	}
	return dir, cleanup, exitOK
}

// report prints what an activation did (or would do) and returns the exit
// code: 1 when it could not be done or a unit failed.
func report(name string, res *activate.Result, err error, dry bool, stdout, stderr io.Writer) int {
	var conflicts *activate.ConflictError
	var binaries *activate.BinariesError
	var invalid *activate.InvalidError
	var failed *activate.FailedError
	var checks *activate.CheckError
	if errors.As(err, &checks) {
		fmt.Fprintf(stderr, "nodegen %s: refusing: %s\n", name, checks)
		return exitError
	}
	if errors.As(err, &invalid) {
		fmt.Fprintf(stderr, "nodegen %s: refusing: the profile has %d problem(s) that would stop the activation half way; nothing was changed\n", name, len(invalid.Problems))
		for _, c := range invalid.Problems {
			fmt.Fprintf(stderr, "  %s: %s\n", c.Path, c.Reason)
		}
		return exitError
	}
	if errors.As(err, &failed) {
		fmt.Fprintf(stderr, "nodegen %s: %s\n", name, failed.Failure.Describe())
		if rb := res.RolledBack; rb != nil && rb.Generation == 0 {
			fmt.Fprintln(stdout, "rolled back: nothing nodegen placed is left in /etc, as before")
		} else if rb != nil {
			fmt.Fprintf(stdout, "rolled back: generation %d is active again\n", rb.Generation)
			if len(rb.Failed) > 0 {
				fmt.Fprintf(stderr, "nodegen %s: after the rollback:\n", name)
				printFailed(stderr, name, rb.Failed)
			}
		} else {
			fmt.Fprintf(stderr, "nodegen %s: the journal stays; the next switch, rollback or deactivate activates its own generation around it (nodegen status shows it)\n", name)
		}
		return exitError
	}
	if errors.As(err, &binaries) {
		fmt.Fprintf(stderr, "nodegen %s: refusing: %d asset(s) or package(s) cannot be provided; nothing was changed in /etc\n", name, len(binaries.Problems))
		for _, p := range binaries.Problems {
			fmt.Fprintf(stderr, "  %s (from %s): %s\n", p.What, p.Option, p.Reason)
		}
		return exitError
	}
	if errors.As(err, &conflicts) {
		changed := "nothing was changed"
		if res != nil && res.Plan != nil && len(res.Plan.Install)+len(res.Plan.Download) > 0 {
			changed = "nodegen changed nothing in /etc (it provided the assets and packages first: " + strings.Join(append(append([]string{}, res.Plan.Download...), res.Plan.Install...), " ") + ")"
		}
		fmt.Fprintf(stderr, "nodegen %s: refusing: %d path(s) are in the way; %s\n", name, len(conflicts.Conflicts), changed)
		for _, c := range conflicts.Conflicts {
			fmt.Fprintf(stderr, "  %s: %s\n", c.Path, c.Reason)
		}
		return exitError
	}
	if err != nil {
		fmt.Fprintf(stderr, "nodegen %s: %s\n", name, err)
		return exitError
	}
	if dry {
		return exitOK
	}
	code := exitOK
	if len(res.Failed) > 0 {
		code = exitError
		printFailed(stderr, name, res.Failed)
	}
	if len(res.StillFailed) > 0 {
		fmt.Fprintf(stderr, "nodegen %s: failed before this %s, not acted on by it, and failed still: %s (systemctl status UNIT says why)\n", name, name, strings.Join(res.StillFailed, " "))
	}
	switch {
	case res.RolledBack != nil:
		if res.RolledBack.Generation == 0 {
			fmt.Fprintln(stdout, "rolled back: nothing nodegen placed is left in /etc, as before")
		} else {
			fmt.Fprintf(stdout, "rolled back: generation %d is active again\n", res.RolledBack.Generation)
		}
		if len(res.RolledBack.Failed) > 0 {
			fmt.Fprintf(stderr, "nodegen %s: after the rollback:\n", name)
			printFailed(stderr, name, res.RolledBack.Failed)
		}
	case res.Generation == 0:
		fmt.Fprintln(stdout, "deactivated: nothing nodegen placed is left in /etc")
	default:
		fmt.Fprintf(stdout, "generation %d is active\n", res.Generation)
	}
	return code
}

func printFailed(w io.Writer, name string, failed []activate.FailedUnit) {
	for _, f := range failed {
		fmt.Fprintf(w, "nodegen %s: unit %s failed: %s\n", name, f.Unit, f.Why)
		if f.Journal != "" {
			fmt.Fprintln(w, indent(f.Journal, "    "))
		}
	}
}

// planPrinter returns the Checked hook that prints each plan of a command
// (the rollback of a failed switch has one of its own).
func planPrinter(name string, s *activate.System, dry bool, w io.Writer) func(*activate.Plan) {
	calls := 0
	return func(p *activate.Plan) {
		calls++
		if calls > 1 {
			// The rollback of --rollback-on-failure.
			name = "rollback"
			fmt.Fprintln(w, "rolling back:")
		}
		printPlan(w, name, p, dry, s.Live())
	}
}

// printPlan writes what an activation does: the generations, the /etc
// paths and the units.
func printPlan(w io.Writer, name string, p *activate.Plan, dry, live bool) {
	verb := ""
	if dry {
		verb = "would "
	}
	switch {
	case p.NewGeneration:
		fmt.Fprintf(w, "%sactivate a new generation (active now: %s)\n", verb, genName(p.From))
	case p.To == 0:
		fmt.Fprintf(w, "%sdeactivate %s\n", verb, genName(p.From))
	case p.To == p.From:
		fmt.Fprintf(w, "the profile is that of generation %d, which is active: %sactivate it again\n", p.To, verb)
	default:
		fmt.Fprintf(w, "%sactivate generation %d (active now: %s)\n", verb, p.To, genName(p.From))
	}
	fmt.Fprintf(w, "/etc: %d to place, %d to update, %d unchanged, %d to remove\n", len(p.Place), len(p.Updated), p.Unchanged, len(p.Remove))
	for _, t := range p.Place {
		fmt.Fprintf(w, "  place    %s (%s)\n", "/"+t.Path, describePlacement(t))
	}
	for _, rel := range p.Updated {
		fmt.Fprintf(w, "  update   /%s (through /etc/static)\n", rel)
	}
	for _, rel := range p.Remove {
		fmt.Fprintf(w, "  remove   /%s\n", rel)
	}
	stock := map[string]string{}
	for _, f := range p.Stock {
		stock[f.Path] = f.What
	}
	for _, rel := range p.Backup {
		if what, ok := stock[rel]; ok {
			fmt.Fprintf(w, "  taking over /%s (%s; backed up)\n", rel, what)
			continue
		}
		fmt.Fprintf(w, "  backup   /%s (moved to /var/lib/nodegen/backups/%s)\n", rel, rel)
	}
	for _, rel := range p.TakeOver {
		fmt.Fprintf(w, "  take over /%s (the file there moved to /%s/%s)\n", rel, p.TakenOverTo, rel)
	}
	for _, rel := range p.KeepEdited {
		fmt.Fprintf(w, "  keep     /%s as edited through its link (generation %d's file copied to /%s/%s)\n", rel, p.From, p.TakenOverTo, rel)
	}
	for _, rel := range p.Restore {
		fmt.Fprintf(w, "  restore  /%s\n", rel)
	}
	for _, rel := range p.LeftInPlace {
		fmt.Fprintf(w, "  keep     /%s (changed since nodegen placed it: left as it is, no longer managed)\n", rel)
	}
	if len(p.Download) > 0 {
		fmt.Fprintf(w, "assets: %sdownload %s\n", verb, strings.Join(p.Download, " "))
	}
	if len(p.Install) > 0 {
		fmt.Fprintf(w, "packages: %sinstall %s\n", verb, strings.Join(p.Install, " "))
	}
	u := p.Units
	if len(u.FailedBefore) > 0 {
		fmt.Fprintf(w, "failed before this %s: %s\n", name, strings.Join(u.FailedBefore, " "))
	}
	if u.Empty() {
		fmt.Fprintln(w, "units: no change")
		return
	}
	if live {
		fmt.Fprintln(w, "units:")
	} else {
		fmt.Fprintln(w, "units (not acted on: systemd is not running for this root):")
	}
	for _, l := range []struct {
		what  string
		units []string
	}{
		{"stop", u.Stop},
		{"reload", u.Reload},
		{"restart", u.Restart},
		{"start", u.Start},
		{"not restarted", u.NotRestarted},
		{"reset-failed", u.ResetFailed},
	} {
		if len(l.units) > 0 {
			fmt.Fprintf(w, "  %-8s %s\n", l.what+":", strings.Join(l.units, " "))
		}
	}
}

func describePlacement(t activate.Placement) string {
	switch t.Kind {
	case activate.KindLink:
		return "link to " + t.Target
	case activate.KindSymlink:
		return "symlink to " + t.Target
	}
	return fmt.Sprintf("copy %s %s:%s", t.Mode, t.User, t.Group)
}

func genName(n int) string {
	if n == 0 {
		return "none"
	}
	return fmt.Sprintf("generation %d", n)
}

func listGenerations(s *activate.System, asJSON bool, stdout, stderr io.Writer) int {
	gens, err := s.Generations()
	if err != nil {
		fmt.Fprintf(stderr, "nodegen generations: %s\n", err)
		return exitError
	}
	if j, err := s.Pending(); err == nil && j != nil {
		if j.Failed != nil {
			fmt.Fprintf(stderr, "nodegen generations: %s; the next switch, rollback or deactivate activates its own generation around it\n", j.Failed.Describe())
		} else {
			fmt.Fprintf(stderr, "nodegen generations: the activation of generation %d (from %s) was interrupted; the next switch, rollback, deactivate or gc completes it\n", j.To, genName(j.From))
		}
	}
	if asJSON {
		b, err := json.MarshalIndent(gens, "", "  ")
		if err != nil {
			fmt.Fprintf(stderr, "nodegen generations: %s\n", err)
			return exitError
		}
		stdout.Write(append(b, '\n'))
		return exitOK
	}
	if len(gens) == 0 {
		fmt.Fprintln(stdout, "no generations")
		return exitOK
	}
	var table bytes.Buffer
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "GENERATION\tDATE\tHOST\tPROFILE\tSTATUS\tCURRENT")
	for _, g := range gens {
		cur := ""
		if g.Current {
			cur = "*"
		}
		host := g.HostName
		if host == "" {
			host = "-"
		}
		status := ""
		if g.Mark != nil {
			status = strings.ReplaceAll(g.Mark.Kind, "-", " ")
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", g.Number, g.Date, host, g.ProfileHash[:12], status, cur)
	}
	tw.Flush()
	// Without the padding of the empty columns at the ends of lines.
	for line := range strings.Lines(table.String()) {
		fmt.Fprintln(stdout, strings.TrimRight(line, " \n"))
	}
	for _, g := range gens {
		described := false
		for _, f := range g.Failures {
			fmt.Fprintf(stdout, "%s: %s\n", f.Date, f.Describe())
			described = described || g.Mark != nil && f.Date == g.Mark.Date
		}
		if g.Mark != nil && !described {
			fmt.Fprintln(stdout, g.Mark.Describe())
		}
	}
	return exitOK
}

func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprint(n)
	}
	return strings.Join(parts, " ")
}
