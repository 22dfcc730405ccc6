package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/nodegen/nodegen/activate"
	"github.com/nodegen/nodegen/internal/regularfile"
)

// Exit codes of nodegen confirm.
const (
	// exitNotConfirmable: the generation does not wait for that token
	// (another one does, it was rolled back, the token is wrong).
	exitNotConfirmable = 3
)

// confirmLockWait bounds how long the rollback timer's command waits for
// another nodegen command (a switch still activating) to release the
// system.
const confirmLockWait = 30 * time.Minute

func init() {
	commands = append(commands, &command{
		name:    "confirm",
		summary: "Confirm a generation that a switch with --confirm-token-file armed a rollback timer for.",
		usage:   "nodegen confirm [--root DIR] GEN [TOKEN] | --show | --enforce",
		help: `A switch with --confirm-token-file arms a transient systemd timer that
activates the previous generation again unless this command comes, with
the same generation and token, before it fires. Without TOKEN, the token
is read from stdin (one line): in the command line, every local user can
read it, so nodegen deploy sends it on stdin. nodegen deploy runs it over a new SSH connection, as proof
that the new generation still lets the deployer in. Confirming again with
the same token succeeds; a generation that was rolled back, is not
active, or waits for another token exits 3.

The timer itself runs "nodegen confirm --expire GEN ATTEMPT": unless GEN
was confirmed, it activates the generation the switch came from. It waits
for a switch still running to finish first, and runs again when it is
killed. nodegen deploy runs it too, with --reason, when a health check or
an afterSwitch hook fails: the generation's mark (nodegen generations) and
the confirmation (nodegen status) then say that reason instead of "not
confirmed in time".

While a generation waits, the unit ` + activate.BootUnit + ` (in
/etc/systemd/system.control) runs "nodegen confirm --enforce" at every
boot: it completes a switch or rollback killed half way, rolls back when
the deadline passed while the host was down, and arms the timer again
for the rest of the wait when it did not. The unit is removed once the
generation is confirmed or rolled back.

--show prints the latest confirmation as JSON ({} when there is none),
without taking the system's lock: nodegen deploy reads it over a new
connection when its session was cut during the switch.`,
		example: "nodegen confirm 7 < token",
		flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
			root := rootFlag(fs)
			expire := fs.Bool("expire", false, "what the rollback timer runs: roll back unless GEN was confirmed (ATTEMPT in place of TOKEN)")
			show := fs.Bool("show", false, "print the latest confirmation (generation, state, the token's hash) as JSON, without waiting for a switch that runs")
			reason := fs.String("reason", "", "with --expire: why GEN is rolled back before its deadline (`TEXT`, one line: nodegen deploy's \"health check failed: ...\" or \"hook failed: ...\"), which its mark and the confirmation say in place of \"not confirmed in time\"")
			enforce := fs.Bool("enforce", false, "what the boot unit runs: roll back when the deadline of a waiting generation passed, else arm its timer again")
			return func(args []string, stdout, stderr io.Writer) int {
				c := findCommand("confirm")
				if *show || *enforce {
					if len(args) > 0 {
						return usageError(stderr, c, "--show and --enforce take no arguments")
					}
					if *enforce {
						return enforceConfirmation(*root, stdout, stderr)
					}
					return showConfirmation(*root, stdout, stderr)
				}
				switch {
				case *expire && len(args) != 2:
					return usageError(stderr, c, "--expire: want GEN ATTEMPT, got %d argument(s)", len(args))
				case *reason != "" && !*expire:
					return usageError(stderr, c, "--reason goes with --expire only")
				case strings.ContainsAny(*reason, "\n\r") || len(*reason) > maxReason:
					return usageError(stderr, c, "--reason: want one line of at most %d bytes", maxReason)
				case len(args) != 1 && len(args) != 2:
					return usageError(stderr, c, "want GEN (and the token on stdin), got %d argument(s)", len(args))
				}
				gen, err := strconv.Atoi(args[0])
				if err != nil || gen <= 0 {
					return usageError(stderr, c, "GEN %q: want a generation number", args[0])
				}
				if *expire {
					return expireConfirmation(*root, gen, args[1], *reason, stdout, stderr)
				}
				var token string
				if len(args) == 2 {
					token = args[1]
				} else if token, err = readToken(os.Stdin); err != nil {
					return usageError(stderr, c, "the token on stdin: %s", err)
				}
				return withSystem("confirm", *root, stdout, stderr, func(s *activate.System) int {
					cf, err := s.ConfirmConfirmation(gen, token)
					if errors.Is(err, activate.ErrNotConfirmable) {
						fmt.Fprintf(stderr, "nodegen confirm: %s\n", err)
						return exitNotConfirmable
					}
					if err != nil {
						fmt.Fprintf(stderr, "nodegen confirm: %s\n", err)
						return exitError
					}
					fmt.Fprintf(stdout, "generation %d is confirmed\n", cf.Generation)
					return exitOK
				})
			}
		},
	})
}

