package main

import (
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/nodegen/nodegen/ignition"
	"github.com/nodegen/nodegen/profile"
)

// Output formats of nodegen eval.
const (
	formatProfile  = "profile"
	formatIgnition = "ignition"
)

// ignitionFlags are eval's flags that choose the output format.
type ignitionFlags struct {
	format  string
	version string
}

func (f *ignitionFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&f.format, "format", formatProfile, "output `FORMAT`: profile (a profile directory) or ignition (an Ignition config for Flatcar or Fedora CoreOS)")
	completeWith(fs, "format", formatProfile, formatIgnition)
	fs.StringVar(&f.version, "ignition-version", ignition.DefaultVersion,
		"the Ignition config `VERSION` of --format ignition: 3.4.0 (Flatcar) or 3.5.0 (Fedora CoreOS)")
	completeWith(fs, "ignition-version", ignition.Versions...)
}

// run checks the format flags and, for --format ignition, evaluates the
// modules and writes the Ignition config: to the file --out names, else to
// stdout. done is false when eval is to go on as usual (--format profile).
func (f *ignitionFlags) run(fs *pflag.FlagSet, args []string, ef *evalFlags, printing bool, stdout, stderr io.Writer) (code int, done bool) {
	c := findCommand("eval")
	switch f.format {
	case formatProfile:
		if fs.Changed("ignition-version") {
			return usageError(stderr, c, "--ignition-version needs --format ignition"), true
		}
		return 0, false
	case formatIgnition:
	default:
		return usageError(stderr, c, "--format %q: want %s or %s", f.format, formatProfile, formatIgnition), true
	}
	if !slices.Contains(ignition.Versions, f.version) {
		return usageError(stderr, c, "--ignition-version %q: want one of %s", f.version, strings.Join(ignition.Versions, ", ")), true
	}
	if printing {
		return usageError(stderr, c, "--format ignition cannot be used with --attr or --json"), true
	}
	if len(args) == 0 {
		return usageError(stderr, c, "no module given"), true
	}
	st := newRunStats(ef.stats)
	ev, diags := newEvaluator(ef.config(args))
	st.mark("load")
	defer st.print(stderr, ev)
	if diags.HasErrors() {
		printDiags(stderr, ev.Files(), diags)
		return exitError, true
	}
	p, ok := buildProfile(ev, st, ef.checkMode(), stderr)
	defer st.mark("write")
	if !ok {
		return exitError, true
	}
	cfg, err := ignition.RenderProfile(p, f.version)
	if err != nil {
		fmt.Fprintf(stderr, "nodegen eval: %s\n", err)
		return exitError, true
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	if !fs.Changed("out") {
		stdout.Write(cfg.JSON)
		return exitOK, true
	}
	out, _ := fs.GetString("out")
	if err := writeFileAtomicMode(out, cfg.JSON, ignitionFileMode(p.Entries, umask())); err != nil {
		fmt.Fprintf(stderr, "nodegen eval: %s\n", err)
		return exitError, true
	}
	return exitOK, true
}

// ignitionFileMode is the mode of a config written with -o: what the
// umask leaves of 0666, and readable by its owner only (0600 at most)
// when it holds a file that others may not read (profile.SecretMode):
// the config carries the contents of every file, so it is as secret as
// the most secret of them.
func ignitionFileMode(entries []profile.Entry, umask fs.FileMode) fs.FileMode {
	mode := 0o666 &^ umask
	for _, e := range entries {
		if e.Mode != profile.TypeSymlink && profile.SecretMode(e.Mode) {
			mode &= 0o600
		}
	}
	return mode
}

// umask is the process's umask; where it cannot be read without setting
// it (outside Linux), the strictest, 077.
func umask() fs.FileMode {
	if u, ok := profile.Umask(); ok {
		return u
	}
	return 0o077
}
