package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/nodegen/nodegen/docgen"
	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/runtimetune"
	"github.com/nodegen/nodegen/optionsite"
)

func init() {
	commands = append(commands, &command{
		name:    "options",
		gc:      runtimetune.OneEvaluation,
		summary: "Write the reference documentation of every option in scope.",
		usage:   "nodegen options [--format markdown|json] [--bare] [MODULE.hcl...]\n       nodegen options --format html -o DIR [--bare] [HOST.hcl...]",
		help: `Documents every option of the library and of the given modules (and
their imports): path, type, default (or default_text), example,
description and where it is declared. Options inside submodules appear
below their option with <name> for an attribute of an attribute set and *
for an element of a list. Internal options are left out.

--format html writes a searchable web page into DIR: options.html (its
script and style inline) and its index, options-index.js and
options-index.json; open options.html from the disk or serve DIR. Each
HOST.hcl is then evaluated on its own, as nodegen option evaluates it: the
page shows every option's value on each host and the definitions that set
it, and marks the options a host sets.

docs/options.md in the nodegen repository is this command's Markdown for
the built-in library, docs/options.html its page (make docs).`,
		example: "nodegen options > options.md\nnodegen options --format json roles/node.hcl | jq '.[].path'\nnodegen options --format html -o site hosts/web.hcl hosts/db.hcl",
		args:    argsModules,
		flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
			var ef evalFlags
			format := fs.String("format", "markdown", "`markdown`, json or html")
			completeWith(fs, "format", "markdown", "json", "html")
			out := fs.StringP("out", "o", "", "with --format html: the `DIR`ectory to write the page and its index to")
			completeWith(fs, "out", completeDirs)
			ef.add(fs)
			return func(args []string, stdout, stderr io.Writer) int {
				if *format == "html" {
					return runOptionsSite(args, &ef, *out, stderr)
				}
				if fs.Changed("out") {
					return usageError(stderr, findCommand("options"), "-o is for --format html; markdown and json go to stdout")
				}
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
		return usageError(stderr, c, "--format %q: want markdown, json or html", format)
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

// runOptionsSite writes the options page into dir: the options of the
// library and of the hosts, and each host's values (optionsite).
func runOptionsSite(hosts []string, ef *evalFlags, dir string, stderr io.Writer) int {
	if dir == "" {
		return usageError(stderr, findCommand("options"), "--format html needs -o DIR, the directory to write the page to")
	}
	var named []optionsite.NamedEvaluator
	var decls []eval.Declaration
	if len(hosts) == 0 {
		ev, diags := eval.New(ef.config(nil))
		if diags.HasErrors() {
			printDiags(stderr, ev.Files(), diags)
			return exitError
		}
		decls = ev.Declarations()
	}
	for _, h := range hosts {
		ev, diags := newEvaluator(ef.config([]string{h}))
		if diags.HasErrors() {
			printDiags(stderr, ev.Files(), diags)
			return exitError
		}
		named = append(named, optionsite.NamedEvaluator{Name: h, Eval: ev})
		decls = append(decls, ev.Declarations()...)
	}
	idx := optionsite.Build(optionsite.Union(decls), named)
	if err := optionsite.Write(dir, idx); err != nil {
		fmt.Fprintf(stderr, "nodegen options: %s\n", err)
		return exitError
	}
	return exitOK
}
