package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/nodegen/nodegen/profile"
)

func init() {
	commands = append(commands, &command{
		name:    "diff",
		summary: "Show what changed between two profiles, and what switching would do to units.",
		usage:   "nodegen diff [--json] OLD NEW",
		example: "nodegen eval host.hcl -o result-new\nnodegen diff result result-new",
		run:     runDiff,
	})
}

func runDiff(args []string, stdout, stderr io.Writer) int {
	c := findCommand("diff")
	fs := newFlags(c, stderr)
	asJSON := fs.Bool("json", false, "print the changes as JSON")
	if code, done := parseFlags(fs, args, stdout); done {
		return code
	}
	if fs.NArg() != 2 {
		fmt.Fprintln(stderr, "nodegen diff: want two profile directories, OLD and NEW")
		fs.Usage()
		return exitUsage
	}
	ch, err := profile.Diff(fs.Arg(0), fs.Arg(1))
	if err != nil {
		fmt.Fprintf(stderr, "nodegen diff: %s\n", err)
		return exitError
	}
	if *asJSON {
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
