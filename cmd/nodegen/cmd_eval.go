package main

import (
	"fmt"
	"io"

	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/modules"
	"github.com/nodegen/nodegen/options"
)

func init() {
	commands = append(commands, &command{
		name:    "eval",
		summary: "Evaluate modules and write the system profile.",
		usage:   "nodegen eval [-o DIR] [-A PATH | --json] [--bare] [--show-trace] MODULE.hcl...",
		example: "nodegen eval fixtures/minimal/host.hcl -o result\nnodegen eval -A networking.hostName fixtures/minimal/host.hcl",
		run:     runEval,
	})
}

// evalFlags are the flags every evaluating command shares.
type evalFlags struct {
	bare      bool
	showTrace bool
}

func (f *evalFlags) config(files []string) eval.Config {
	cfg := eval.Config{Files: files, ShowTrace: f.showTrace}
	if !f.bare {
		cfg.Library = modules.FS()
	}
	return cfg
}

func runEval(args []string, stdout, stderr io.Writer) int {
	c := findCommand("eval")
	fs := newFlags(c, stderr)
	var ef evalFlags
	out := fs.StringP("out", "o", "result", "where to write the profile")
	attr := fs.StringP("attr", "A", "", "print the value at `PATH` (a config path) as JSON; write no profile")
	asJSON := fs.Bool("json", false, "print the whole config tree as JSON; write no profile")
	fs.BoolVar(&ef.bare, "bare", false, "evaluate only the given modules and their imports, without the library")
	fs.BoolVar(&ef.showTrace, "show-trace", false, "add the evaluation chain to errors")
	if code, done := parseFlags(fs, args, stdout); done {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "nodegen eval: no module given")
		fs.Usage()
		return exitUsage
	}
	if *attr != "" && *asJSON {
		fmt.Fprintln(stderr, "nodegen eval: --attr and --json cannot be used together")
		return exitUsage
	}
	var attrPath options.Path
	if *attr != "" {
		p, err := options.ParsePath(*attr)
		if err != nil {
			fmt.Fprintf(stderr, "nodegen eval: --attr %q: %s\n", *attr, err)
			return exitUsage
		}
		attrPath = p
	}
	ev, diags := eval.New(ef.config(fs.Args()))
	if diags.HasErrors() {
		printDiags(stderr, ev.Files(), diags)
		return exitError
	}
	switch {
	case attrPath != nil:
		v, d := ev.Get(attrPath)
		return printValue(ev, v, append(diags, d...), stdout, stderr)
	case *asJSON:
		warns, d := ev.Check()
		printWarnings(stderr, warns)
		if d.HasErrors() {
			printDiags(stderr, ev.Files(), append(diags, d...))
			return exitError
		}
		v, d := ev.Config()
		return printValue(ev, v, d, stdout, stderr)
	}
	return writeProfile(ev, *out, stdout, stderr)
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

func printWarnings(w io.Writer, warns []eval.Warning) {
	for _, wn := range warns {
		fmt.Fprintf(w, "warning: %s\n", wn.Message)
	}
}
