package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/spf13/pflag"
)

func init() {
	commands = append(commands, &command{
		name:    "version",
		summary: "Print the version of nodegen and the revision it was built from.",
		usage:   "nodegen version",
		help: `Prints "nodegen VERSION", followed by "revision REV" when the binary
was built from a version-controlled checkout ("+dirty" when the checkout
had uncommitted changes). VERSION is the module version ("(devel)" for a
build from a checkout rather than go install of a tagged version).
"nodegen --version" prints the same.`,
		example: "nodegen version",
		flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
			return func(args []string, stdout, stderr io.Writer) int {
				if len(args) > 0 {
					return usageError(stderr, findCommand("version"), "takes no arguments")
				}
				bi, _ := debug.ReadBuildInfo()
				fmt.Fprintln(stdout, versionLine(bi))
				return exitOK
			}
		},
	})
}

// versionLine describes the build: "nodegen VERSION", then " revision
// REV" when the build info holds a VCS revision, with "+dirty" when the
// checkout was modified. VERSION is "(devel)" when unknown.
func versionLine(bi *debug.BuildInfo) string {
	version, revision, dirty := "", "", false
	if bi != nil {
		version = bi.Main.Version
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if version == "" {
		version = "(devel)"
	}
	line := "nodegen " + version
	if revision != "" {
		line += " revision " + revision
		if dirty {
			line += "+dirty"
		}
	}
	return line
}
