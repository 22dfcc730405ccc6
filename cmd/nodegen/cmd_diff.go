package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/nodegen/nodegen/profile"
)

func init() {
	commands = append(commands, &command{
		name:    "diff",
		summary: "Show what changed between two profiles, and what switching would do to units.",
		usage:   "nodegen diff [--json] OLD NEW",
		example: "nodegen eval host.hcl -o result-new\nnodegen diff result result-new",
		args:    argsDirs,
		flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
			asJSON := fs.Bool("json", false, "print the changes as JSON")
			return func(args []string, stdout, stderr io.Writer) int { return runDiff(args, *asJSON, stdout, stderr) }
		},
	})
}

func runDiff(args []string, asJSON bool, stdout, stderr io.Writer) int {
	if len(args) != 2 {
		return usageError(stderr, findCommand("diff"), "want two profile directories, OLD and NEW")
	}
	ch, err := profile.Diff(args[0], args[1])
	if err != nil {
		fmt.Fprintf(stderr, "nodegen diff: %s\n", err)
		return exitError
	}
	if asJSON {
		b, err := json.MarshalIndent(ch, "", "  ")
		if err != nil {
			fmt.Fprintf(stderr, "nodegen diff: %s\n", err)
			return exitError
		}
		stdout.Write(append(b, '\n'))
		return exitOK
	}
	if err := ch.WriteText(stdout); err != nil {
		fmt.Fprintf(stderr, "nodegen diff: %s\n", err)
		return exitError
	}
	return exitOK
}
