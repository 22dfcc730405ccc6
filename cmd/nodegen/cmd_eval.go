package main

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/pflag"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/evalprofile"
	"github.com/nodegen/nodegen/internal/fleetfile"
	"github.com/nodegen/nodegen/internal/librarytrees"
	"github.com/nodegen/nodegen/internal/parsecache"
	"github.com/nodegen/nodegen/internal/runtimetune"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/profile"
	"github.com/nodegen/nodegen/profilecheck"
)

func init() {
	commands = append(commands, &command{
		name:    "eval",
		gc:      runtimetune.OneEvaluation,
		summary: "Evaluate modules and write the system profile.",
		usage:   "nodegen eval [-o DIR] [-A PATH [--raw] | --json | --format ignition [--ignition-version V]] [--bare] [--show-trace] [--limit NAME=VALUE] [--stats] [--fleet FLEET.hcl] MODULE.hcl...",
		example: "nodegen eval fixtures/minimal/host.hcl -o result\nnodegen eval -A networking.hostName fixtures/minimal/host.hcl\nnodegen eval --format ignition fixtures/coreos-wrapper/host.hcl > config.ign",
		args:    argsModules,
		flags:   evalCommand,
		help:    limitsHelp() + "\n" + parseCacheHelp + "\n" + fleetHelp,
	})
}

// The cache of parsed modules every evaluation of the process shares (see
// parsecache.Open); nil when it is turned off or not used yet.
var (
	parseCacheOnce sync.Once
	openParseCache *parsecache.Cache
)

// parseCache opens the parse cache on first use, with the trees of the
// built-in library that the build carries. With NODEGEN_CACHE=off it
// holds those trees alone: they are part of nodegen, not a cache on disk,
// so that a cold run does not parse the library either.
func parseCache() *parsecache.Cache {
	parseCacheOnce.Do(func() {
		openParseCache = parsecache.Open().WithBundle(librarytrees.Bundle())
		if openParseCache == nil {
			openParseCache = parsecache.Bundled(librarytrees.Bundle())
		}
	})
	return openParseCache
}

// waitParseCache waits for the cache's entries to be written, if a
// command used it: when the command is done.
func waitParseCache() {
	parseCacheOnce.Do(func() {}) // a cache not opened yet stays so
	openParseCache.Wait()
}

// evalFlags are the flags every evaluating command shares.
type evalFlags struct {
	bare      bool
	showTrace bool
	stats     bool
	limits    eval.Limits
	// checks is eval's --checks: which checks of generated files by the
	// programs that read them run (evalprofile.RunChecks).
	checks string
	// fleetFile is --fleet, fleetHosts its hosts; fleet is what the
	// command's evaluations share (see fleet.go).
	fleetFile  string
	fleetHosts []fleetfile.Host
	fleet      fleetState
}

// config is the Config that evaluates files, a host of the command's
// fleet when there is one (see withFleet).
func (f *evalFlags) config(files []string) eval.Config {
	cfg := f.baseConfig()
	cfg.Files = files
	return f.withFleet(cfg)
}

// baseConfig is the Config of the flags, without files or fleet.
func (f *evalFlags) baseConfig() eval.Config {
	cfg := eval.Config{ShowTrace: f.showTrace, Limits: f.limits, ParseCache: parseCache()}
	if !f.bare {
		cfg.Library = library()
	}
	return cfg
}

// checkMode is the mode --checks names (checked when the flags are read).
func (f *evalFlags) checkMode() profilecheck.Mode {
	m, _ := profilecheck.ParseMode(f.checks)
	return m
}

// add declares the shared flags on fs.
func (f *evalFlags) add(fs *pflag.FlagSet) {
	fs.BoolVar(&f.bare, "bare", false, "evaluate only the given modules and their imports, without the library")
	fs.BoolVar(&f.showTrace, "show-trace", false, "add the evaluation chain to errors")
	fs.Var(limitFlag{&f.limits}, "limit", "set the limit NAME to VALUE (see the limits in nodegen eval --help); repeatable")
	completeWith(fs, "limit", completeFree)
	fs.Var(fleetFlag{f}, "fleet", "evaluate with the hosts of the fleet file `FLEET.hcl`, which modules read as hosts.NAME")
}

// limitFlag is --limit NAME=VALUE, which sets one of the evaluation's
// limits; a bad name or value is a usage error.
type limitFlag struct{ limits *eval.Limits }

func (f limitFlag) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok {
		return fmt.Errorf("want NAME=VALUE, not %q", s)
	}
	return f.limits.Set(name, value)
}

func (f limitFlag) String() string { return "" }

func (f limitFlag) Type() string { return "NAME=VALUE" }

// parseCacheHelp tells of the parse cache in nodegen eval --help.
const parseCacheHelp = "Parse cache: modules unchanged since an earlier run are read back from\n" +
	"$XDG_CACHE_HOME/nodegen/parse (~/.cache/nodegen/parse) instead of parsed again;\n" +
	"the built-in library's come with nodegen.\n" +
	"NODEGEN_CACHE=off turns it off (the library's built-in trees stay);\n" +
	"--stats counts the files it gave.\n"

// limitsHelp is the table of the limits for nodegen eval --help.
func limitsHelp() string {
	return "Limits: every evaluation stops with an error when it passes one of these.\n" +
		"Raise one with --limit NAME=VALUE (sizes take K, M or G: --limit string=256M).\n\n" +
		indent(eval.LimitsTable(), "  ")
}

