package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/runtimetune"
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
	// help is more text for --help, after the usage line; optional.
	help    string
	example string
	// args says what the positional arguments are, for shell completion.
	args argKind
	// flags declares the command's flags on fs and returns the command's
	// body, which runs with the positional arguments once the flags are
	// parsed.
	flags func(fs *pflag.FlagSet) func(args []string, stdout, stderr io.Writer) int
	// gc is how main tunes the garbage collector for the command (see
	// runtimetune.Tune).
	gc runtimetune.Mode
}

// argKind is what a command's positional arguments are.
type argKind int

const (
	argsNone          argKind = iota
	argsModules               // .hcl files
	argsPaths                 // files or directories
	argsDirs                  // directories
	argsShells                // bash, zsh, fish
	argsCommands              // command names
	argsLibraryFiles          // cat, then a file of the built-in library
	argsModulesOption         // .hcl files, then an option path
	argsSpecFiles             // fetch, then certificate spec files (.json)
)

var commands []*command

func findCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

func init() {
	commands = append(commands, &command{
		name:    "help",
		summary: "Show the commands, or one command's flags and an example.",
		usage:   "nodegen help [COMMAND]",
		example: "nodegen help test",
		args:    argsCommands,
		flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
			return func(args []string, stdout, stderr io.Writer) int {
				if len(args) == 0 {
					usage(stdout)
					return exitOK
				}
				c := findCommand(args[0])
				if c == nil || len(args) > 1 {
					fmt.Fprintf(stderr, "nodegen help: unknown command %q\n\n", strings.Join(args, " "))
					usage(stderr)
					return exitUsage
				}
				fs, _ := commandFlags(c, stderr)
				commandHelp(stdout, c, fs)
				return exitOK
			}
		},
	})
}

// Main runs the command line and returns the exit code.
func Main() int {
	code := run(os.Args[1:], os.Stdout, os.Stderr)
	waitParseCache()
	return code
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "--help":
		usage(stdout)
		return exitOK
	case "--version":
		args = append([]string{"version"}, args[1:]...)
	case completeCommand:
		return runComplete(args[1:], stdout)
	}
	c := findCommand(args[0])
	if c == nil {
		fmt.Fprintf(stderr, "nodegen: unknown command %q\n\n", args[0])
		usage(stderr)
		return exitUsage
	}
	fs, body := commandFlags(c, stderr)
	if code, done := parseFlags(fs, c, goStyleFlags(fs, args[1:]), stdout); done {
		return code
	}
	return body(fs.Args(), stdout, stderr)
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

// How shell completion completes a flag's value (see completeWith).
const (
	annotationComplete = "nodegen_complete"
	completeDirs       = ":dirs"
	completeFree       = ":free"
	completeOptions    = ":options"
)

// completeWith says how a flag's value is completed: completeDirs,
// completeFree, completeOptions (an option path), or a list of words.
func completeWith(fs *pflag.FlagSet, name string, values ...string) {
	_ = fs.SetAnnotation(name, annotationComplete, values)
}

// commandHelp writes a command's --help: summary, usage, more text,
// flags and an example.
func commandHelp(w io.Writer, c *command, fs *pflag.FlagSet) {
	fmt.Fprintf(w, "%s\n\nUsage:\n  %s\n", c.summary, c.usage)
	if c.help != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(c.help, "\n"))
	}
	if fl := fs.FlagUsages(); fl != "" {
		fmt.Fprintf(w, "\nFlags:\n%s", fl)
	}
	if c.example != "" {
		fmt.Fprintf(w, "\nExample:\n%s\n", indent(c.example, "  "))
	}
}

// commandFlags makes a command's flag set, with --help last, and its body.
func commandFlags(c *command, stderr io.Writer) (*pflag.FlagSet, func([]string, io.Writer, io.Writer) int) {
	fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SortFlags = false
	fs.Usage = func() {}
	body := c.flags(fs)
	fs.BoolP("help", "h", false, "show this help")
	return fs, body
}

// parseFlags parses args; done is true when the command should return
// code: after --help (printed to stdout) or a usage error.
func parseFlags(fs *pflag.FlagSet, c *command, args []string, stdout io.Writer) (code int, done bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			commandHelp(stdout, c, fs)
			return exitOK, true
		}
		return usageError(fs.Output(), c, "%s", err), true
	}
	if h, _ := fs.GetBool("help"); h {
		commandHelp(stdout, c, fs)
		return exitOK, true
	}
	return 0, false
}

// usageError reports a usage error and returns exitUsage.
func usageError(stderr io.Writer, c *command, format string, args ...any) int {
	fmt.Fprintf(stderr, "nodegen %s: %s\n", c.name, fmt.Sprintf(format, args...))
	fmt.Fprintf(stderr, "Usage: %s\nRun \"nodegen %s --help\" for more.\n", c.usage, c.name)
	return exitUsage
}

// goStyleFlags accepts Go-style long flags with one dash (-run X, -json)
// by rewriting those that name a long flag of fs to two dashes.
func goStyleFlags(fs *pflag.FlagSet, args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if len(a) > 2 && a[0] == '-' && a[1] != '-' {
			name, _, _ := strings.Cut(a[1:], "=")
			if len(name) > 1 && fs.Lookup(name) != nil {
				a = "-" + a
			}
		}
		out = append(out, a)
	}
	return out
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}

// printDiags renders diagnostics with source snippets, each distinct one
// once (the same error reached through two references, or found by two
// phases, is printed once). A diagnostic that points into the built-in
// library is followed by the command that prints that file, since a user
// of the binary has no other way to read it.
func printDiags(w io.Writer, files map[string]*hcl.File, diags hcl.Diagnostics) {
	if len(diags) == 0 {
		return
	}
	diags = eval.Dedupe(diags)
	width, color := uint(0), false
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		color = true
		if wd, _, err := term.GetSize(int(f.Fd())); err == nil && wd > 0 {
			width = uint(wd)
		}
	}
	var buf bytes.Buffer
	wr := hcl.NewDiagnosticTextWriter(&buf, files, width, color)
	for _, d := range diags {
		buf.Reset()
		_ = wr.WriteDiagnostic(d)
		out := buf.Bytes()
		if d.Subject != nil && eval.OriginOf(*d.Subject) == eval.Library {
			out = append(bytes.TrimRight(out, "\n"), '\n')
			if d.Detail == "" {
				out = append(out, '\n')
			}
			out = fmt.Appendf(out, "To read %s: nodegen modules cat %s\n\n", d.Subject.Filename, libraryModule(d.Subject.Filename))
		}
		w.Write(out)
	}
}

// libraryModule is the path in the library of the library module name
// names (see eval.LibraryModule).
func libraryModule(name string) string {
	rel, _ := eval.LibraryModule(name)
	return rel
}