// maxReason bounds confirm --expire --reason: a line of a mark, not a
// journal.
const maxReason = 1000

// showConfirmation prints the latest confirmation as JSON. It reads the
// file as it is, written atomically, without the lock: a switch may hold
// it for minutes.
func showConfirmation(root string, stdout, stderr io.Writer) int {
	c, err := activate.ReadConfirmationAt(root)
	if err != nil {
		fmt.Fprintf(stderr, "nodegen confirm: %s\n", err)
		return exitError
	}
	if c == nil {
		fmt.Fprintln(stdout, "{}")
		return exitOK
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "nodegen confirm: %s\n", err)
		return exitError
	}
	stdout.Write(append(b, '\n'))
	return exitOK
}

// expireConfirmation is the rollback timer's command: it waits for the
// system's lock (a switch may still be activating), then rolls back unless
// gen was confirmed.
func expireConfirmation(root string, gen int, attempt, reason string, stdout, stderr io.Writer) int {
	return waitingForLock(root, stdout, stderr, func(s *activate.System, o activate.SwitchOptions) (*activate.Result, string, error) {
		return s.ExpireConfirmation(gen, attempt, reason, o)
	})
}

// enforceConfirmation is the boot unit's command: it waits for the
// system's lock, then rolls back a generation whose deadline passed, or
// arms its timer again.
func enforceConfirmation(root string, stdout, stderr io.Writer) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "nodegen confirm: %s\n", err)
		return exitError
	}
	return waitingForLock(root, stdout, stderr, func(s *activate.System, o activate.SwitchOptions) (*activate.Result, string, error) {
		return s.EnforceConfirmation(exe, o)
	})
}

// waitingForLock opens the system at root, waiting up to confirmLockWait
// for another nodegen command to release it, and runs rollback: a
// rollback, or nothing and why.
func waitingForLock(root string, stdout, stderr io.Writer, rollback func(*activate.System, activate.SwitchOptions) (*activate.Result, string, error)) int {
	deadline := time.Now().Add(confirmLockWait)
	for {
		s, err := activate.Open(activate.Options{Root: root, Log: stdout})
		if errors.Is(err, activate.ErrLocked) && time.Now().Before(deadline) {
			time.Sleep(500 * time.Millisecond)
			continue
		}
		if err != nil {
			fmt.Fprintf(stderr, "nodegen confirm: %s\n", err)
			return exitError
		}
		defer s.Close()
		o := activate.SwitchOptions{Checked: planPrinter("rollback", s, false, stdout)}
		res, why, err := rollback(s, o)
		if why != "" && err == nil {
			fmt.Fprintf(stdout, "nothing to roll back: %s\n", why)
			return exitOK
		}
		return report("rollback", res, err, false, stdout, stderr)
	}
}

// maxToken bounds the token read from stdin or a file.
const maxToken = 1024

// readToken reads a confirmation token: one line (its newline dropped), at
// most maxToken bytes.
func readToken(r io.Reader) (string, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxToken+1))
	if err != nil {
		return "", err
	}
	if len(data) > maxToken {
		return "", fmt.Errorf("longer than %d bytes", maxToken)
	}
	token, rest, _ := strings.Cut(string(data), "\n")
	token = strings.TrimSuffix(token, "\r")
	switch {
	case strings.TrimSpace(rest) != "":
		return "", errors.New("more than one line")
	case token == "":
		return "", errors.New("empty")
	}
	return token, nil
}

