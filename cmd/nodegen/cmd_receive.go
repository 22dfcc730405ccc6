package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/nodegen/nodegen/deploy"
)

func init() {
	commands = append(commands, &command{
		name:    "receive",
		summary: "The host's side of nodegen deploy's copy of a profile, and of its keys.",
		usage:   "nodegen receive [--missing | --key NAME [--user USER] [--group GROUP] [--mode MODE]] DIR",
		help: `nodegen deploy runs this on the host. With --missing, stdin is a profile's
manifest, and stdout lists the SHA-256 hashes (one a line) of the contents
of its files that the host has no copy of in the profiles it received
before (the directories beside DIR) or in its generations. Without, stdin
is a tar stream of the manifest and one file of each of those contents;
the profile is assembled in a temporary directory beside DIR from them
and the host's copies, every file checked against the manifest's hash,
and renamed to DIR.

With --key, stdin is a key of deployment.keys (at most 1 MiB), written
as DIR/NAME, owned by USER:GROUP with MODE. NAME is a file name, not a
path. No component of DIR may be a symbolic link; a missing DIR is made,
owned by root with mode 0751. The file is created under a temporary name
with its owner and mode, filled, and renamed into place, through the
directory's descriptor: nothing is ever written through a link.`,
		example: "nodegen receive --missing /var/lib/nodegen/deploy/profiles/HASH < nodegen-profile.json\nnodegen receive --key db-password --user postgres --group postgres --mode 0400 /run/keys < secret",
		flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
			missing := fs.Bool("missing", false, "read a manifest on stdin and list the hashes of the contents the host lacks")
			gens := fs.String("generations", "/var/lib/nodegen/generations", "the generations, whose files count as the host's copies")
			key := fs.String("key", "", "write the key on stdin as the file `NAME` of DIR")
			keyUser := fs.String("user", "root", "the key's owner")
			keyGroup := fs.String("group", "root", "the key's group")
			keyMode := fs.String("mode", "0600", "the key's permission bits, in octal")
			return func(args []string, stdout, stderr io.Writer) int {
				c := findCommand("receive")
				if len(args) != 1 {
					return usageError(stderr, c, "want one DIR, got %d argument(s)", len(args))
				}
				if fs.Changed("key") {
					if *missing {
						return usageError(stderr, c, "--key and --missing: want one of them")
					}
					k := deploy.Key{Name: *key, DestDir: args[0], User: *keyUser, Group: *keyGroup, Permissions: *keyMode}
					if err := deploy.PutKey(k, os.Stdin); err != nil {
						fmt.Fprintf(stderr, "nodegen receive: %s\n", err)
						return exitError
					}
					return exitOK
				}
				dir, err := filepath.Abs(args[0])
				if err != nil {
					fmt.Fprintf(stderr, "nodegen receive: %s\n", err)
					return exitError
				}
				known := deploy.Known(filepath.Dir(dir), *gens)
				if *missing {
					m, err := deploy.ReadManifest(os.Stdin)
					if err != nil {
						fmt.Fprintf(stderr, "nodegen receive: %s\n", err)
						return exitError
					}
					for _, h := range deploy.Missing(m, known) {
						fmt.Fprintln(stdout, h)
					}
					return exitOK
				}
				if err := deploy.Receive(dir, os.Stdin, known); err != nil {
					fmt.Fprintf(stderr, "nodegen receive: %s\n", err)
					return exitError
				}
				return exitOK
			}
		},
	})
}
