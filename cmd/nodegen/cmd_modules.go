package main

import (
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/options"
)

func init() {
	commands = append(commands, &command{
		name:    "modules",
		summary: "List the built-in module library, or print one of its files.",
		usage:   "nodegen modules [cat PATH]",
		help: `The module library is embedded in the binary and part of every
evaluation unless --bare is given. "nodegen modules" lists its files, by
their paths in the library; "nodegen modules cat PATH" prints one.
Diagnostics name a library file as <nodegen>/modules/PATH: "nodegen
modules cat" takes that name too.`,
		example: "nodegen modules\nnodegen modules cat config/networking.hcl",
		args:    argsLibraryFiles,
		flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
			return runModules
		},
	})
}

func runModules(args []string, stdout, stderr io.Writer) int {
	c := findCommand("modules")
	lib := library()
	switch {
	case len(args) == 0:
		for _, p := range libraryFiles(lib) {
			fmt.Fprintln(stdout, p)
		}
		return exitOK
	case args[0] != "cat":
		return usageError(stderr, c, "unknown subcommand %q: want cat", args[0])
	case len(args) != 2:
		return usageError(stderr, c, "cat wants one library file, such as config/networking.hcl")
	}
	name := args[1]
	if rel, ok := eval.LibraryModule(name); ok {
		name = rel
	}
	files := libraryFiles(lib)
	if i := sort.SearchStrings(files, name); i == len(files) || files[i] != name {
		fmt.Fprintf(stderr, "nodegen modules: no library file %q.", name)
		if s := librarySuggestion(name, files); s != "" {
			fmt.Fprintf(stderr, " Did you mean %q?", s)
		}
		fmt.Fprintf(stderr, "\nRun \"nodegen modules\" for the list.\n")
		return exitError
	}
	b, err := fs.ReadFile(lib, name)
	if err != nil {
		fmt.Fprintf(stderr, "nodegen modules: %s\n", err)
		return exitError
	}
	stdout.Write(b)
	return exitOK
}

// libraryFiles lists the .hcl files of the library (modules and their
// tests), sorted.
func libraryFiles(lib fs.FS) []string {
	var out []string
	_ = fs.WalkDir(lib, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".hcl") {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// librarySuggestion is the library file a wrong name most likely meant:
// one a few edits away, else the one file with the same base name (a
// module that moved to another directory).
func librarySuggestion(name string, files []string) string {
	if s := options.DidYouMean(name, files); s != "" {
		return s
	}
	base := name[strings.LastIndex(name, "/")+1:]
	found := ""
	for _, f := range files {
		if f[strings.LastIndex(f, "/")+1:] == base {
			if found != "" {
				return ""
			}
			found = f
		}
	}
	return found
}