// readTokenFile reads the token of switch --confirm-token-file: stdin for
// "-", else a regular file that only its owner can read.
func readTokenFile(name string) (string, error) {
	if name == "-" {
		return readToken(os.Stdin)
	}
	// A path the operator gives: followed through links (a secret
	// manager's /run/secrets/NAME often is one); the file at the end must
	// be a regular file only its owner can read.
	f, fi, err := regularfile.Open(name, regularfile.FollowLinks)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if fi.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("%s can be read by others than its owner (mode %04o): chmod 600 it", name, fi.Mode().Perm())
	}
	return readToken(f)
}

// confirmFlags are switch's flags for a generation that must be confirmed.
type confirmFlags struct {
	file    string
	timeout time.Duration
	// token is --confirm-token, or what file held once check read it.
	token string
}

func (f *confirmFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&f.file, "confirm-token-file", "", "make the new generation wait for \"nodegen confirm GEN\" with the token in `FILE` (- for stdin; at least 16 characters, a file only its owner reads), and roll back without it")
	fs.StringVar(&f.token, "confirm-token", "", "--confirm-token-file with the `TOKEN` in the command line, where every local user can read it: for tests and hosts without other users")
	fs.DurationVar(&f.timeout, "confirm-timeout", 30*time.Second, "with --confirm-token-file: how long after the activation the confirmation may take")
}

// check reads the token of --confirm-token-file: nodegen deploy sends it
// on stdin, never in argv, where every local user could read it.
func (f *confirmFlags) check(c *command, stderr io.Writer) int {
	switch {
	case f.file != "" && f.token != "":
		return usageError(stderr, c, "--confirm-token and --confirm-token-file: want one of them")
	case f.file != "":
		token, err := readTokenFile(f.file)
		if err != nil {
			return usageError(stderr, c, "--confirm-token-file %s: %s", f.file, err)
		}
		f.token = token
	case f.token == "":
		return exitOK
	}
	switch {
	case len(f.token) < 16:
		return usageError(stderr, c, "the confirmation token needs at least 16 characters")
	case f.timeout < time.Second:
		return usageError(stderr, c, "--confirm-timeout %s: want at least 1s", f.timeout)
	}
	return exitOK
}

// switchConfirmed is a switch whose generation must be confirmed: the
// rollback timer is armed before anything changes, for the activation and
// the confirmation both; once the generation is active it is armed anew
// for the confirmation alone. When the switch went back by itself, the
// timer is stopped.
func switchConfirmed(s *activate.System, dir string, o activate.SwitchOptions, cf *confirmFlags, stdout, stderr io.Writer) int {
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "nodegen switch: %s\n", err)
		return exitError
	}
	// The deployer's session may end while the switch runs (a restarted
	// sshd, a lost network): the switch finishes all the same, and the
	// timer decides.
	signal.Ignore(syscall.SIGHUP, syscall.SIGPIPE)
	jobTimeout := o.JobTimeout
	if jobTimeout <= 0 {
		jobTimeout = 90 * time.Second
	}
	gen := 0
	o.BeforeChange = func(p *activate.Plan) error {
		gen = p.To
		// The activation waits for each stage's jobs; twice the job
		// timeout covers the stops and the starts.
		_, err := s.ArmConfirmation(p.To, p.From, cf.token, 2*jobTimeout+cf.timeout, activate.ConfirmActivating, exe)
		return err
	}
	res, err := s.Switch(dir, o)
	code := report("switch", res, err, false, stdout, stderr)
	if gen == 0 {
		return code // refused before anything changed: nothing was armed
	}
	active := 0
	if gens, gerr := s.Generations(); gerr == nil {
		for _, g := range gens {
			if g.Current {
				active = g.Number
			}
		}
	}
	if active != gen {
		if derr := s.DisarmConfirmation(gen); derr != nil {
			fmt.Fprintf(stderr, "nodegen switch: stopping the rollback timer: %s\n", derr)
		}
		return code
	}
	c, aerr := s.ArmConfirmation(gen, gen, cf.token, cf.timeout, activate.ConfirmWaiting, exe)
	if aerr != nil {
		fmt.Fprintf(stderr, "nodegen switch: arming the rollback timer for the confirmation: %s (the timer armed before the activation stays)\n", aerr)
		return exitError
	}
	if c.From == gen {
		fmt.Fprintf(stdout, "waiting for confirmation: generation %d (nothing to roll back to)\n", gen)
	} else {
		fmt.Fprintf(stdout, "waiting for confirmation: generation %d until %s, else %s is activated again\n", gen, c.Deadline, genName(c.From))
	}
	return code
}
