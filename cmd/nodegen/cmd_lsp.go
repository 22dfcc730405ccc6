package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/nodegen/nodegen/lsp"
	"github.com/nodegen/nodegen/profilecheck"
)

func init() {
	commands = append(commands, &command{
		name:    "lsp",
		summary: "Run the language server (LSP 3.17 over stdin and stdout) for editors.",
		usage:   "nodegen lsp [--host HOST.hcl]... [--fleet FLEET.hcl] [--bare] [--checks off|auto|required] [--library-dir DIR]",
		help: `Speaks the Language Server Protocol on stdin and stdout, for an editor
to start: diagnostics as you type (and, on save, the full evaluation of
the hosts that read the file), hover with what nodegen option prints,
completion of option paths, enum values and functions, go to the
declaration of an option (in the built-in library too), its definitions
as references, formatting as nodegen fmt, and the outline.

A file is checked in the evaluation of the hosts that read it. The hosts
are the workspace's modules that no other module imports, unless --host
names them (relative to the workspace root, or absolute; repeatable) or
the client's initializationOptions {"hosts": [...]} do. A file no host
reads is evaluated alone with the library.

A save runs no check of the generated files (scripts the modules chose,
such as sshd -t) unless --checks or initializationOptions {"checks":
"auto"} enables them.

docs/editors.md has the set-up of Neovim, Helix, Emacs and VS Code.`,
		example: "nodegen lsp --host hosts/web.hcl --host hosts/db.hcl",
		args:    argsNone,
		flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
			hosts := fs.StringArray("host", nil, "a host file of the workspace; repeatable")
			completeWith(fs, "host", completeFree)
			fleet := fs.String("fleet", "", "a fleet file (`FLEET.hcl`): its hosts read each other, and a file is checked in those that read it")
			bare := fs.Bool("bare", false, "evaluate without the built-in library")
			checks := fs.String("checks", "off", "the checks of the generated files a save runs: off, auto or required (module scripts: enable only for a trusted workspace)")
			completeWith(fs, "checks", "off", "auto", "required")
			libDir := fs.String("library-dir", "", "where to write the library's files for go to definition (default: the user's cache directory)")
			completeWith(fs, "library-dir", completeDirs)
			return func(args []string, stdout, stderr io.Writer) int {
				if len(args) > 0 {
					return usageError(stderr, findCommand("lsp"), "no arguments expected, got %q", args[0])
				}
				if _, err := profilecheck.ParseMode(*checks); err != nil {
					return usageError(stderr, findCommand("lsp"), "--checks: %s", err)
				}
				opts := lsp.Options{Hosts: *hosts, Fleet: *fleet, Checks: *checks, LibraryDir: *libDir, ParseCache: parseCache(), Log: stderr}
				if !*bare {
					opts.Library = library()
				}
				if err := lsp.New(opts, stdout).Run(os.Stdin); err != nil {
					fmt.Fprintf(stderr, "nodegen lsp: %s\n", err)
					return exitError
				}
				return exitOK
			}
		},
	})
}
