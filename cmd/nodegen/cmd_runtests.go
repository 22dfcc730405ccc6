package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/nodegen/nodegen/internal/runtimetune"
	"github.com/nodegen/nodegen/internal/suitereport"
	"github.com/nodegen/nodegen/modtest"
)

func init() {
	commands = append(commands, &command{
		name:    "test",
		summary: "Run the tests of modules: the run blocks of *.test.hcl files.",
		usage:   "nodegen test [-run REGEXP] [--json] [--bare] [--show-trace] [--keep | --stop-kept] [PATH...]",
		help: `Each PATH is a test file, or a directory: every *.test.hcl file below it
(default: the current directory). A run block evaluates its imports and
config blocks with the module library, then checks every assert against
the result, or, with expect_error, expects the evaluation to fail with an
error that contains the given text:

  run "hostname is written" {
    imports = ["./host.hcl"]
    config "networking" { hostName = "worker01" }
    assert {
      condition     = config.environment.etc.hostname.text == "worker01\n"
      error_message = "/etc/hostname must hold the host name"
    }
  }

A run that sets machines boots them: each machine block is a host,
evaluated with the library, booted with systemd in systemd-nspawn from a
cached Debian root and switched to its profile with nodegen switch; the
machines of a run share a private network (10.89.0.0/24) and resolve each
other by name. Its steps then run in order (wait_for_unit, succeed, fail,
wait_until_succeeds, copy_in, copy_out, switch, rollback, reboot, kill):

  machine "server" {
    config "services.openssh" { enable = true }
  }
  run "sshd runs" {
    machines = ["server"]
    step "server" { wait_for_unit = "sshd.service" }
  }

Machine runs need root and systemd-nspawn; where they cannot run they are
skipped, with the reason (under CI=true they fail). Each prints its
machines' time from boot to profile active and its total. --keep leaves
the machines running and prints how to enter them; running the same test
again switches them instead of booting new ones. --stop-kept runs
nothing: it powers off the kept machines of the runs in PATH (all of them
when no PATH is given; -run narrows it) and removes their disks.

Prints a line per run and each failure with its location and the values
the condition reads, then "N passed, N failed". Exit status 1 when any run
fails; a PATH that does not exist is an error (exit status 1); no test
files at all is not ("no test files", exit status 0).`,
		example: "nodegen test modules/\nnodegen test -run 'kubelet' roles/node.test.hcl",
		args:    argsPaths,
		gc:      runtimetune.ManyEvaluations,
		flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
			var ef evalFlags
			match := fs.String("run", "", "run only the runs whose names match `REGEXP`")
			asJSON := fs.Bool("json", false, "print the results as one JSON document")
			parallel := fs.IntP("parallel", "p", 0, "how many runs to evaluate at once (default: one per CPU)")
			var mf machineFlags
			fs.BoolVar(&mf.keep, "keep", false, "leave the machines of machine runs running (a re-run switches them)")
			fs.BoolVar(&mf.stopKept, "stop-kept", false, "power off the machines --keep left running (of the runs in PATH, or all); run nothing")
			fs.BoolVar(&mf.off, "no-machines", false, "skip the machine runs (runs that set machines)")
			ef.add(fs)
			return func(args []string, stdout, stderr io.Writer) int {
				return runTests(args, &ef, *match, *asJSON, *parallel, mf, stdout, stderr)
			}
		},
	})
}

// machineFlags are nodegen test's flags for machine runs.
type machineFlags struct {
	keep     bool // --keep
	stopKept bool // --stop-kept
	off      bool // --no-machines
}

