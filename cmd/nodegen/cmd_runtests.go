package main

import (
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/spf13/pflag"

	"github.com/nodegen/nodegen/internal/runtimetune"
	"github.com/nodegen/nodegen/modtest"
)

func init() {
	commands = append(commands, &command{
		name:    "test",
		summary: "Run the tests of modules: the run blocks of *.test.hcl files.",
		usage:   "nodegen test [-run REGEXP] [--json] [--bare] [--show-trace] [PATH...]",
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
			ef.add(fs)
			return func(args []string, stdout, stderr io.Writer) int {
				return runTests(args, &ef, *match, *asJSON, *parallel, stdout, stderr)
			}
		},
	})
}

func runTests(args []string, ef *evalFlags, match string, asJSON bool, parallel int, stdout, stderr io.Writer) int {
	c := findCommand("test")
	rn := &modtest.Runner{ShowTrace: ef.showTrace, Parallel: parallel, Limits: ef.limits}
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
	rep := modtest.NewTextReport(stdout, printDiags)
	if asJSON {
		rep = modtest.NewJSONReport(stdout)
	}
	rn.RunFiles(files, rep.File)
	if rep.Close() {
		return exitError
	}
	return exitOK
}
