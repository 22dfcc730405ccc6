package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/nodegen/nodegen/activate"
)

func init() {
	commands = append(commands, &command{
		name:    "restore",
		summary: "Put back the active generation's own file where it was edited through its link.",
		usage:   "nodegen restore [--root DIR] [--from PROFILE] PATH...",
		help: `A file of mode 0644 owned by root is placed as a link, /etc/PATH ->
/etc/static/PATH -> the active generation's file, so a program that writes
through links (echo >> /etc/motd, an editor saving in place) changes the
generation itself; nodegen status shows it, and a switch that would drop
the edit refuses. restore keeps the edited file under
/var/lib/nodegen/taken-over/DATE/ (as switch --take-over does), then puts
back the generation's file, verified against its manifest: from PROFILE
when given (the profile the generation was made from), else from another
generation that holds the same file.`,
		example: "nodegen restore /etc/motd\nnodegen restore --from result /etc/motd",
		flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
			root := rootFlag(fs)
			from := fs.String("from", "", "take the generation's file from the profile `DIR` it was made from")
			return func(args []string, stdout, stderr io.Writer) int {
				if len(args) == 0 {
					return usageError(stderr, findCommand("restore"), "no path given")
				}
				return withSystem("restore", *root, stdout, stderr, func(s *activate.System) int {
					kept, err := s.Restore(args, *from)
					if err != nil {
						fmt.Fprintf(stderr, "nodegen restore: %s\n", err)
						return exitError
					}
					fmt.Fprintf(stdout, "restored %d file(s); the edits are kept under /%s\n", len(args), kept)
					return exitOK
				})
			}
		},
	})
}