func runTests(args []string, ef *evalFlags, match string, asJSON bool, parallel int, mf machineFlags, stdout, stderr io.Writer) int {
	c := findCommand("test")
	rn := &modtest.Runner{ShowTrace: ef.showTrace, Parallel: parallel, Limits: ef.limits}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if !ef.bare {
		rn.Library = library()
	}
	if match != "" {
		re, err := regexp.Compile(match)
		if err != nil {
			return usageError(stderr, c, "-run: %s", err)
		}
		rn.Match = re
	}
	if mf.stopKept {
		return stopKept(args, rn.Match, stdout, stderr)
	}
	if len(args) == 0 {
		args = []string{"."}
	}
	files, err := modtest.Find(args)
	if err != nil {
		fmt.Fprintf(stderr, "nodegen test: %s\n", err)
		return exitError
	}
	if len(files) == 0 && !asJSON {
		fmt.Fprintf(stdout, "no test files (*%s) in %s\n", modtest.Suffix, strings.Join(args, ", "))
		return exitOK
	}
	machines := setMachines(rn, ctx, ef, files, mf, stderr)
	rep := modtest.NewTextReport(stdout, printDiags)
	if asJSON {
		rep = modtest.NewJSONReport(stdout)
	}
	rn.RunFiles(files, rep.File)
	machines.record(rep)
	if rep.Close() {
		return exitError
	}
	return exitOK
}

// stopKept is nodegen test --stop-kept: it powers off the kept machines
// of the runs in the test files under paths (all runs when paths is
// empty) whose names match (nil: all).
func stopKept(paths []string, match *regexp.Regexp, stdout, stderr io.Writer) int {
	var files map[string]bool
	if len(paths) > 0 {
		found, err := modtest.Find(paths)
		if err != nil {
			fmt.Fprintf(stderr, "nodegen test: %s\n", err)
			return exitError
		}
		files = map[string]bool{}
		for _, f := range found {
			if abs, err := filepath.Abs(f); err == nil {
				files[abs] = true
			}
		}
	}
	stopped, err := stopKeptMachines(func(file, run string) bool {
		return (files == nil || files[file]) && (match == nil || match.MatchString(run))
	})
	for _, line := range stopped {
		fmt.Fprintln(stdout, line)
	}
	if len(stopped) == 0 && err == nil {
		fmt.Fprintln(stdout, "no kept machines")
	}
	if err != nil {
		fmt.Fprintf(stderr, "nodegen test --stop-kept: %v\n", err)
		return exitError
	}
	return exitOK
}

// machineSuite is the name of the machine runs' line in make test's list
// of suites that need the machine (internal/suitereport).
const machineSuite = "nodegen test: machine runs"

// machineRuns is how nodegen test runs machine runs: with a driver, or
// skipped (failed under CI) with why.
type machineRuns struct {
	any   bool   // the files have machine runs
	skip  string // why they cannot run, or ""
	asked bool   // skipped because --no-machines asked so
}

// setMachines gives rn a machine driver, which boots the machines when
// nspawn can run here and otherwise says why the runs are skipped.
func setMachines(rn *modtest.Runner, ctx context.Context, ef *evalFlags, files []string, mf machineFlags, stderr io.Writer) machineRuns {
	var mr machineRuns
	for _, p := range files {
		for _, r := range modtest.ParseFile(p).Runs {
			if r.IsMachineRun() {
				mr.any = true
			}
		}
	}
	if !mr.any {
		return mr
	}
	if mf.off {
		mr.skip, mr.asked = "--no-machines", true
		rn.MachineSkip = mr.skip
		return mr
	}
	d, skip := machineDriver(ctx, ef, mf, stderr)
	if d == nil {
		rn.MachineSkip, rn.SkipFails = skip, suitereport.InCI()
	}
	rn.Machines, mr.skip = d, skip
	return mr
}

// record writes the machine runs' line for make test's list of suites.
func (mr machineRuns) record(rep *modtest.Report) {
	switch {
	case !mr.any:
	case mr.skip != "" && suitereport.InCI() && !mr.asked:
		suitereport.Record(machineSuite, "failed: "+mr.skip)
	case mr.skip != "":
		suitereport.Record(machineSuite, "skipped: "+mr.skip)
	default:
		suitereport.Record(machineSuite, "ran")
	}
}
