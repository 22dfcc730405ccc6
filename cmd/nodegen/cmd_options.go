package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/nodegen/nodegen/docgen"
	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/runtimetune"
)

func init() {
	commands = append(commands, &command{
		name:    "options",
		gc:      runtimetune.OneEvaluation,
		summary: "Write the reference documentation of every option in scope.",
		usage:   "nodegen options [--format markdown|json] [--bare] [MODULE.hcl...]",
		help: `Documents every option of the library and of the given modules (and
their imports): path, type, default (or default_text), example,
description and where it is declared. Options inside submodules appear
below their option with <name> for an attribute of an attribute set and *
for an element of a list. Internal options are left out.

docs/options.md in the nodegen repository is this command's Markdown for
the built-in library (make docs).`,
		example: "nodegen options > options.md\nnodegen options --format json roles/node.hcl | jq '.[].path'",
		args:    argsModules,
		flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
			var ef evalFlags
			format := fs.String("format", "markdown", "`markdown` or json")
			completeWith(fs, "format", "markdown", "json")
			ef.add(fs)
			return func(args []string, stdout, stderr io.Writer) int {
				return runOptions(args, &ef, *format, stdout, stderr)
			}
		},
	})
}

func runOptions(args []string, ef *evalFlags, format string, stdout, stderr io.Writer) int {
	c := findCommand("options")
	var write func(io.Writer, []eval.Declaration) error
	switch format {
	case "markdown", "md":
		write = docgen.Markdown
	case "json":
		write = docgen.JSON
	default:
		return usageError(stderr, c, "--format %q: want markdown or json", format)
	}
	ev, diags := eval.New(ef.config(args))
	if diags.HasErrors() {
		printDiags(stderr, ev.Files(), diags)
		return exitError
	}
	if err := write(stdout, ev.Declarations()); err != nil {
		fmt.Fprintf(stderr, "nodegen options: %s\n", err)
		return exitError
	}
	return exitOK
}
