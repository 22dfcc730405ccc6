package main

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nodegen/nodegen/internal/atomicfile"

	"github.com/hashicorp/hcl/v2"
	"github.com/rogpeppe/go-internal/diff"
	"github.com/spf13/pflag"

	"github.com/nodegen/nodegen/hclfmt"
)

func init() {
	commands = append(commands, &command{
		name:    "fmt",
		summary: "Format module and test files canonically.",
		usage:   "nodegen fmt [--check] [--diff] [PATH...]",
		help: `Rewrites each file in canonical form: two-space indentation by nesting,
one space around operators, the = of neighbouring attributes aligned,
no trailing white space, no runs of blank lines. A directory means every
.hcl file below it (default: the current directory); "-" formats
standard input to standard output. Prints the names of the files it
changed; with --check it changes nothing, lists the files that would
change and exits 1 if there are any. --diff prints a unified diff of
each change that formatting would make instead of the file's name, and
changes nothing either.`,
		example: "nodegen fmt roles/\nnodegen fmt --check modules/ fixtures/\nnodegen fmt --check --diff roles/",
		args:    argsPaths,
		flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
			check := fs.Bool("check", false, "list the files that are not formatted, change nothing, and exit 1 if there are any")
			showDiff := fs.Bool("diff", false, "print a unified diff of each change instead of the file's name, and change nothing")
			return func(args []string, stdout, stderr io.Writer) int {
				return runFmt(args, *check, *showDiff, os.Stdin, stdout, stderr)
			}
		},
	})
}

func runFmt(args []string, check, showDiff bool, stdin io.Reader, stdout, stderr io.Writer) int {
	// changed reports a file whose formatting changes: its name, or the
	// diff.
	changed := func(name string, src, out []byte) {
		if showDiff {
			stdout.Write(diff.Diff(name+".orig", src, name, out))
			return
		}
		fmt.Fprintln(stdout, name)
	}
	if len(args) == 1 && args[0] == "-" {
		src, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "nodegen fmt: %s\n", err)
			return exitError
		}
		out, diags := hclfmt.Format(src, "<stdin>")
		if diags.HasErrors() {
			printDiags(stderr, map[string]*hcl.File{"<stdin>": {Bytes: src}}, diags)
			return exitError
		}
		if check || showDiff {
			if !bytes.Equal(src, out) {
				changed("<stdin>", src, out)
				if check {
					return exitError
				}
			}
			return exitOK
		}
		stdout.Write(out)
		return exitOK
	}
	if len(args) == 0 {
		args = []string{"."}
	}
	files, err := hclFiles(args)
	if err != nil {
		fmt.Fprintf(stderr, "nodegen fmt: %s\n", err)
		return exitError
	}
	code := exitOK
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(stderr, "nodegen fmt: %s\n", err)
			code = exitError
			continue
		}
		out, diags := hclfmt.Format(src, name)
		if diags.HasErrors() {
			printDiags(stderr, map[string]*hcl.File{name: {Bytes: src}}, diags)
			code = exitError
			continue
		}
		if bytes.Equal(src, out) {
			continue
		}
		changed(name, src, out)
		if check {
			code = exitError
			continue
		}
		if showDiff {
			continue // --diff only prints the change
		}
		if err := writeFileAtomic(name, out); err != nil {
			fmt.Fprintf(stderr, "nodegen fmt: %s\n", err)
			code = exitError
		}
	}
	return code
}

// hclFiles lists the files that paths name: a file as it is, a directory
// as every .hcl file below it, leaving out directories whose names start
// with a dot.
func hclFiles(paths []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			if !seen[filepath.Clean(p)] {
				seen[filepath.Clean(p)] = true
				out = append(out, p)
			}
			continue
		}
		err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if q != p && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(d.Name(), ".hcl") && !seen[filepath.Clean(q)] {
				seen[filepath.Clean(q)] = true
				out = append(out, q)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// writeFileAtomic replaces a file's content, keeping its mode, or creates
// it with mode 0644.
func writeFileAtomic(name string, data []byte) error {
	return atomicfile.Replace(name, data, func(old fs.FileMode, exists bool) fs.FileMode {
		if exists {
			return old
		}
		return 0o644
	})
}

// writeFileAtomicMode replaces a file's content, or creates it, with at
// most mode: a file that exists keeps only the bits of its mode that mode
// has too, so that what either keeps from others stays kept.
func writeFileAtomicMode(name string, data []byte, mode fs.FileMode) error {
	return atomicfile.Replace(name, data, func(old fs.FileMode, exists bool) fs.FileMode {
		if exists {
			return old & mode
		}
		return mode
	})
}
