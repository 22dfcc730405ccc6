package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/nodegen/nodegen/activate"
	"github.com/nodegen/nodegen/pull"
)

func init() {
	commands = append(commands, &command{
		name:    "status",
		summary: "Show the active generation, a pending activation, drifted files and failed units.",
		usage:   "nodegen status [--root DIR] [--json]",
		help: `Reads, and changes nothing: the active generation; an activation that was
interrupted or failed and is still pending; every file nodegen placed that
is no longer as it placed it (changed by someone, or missing); the units
in the failed state (on a running systemd); and the last activation that
failed at a step. A drifted file stops a switch that would replace it:
switch --take-over PATH replaces it on purpose, keeping the changed file
under /var/lib/nodegen/taken-over.`,
		example: "nodegen status\nnodegen status --json",
		flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
			root := rootFlag(fs)
			asJSON := fs.Bool("json", false, "print the status as JSON")
			return func(args []string, stdout, stderr io.Writer) int {
				if len(args) > 0 {
					return usageError(stderr, findCommand("status"), "unexpected argument %q", args[0])
				}
				return withSystem("status", *root, stdout, stderr, func(s *activate.System) int {
					st, err := s.Status()
					if err != nil {
						fmt.Fprintf(stderr, "nodegen status: %s\n", err)
						return exitError
					}
					rootDir := *root
					if rootDir == "" {
						rootDir = "/"
					}
					var ps *pull.State
					if p, err := pull.ReadState(rootDir); err == nil && p.LastPull != "" {
						ps = &p
					}
					if *asJSON {
						b, err := json.MarshalIndent(struct {
							*activate.Status
							Pull *pull.State `json:"pull,omitempty"`
						}{st, ps}, "", "  ")
						if err != nil {
							fmt.Fprintf(stderr, "nodegen status: %s\n", err)
							return exitError
						}
						stdout.Write(append(b, '\n'))
						return exitOK
					}
					printStatus(stdout, st)
					printPullStatus(stdout, ps)
					return exitOK
				})
			}
		},
	})
}

func printStatus(w io.Writer, st *activate.Status) {
	if g := st.Generation; g != nil {
		host := g.HostName
		if host == "" {
			host = "-"
		}
		fmt.Fprintf(w, "active: generation %d (%s, host %s, profile %s)\n", g.Number, g.Date, host, g.ProfileHash[:12])
		if g.Mark != nil {
			fmt.Fprintf(w, "  its last activation: %s\n", g.Mark.Describe())
		}
	} else {
		fmt.Fprintln(w, "active: none")
	}
	switch j := st.Pending; {
	case j == nil:
		fmt.Fprintln(w, "pending: nothing")
	case j.Failed != nil:
		fmt.Fprintf(w, "pending: %s; the next switch, rollback or deactivate activates its own generation around it\n", j.Failed.Describe())
	default:
		fmt.Fprintf(w, "pending: the activation of %s (from %s) was interrupted; the next switch, rollback, deactivate or gc completes it\n", genName(j.To), genName(j.From))
	}
	if len(st.Drifted) == 0 {
		fmt.Fprintln(w, "drifted: nothing")
	} else {
		fmt.Fprintf(w, "drifted: %d path(s) not as nodegen placed them:\n", len(st.Drifted))
		for _, d := range st.Drifted {
			from := ""
			if d.Option != "" {
				from = " (from " + d.Option + ")"
			}
			fmt.Fprintf(w, "  %s%s: %s\n", d.Path, from, d.Now)
		}
		fmt.Fprintln(w, "  (a switch that replaces a changed file refuses; switch --take-over PATH replaces it, keeping it under /var/lib/nodegen/taken-over; a missing one is put back by the next switch)")
		for _, d := range st.Drifted {
			if d.Hint != "" {
				fmt.Fprintf(w, "  (%s was edited in the generation itself: %s)\n", d.Path, d.Hint)
			}
		}
	}
	switch {
	case !st.Live:
		fmt.Fprintln(w, "failed units: not read (systemd is not running for this root)")
	case len(st.FailedUnits) == 0:
		fmt.Fprintln(w, "failed units: none")
	default:
		fmt.Fprintf(w, "failed units: %s\n", strings.Join(st.FailedUnits, " "))
	}
	if f := st.LastFailure; f != nil {
		fmt.Fprintf(w, "last failure: %s: %s\n", f.Date, f.Describe())
	}
	if c := st.Confirmation; c != nil && c.From != c.Generation {
		switch c.State {
		case activate.ConfirmActivating, activate.ConfirmWaiting:
			fmt.Fprintf(w, "confirmation: generation %d waits for nodegen confirm until %s, else %s is activated again\n", c.Generation, c.Deadline, genName(c.From))
		case activate.ConfirmRolledBack:
			if c.Reason != "" {
				fmt.Fprintf(w, "confirmation: generation %d was rolled back (%s): %s\n", c.Generation, c.Date, c.Reason)
			} else {
				fmt.Fprintf(w, "confirmation: generation %d was not confirmed and was rolled back (%s)\n", c.Generation, c.Date)
			}
		}
	}
}

// printPullStatus prints what nodegen pull did last, if it ever ran.
func printPullStatus(w io.Writer, ps *pull.State) {
	if ps == nil {
		return
	}
	if ps.Serial != 0 {
		fmt.Fprintf(w, "pull: serial %d of %s, generation %d, %s\n", ps.Serial, ps.Tag, ps.Generation, ps.Outcome)
	} else {
		fmt.Fprintln(w, "pull: nothing applied yet")
	}
	fmt.Fprintf(w, "  last pull: %s", ps.LastPull)
	if ps.LastSuccess != "" {
		fmt.Fprintf(w, " (last success: %s)", ps.LastSuccess)
	}
	fmt.Fprintln(w)
	if ps.LastError != "" {
		fmt.Fprintf(w, "  last error (exit %d): %s\n", ps.Code, ps.LastError)
	}
}