func evalCommand(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
	var ef evalFlags
	out := fs.StringP("out", "o", "result", "where to write the profile (with --format ignition: the config file, else stdout)")
	completeWith(fs, "out", completeDirs)
	attr := fs.StringP("attr", "A", "", "print the value at `PATH` (a config path) as JSON; write no profile")
	completeWith(fs, "attr", completeOptions)
	raw := fs.Bool("raw", false, "with --attr: print a string value as it is, without JSON quoting or a newline")
	asJSON := fs.Bool("json", false, "print the whole config tree as JSON; write no profile")
	var ign ignitionFlags
	ign.add(fs)
	ef.add(fs)
	fs.BoolVar(&ef.stats, "stats", false, "print to stderr how long loading, evaluating and writing took, and how much was allocated")
	fs.StringVar(&ef.checks, "checks", "auto", "checks of the generated files by the programs that read them (sshd -t, nft -c, ...): auto (those whose program is installed; a missing one is a note), required (a missing program is an error) or off")
	completeWith(fs, "checks", "auto", "required", "off")
	return func(args []string, stdout, stderr io.Writer) int {
		if _, err := profilecheck.ParseMode(ef.checks); err != nil {
			return usageError(stderr, findCommand("eval"), "--checks: %s", err)
		}
		if code, done := ign.run(fs, args, &ef, *attr != "" || *asJSON, stdout, stderr); done {
			return code
		}
		return runEval(args, &ef, *out, *attr, *raw, *asJSON, stdout, stderr)
	}
}

func runEval(args []string, ef *evalFlags, out, attr string, raw, asJSON bool, stdout, stderr io.Writer) int {
	c := findCommand("eval")
	if len(args) == 0 {
		return usageError(stderr, c, "no module given")
	}
	if raw && attr == "" {
		return usageError(stderr, c, "--raw needs --attr PATH")
	}
	if out == "" {
		return usageError(stderr, c, "-o needs a directory, not an empty string")
	}
	if attr != "" && asJSON {
		return usageError(stderr, c, "--attr and --json cannot be used together")
	}
	var attrPath options.Path
	if attr != "" {
		p, err := options.ParsePath(attr)
		if err != nil {
			return usageError(stderr, c, "--attr %q: %s", attr, err)
		}
		attrPath = p
	}
	st := newRunStats(ef.stats)
	cfg := ef.config(args)
	if attrPath == nil && !asJSON {
		// A profile reads what evalprofile.Build reads: the library's
		// modules nothing reads are left out.
		cfg.Reads = evalprofile.Reads()
	}
	ev, diags := newEvaluator(cfg)
	st.mark("load")
	defer st.print(stderr, ev)
	if diags.HasErrors() {
		printDiags(stderr, ev.Files(), diags)
		return exitError
	}
	switch {
	case attrPath != nil:
		v, d := ev.Get(attrPath)
		st.mark("evaluate")
		defer st.mark("output")
		if raw {
			return printRaw(ev, attr, v, append(diags, d...), stdout, stderr)
		}
		return printValue(ev, v, append(diags, d...), stdout, stderr)
	case asJSON:
		warns, d := ev.Check()
		printWarnings(stderr, warns)
		if d.HasErrors() {
			printDiags(stderr, ev.Files(), append(diags, d...))
			return exitError
		}
		v, d := ev.Config()
		st.mark("evaluate")
		defer st.mark("output")
		return printValue(ev, v, d, stdout, stderr)
	}
	// The profile's write begins now, on the other core: its preparation
	// (the lock, the check of the profile it replaces) overlaps the
	// evaluation, and its tree the evaluation's checks (profile.Begin).
	// Loading, which runs on every core, is over.
	return writeProfile(ev, out, profile.Begin(out), st, ef.checkMode(), stdout, stderr)
}

func printValue(ev *eval.Evaluator, v ctyValue, diags hcl.Diagnostics, stdout, stderr io.Writer) int {
	if diags.HasErrors() {
		printDiags(stderr, ev.Files(), diags)
		return exitError
	}
	b, err := eval.JSON(v)
	if err != nil {
		fmt.Fprintf(stderr, "nodegen eval: %s\n", err)
		return exitError
	}
	stdout.Write(b)
	return exitOK
}

// printRaw prints a string value as it is, as nix eval --raw does: no
// quotes, no escapes, no newline added. Any other value is an error.
func printRaw(ev *eval.Evaluator, attr string, v ctyValue, diags hcl.Diagnostics, stdout, stderr io.Writer) int {
	if diags.HasErrors() {
		printDiags(stderr, ev.Files(), diags)
		return exitError
	}
	if v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		fmt.Fprintf(stderr, "nodegen eval: --raw prints only strings, and %s is %s; leave out --raw to print it as JSON\n", attr, kindOf(v))
		return exitError
	}
	io.WriteString(stdout, v.AsString())
	return exitOK
}

// kindOf names the kind of a value that is not a string, for messages.
func kindOf(v ctyValue) string {
	switch t := v.Type(); {
	case v.IsNull():
		return "null"
	case t == cty.Number:
		return "a number"
	case t == cty.Bool:
		return "a bool"
	case t.IsListType() || t.IsTupleType() || t.IsSetType():
		return "a list"
	case t.IsObjectType() || t.IsMapType():
		return "an object"
	}
	return "not a known string"
}

func printWarnings(w io.Writer, warns []eval.Warning) {
	for _, wn := range warns {
		fmt.Fprintf(w, "warning: %s\n", wn.Message)
	}
}
