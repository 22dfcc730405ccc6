package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/pflag"

	"github.com/nodegen/nodegen/activate"
	"github.com/nodegen/nodegen/deploy"
	"github.com/nodegen/nodegen/internal/keyset"
)

func init() {
	commands = append(commands, &command{
		name:    "receive",
		summary: "The host's side of nodegen deploy's copy of a profile, and of its keys.",
		usage:   "nodegen receive [--missing | --key NAME [--stage ID] [--user USER] [--group GROUP] [--mode MODE]] DIR",
		help: `nodegen deploy runs this on the host. With --missing, stdin is a profile's
manifest, and stdout lists the SHA-256 hashes (one a line) of the contents
of its files that the host has no intact copy of in the profiles it
received before (the directories beside DIR) or in its generations: each
copy is hashed, and a damaged one is named on stderr. Without, stdin is a
tar stream of the manifest and one file of each of those contents. The
manifest is checked first, by the rules switch reads a profile with (no
entry below another, a symlink's say), and nothing is written for one
they refuse. The profile is then assembled in a temporary directory
beside DIR, through that directory's descriptor, from the files sent and
the host's intact copies (a file of an earlier received profile with the
same content and mode is shared, a hard link), every file checked against
the manifest's hash, and renamed to DIR; a damaged copy of an earlier
received profile is replaced. The receive holds the lock that switch and
gc hold (in the directory above --generations) and first removes what
receives that were cut left beside DIR.

With --key, stdin is a key of deployment.keys (at most 1 MiB), written
as DIR/NAME, owned by USER:GROUP with MODE. NAME is a file name, not a
path. No component of DIR may be a symbolic link; a missing DIR is made,
owned by root with mode 0751. The file is created under a temporary name
with its owner and mode, filled, and renamed into place, through the
directory's descriptor: nothing is ever written through a link.

With --key and --stage ID (what nodegen deploy runs), the key is not
written at DIR/NAME but staged, root's only, below
/var/lib/nodegen/deploy/keys/ID (beside --generations), with its path,
owner and mode: nodegen switch --keys /var/lib/nodegen/deploy/keys/ID then
copies the stage into the new generation, whose activation puts the keys
in place. Keys of a deploy whose switch is refused or rolled back never
replace the active generation's. A stage no switch used is removed after
an hour by the next nodegen command that takes the lock.`,
		example: "nodegen receive --missing /var/lib/nodegen/deploy/profiles/HASH < nodegen-profile.json\nnodegen receive --key db-password --stage 0f3c --user postgres --group postgres --mode 0400 /run/keys < secret",
		flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
			missing := fs.Bool("missing", false, "read a manifest on stdin and list the hashes of the contents the host lacks")
			gens := fs.String("generations", "/var/lib/nodegen/generations", "the generations, whose files count as the host's copies")
			key := fs.String("key", "", "write the key on stdin as the file `NAME` of DIR")
			keyUser := fs.String("user", "root", "the key's owner")
			keyGroup := fs.String("group", "root", "the key's group")
			keyMode := fs.String("mode", "0600", "the key's permission bits, in octal")
			stage := fs.String("stage", "", "with --key, stage the key for nodegen switch --keys under the deploy attempt's `ID` instead of writing it")
			return func(args []string, stdout, stderr io.Writer) int {
				c := findCommand("receive")
				if len(args) != 1 {
					return usageError(stderr, c, "want one DIR, got %d argument(s)", len(args))
				}
				if fs.Changed("key") {
					if *missing {
						return usageError(stderr, c, "--key and --missing: want one of them")
					}
					if fs.Changed("stage") {
						if p := keyset.IDProblem(*stage); p != "" {
							return usageError(stderr, c, "--stage %q: %s", *stage, p)
						}
						dir := filepath.Join(keyset.StageRoot(filepath.Dir(filepath.Clean(*gens))), *stage)
						if err := deploy.StageKey(dir, keyset.Key{Name: *key, Dir: args[0], User: *keyUser, Group: *keyGroup, Mode: *keyMode}, os.Stdin); err != nil {
							fmt.Fprintf(stderr, "nodegen receive: %s\n", err)
							return exitError
						}
						return exitOK
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
				// A damaged copy is named, quoted: its path is the host's,
				// but it ends up on the deployer's terminal.
				damaged := func(paths, replaced []string) {
					for _, p := range paths {
						fmt.Fprintf(stderr, "nodegen receive: %q is damaged (its content is not its manifest's): not used", p)
						if slices.Contains(replaced, p) {
							fmt.Fprint(stderr, ", replaced by an intact copy")
						}
						fmt.Fprintln(stderr)
					}
				}
				if *missing {
					m, err := deploy.ReadManifest(os.Stdin)
					if err != nil {
						fmt.Fprintf(stderr, "nodegen receive: %s\n", err)
						return exitError
					}
					hashes, bad := deploy.Missing(m, deploy.Known(filepath.Dir(dir), *gens))
					damaged(bad, nil)
					for _, h := range hashes {
						fmt.Fprintln(stdout, h)
					}
					return exitOK
				}
				// The lock is switch's: a receive and a switch or gc take
				// turns (the host's copies are found with it held), and
				// what a cut receive left is removed here.
				release, err := activate.LockState(filepath.Dir(filepath.Clean(*gens)))
				if err != nil {
					fmt.Fprintf(stderr, "nodegen receive: %s\n", err)
					return exitError
				}
				defer release()
				if _, err := deploy.CleanReceived(filepath.Dir(dir)); err != nil {
					fmt.Fprintf(stderr, "nodegen receive: %s\n", err)
					return exitError
				}
				bad, replaced, err := deploy.Receive(dir, os.Stdin, deploy.Known(filepath.Dir(dir), *gens))
				damaged(bad, replaced)
				if err != nil {
					fmt.Fprintf(stderr, "nodegen receive: %s\n", err)
					return exitError
				}
				return exitOK
			}
		},
	})
}
