package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/spf13/pflag"

	"github.com/nodegen/nodegen/lib"
	"github.com/nodegen/nodegen/profile"
)

func init() {
	commands = append(commands, &command{
		name:    "diff",
		summary: "Show what changed between two profiles, and what switching would do to units.",
		usage:   "nodegen diff [--json] [--exit-code] OLD NEW",
		help: `OLD and NEW are profile directories written by "nodegen eval". Exit
status 0 when the diff could be made (and was printed), 1 on an error.
With --exit-code, as git diff --exit-code: 0 when the profiles are the
same, 1 when they differ, 2 on an error (a missing directory, one that
is not a profile, a wrong argument). Every file of both profiles is
checked against its manifest first: a profile changed after it was
written (a file edited, replaced or removed) is an error naming the files.`,
		example: "nodegen eval host.hcl -o result-new\nnodegen diff result result-new\nnodegen diff --exit-code result result-new || echo changed",
		args:    argsDirs,
		flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
			asJSON := fs.Bool("json", false, "print the changes as JSON")
			exitCode := fs.Bool("exit-code", false, "exit 0 when the profiles are the same, 1 when they differ, 2 on an error")
			return func(args []string, stdout, stderr io.Writer) int {
				differs, code := runDiff(args, *asJSON, stdout, stderr)
				switch {
				case !*exitCode:
					return code
				case code != exitOK:
					return exitUsage
				case differs:
					return exitError
				}
				return exitOK
			}
		},
	})
}

// runDiff prints the changes between two profiles, and returns whether
// they differ and the exit code of the command without --exit-code.
func runDiff(args []string, asJSON bool, stdout, stderr io.Writer) (differs bool, code int) {
	if len(args) != 2 {
		return false, usageError(stderr, findCommand("diff"), "want two profile directories, OLD and NEW")
	}
	for _, dir := range args {
		if err := checkProfileDir(dir); err != nil {
			fmt.Fprintf(stderr, "nodegen diff: %s\n", err)
			return false, exitError
		}
	}
	// A profile whose files are not its manifest's would diff by the
	// manifests alone as if untouched: each is verified first.
	for _, dir := range args {
		if err := profile.VerifyDir(dir); err != nil {
			fmt.Fprintf(stderr, "nodegen diff: %s\n", err)
			return false, exitError
		}
	}
	ch, err := profile.Diff(args[0], args[1])
	if err != nil {
		fmt.Fprintf(stderr, "nodegen diff: %s\n", err)
		return false, exitError
	}
	if asJSON {
		b, err := json.MarshalIndent(ch, "", "  ")
		if err != nil {
			fmt.Fprintf(stderr, "nodegen diff: %s\n", err)
			return false, exitError
		}
		stdout.Write(append(b, '\n'))
	} else if err := ch.WriteText(stdout); err != nil {
		fmt.Fprintf(stderr, "nodegen diff: %s\n", err)
		return false, exitError
	}
	return !ch.Empty(), exitOK
}

// checkProfileDir tells, in words, why dir cannot be a profile: it does
// not exist, or it is a file; nil when it is a directory (whether it holds
// a profile is for profile.Diff to say).
func checkProfileDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s does not exist", dir)
	case err != nil:
		return fmt.Errorf("%s: %s", dir, lib.FileErrorCause(err))
	case !fi.IsDir():
		return fmt.Errorf("%s is a file, not a profile: a profile is the directory that \"nodegen eval\" writes (nodegen eval host.hcl -o DIR)", dir)
	}
	return nil
}
