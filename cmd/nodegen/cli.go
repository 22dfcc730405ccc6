package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/pflag"
	"golang.org/x/term"
)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1 // evaluation or assertion error
	exitUsage = 2
)

// command is one subcommand.
type command struct {
	name    string
	summary string
	usage   string
	example string
	run     func(args []string, stdout, stderr io.Writer) int
}

var commands []*command

func findCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// Main runs the command line and returns the exit code.
func Main() int {
	return run(os.Args[1:], os.Stdout, os.Stderr)
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "--help", "help":
		if len(args) > 1 {
			if c := findCommand(args[1]); c != nil {
				commandHelp(stdout, c)
				return exitOK
			}
		}
		usage(stdout)
		return exitOK
	}
	c := findCommand(args[0])
	if c == nil {
		fmt.Fprintf(stderr, "nodegen: unknown command %q\n\n", args[0])
		usage(stderr)
		return exitUsage
	}
	return c.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "nodegen evaluates NixOS-style HCL modules and writes system profiles.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage:")
	fmt.Fprintln(w, "  nodegen COMMAND [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	names := make([]string, 0, len(commands))
	for _, c := range commands {
		names = append(names, c.name)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, findCommand(n).summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, `Run "nodegen COMMAND --help" for a command's flags and an example.`)
}

func commandHelp(w io.Writer, c *command) {
	fmt.Fprintf(w, "%s\n\nUsage:\n  %s\n", c.summary, c.usage)
}

// newFlags makes a command's flag set with --help wired up.
func newFlags(c *command, stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SortFlags = false
	fs.Usage = func() {
		fmt.Fprintf(stderr, "%s\n\nUsage:\n  %s\n\nFlags:\n%s", c.summary, c.usage, fs.FlagUsages())
		if c.example != "" {
			fmt.Fprintf(stderr, "\nExample:\n%s\n", indent(c.example, "  "))
		}
	}
	return fs
}

// parseFlags parses args; done is true when the command should return code.
func parseFlags(fs *pflag.FlagSet, args []string, stdout io.Writer) (code int, done bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK, true
		}
		fmt.Fprintf(fs.Output(), "nodegen %s: %s\n", fs.Name(), err)
		return exitUsage, true
	}
	return 0, false
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}

// printDiags renders diagnostics with source snippets.
func printDiags(w io.Writer, files map[string]*hcl.File, diags hcl.Diagnostics) {
	if len(diags) == 0 {
		return
	}
	width, color := uint(0), false
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		color = true
		if wd, _, err := term.GetSize(int(f.Fd())); err == nil && wd > 0 {
			width = uint(wd)
		}
	}
	wr := hcl.NewDiagnosticTextWriter(w, files, width, color)
	_ = wr.WriteDiagnostics(diags)
}
