package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"
	"oras.land/oras-go/v2/registry/remote"

	"github.com/nodegen/nodegen/activate"
	"github.com/nodegen/nodegen/ociprofile"
	"github.com/nodegen/nodegen/pull"
)

// Exit codes of nodegen pull (beside deploy's 10, 14, 15 and 16, which
// mean the same for the host's switch).
const (
	exitPullUnreachable = 20 // the registry did not answer or has no such tag: nothing changed
	exitPullUntrusted   = 21 // a signature, host name or blob did not verify: nothing changed
	exitPullReplayed    = 22 // the serial is not greater than the one applied: nothing changed
	exitPullExpired     = 23 // the manifest expired: nothing changed
	exitPullInvalid     = 24 // the profile is invalid, or the host could not take it: nothing changed
)

var pullExitCodes = map[pull.Code]int{
	pull.Unreachable: exitPullUnreachable,
	pull.Untrusted:   exitPullUntrusted,
	pull.Replayed:    exitPullReplayed,
	pull.Expired:     exitPullExpired,
	pull.Invalid:     exitPullInvalid,
}

func init() {
	commands = append(commands, &command{
		name:    "pull",
		summary: "Fetch this host's signed profile from an OCI registry and switch to it, confirmed by its health checks.",
		usage:   "nodegen pull [--root DIR] [--registry REF] [--channel NAME] [--host NAME] [--plain-http] [--trusted-key FILE]...",
		help: `Run on the host, by the timer of services.nodegen.pull (or by hand). The
registry, channel, host name, trusted keys and health checks are those of
the running generation (/etc/nodegen/pull.json, which
services.nodegen.pull writes); the flags set them on a host that has
none yet. It fetches the manifest tagged HOST_CHANNEL (nodegen publish),
verifies its signature against the trusted keys, refuses one signed for
another host, one whose serial is not greater than the highest this
host applied (a replay), and an expired one; fetches only the file
contents the host has no copy of, checked against the signed profile;
and switches to the profile with a rollback timer, as nodegen deploy's
switch does. With the new generation active, the health checks of the
new profile run here: when they pass the host confirms the generation
itself, else it goes back at once (and the timer would, had the pull
died). Nothing changes when anything fails before the switch: a registry
that is down leaves the host running what it runs.

The outcome and the last error are kept in /var/lib/nodegen/pull/state.json
and shown by nodegen status.

Exit codes: 0 applied, or up to date; 20 the registry did not answer (or
has no such tag); 21 the signature, host name or a blob did not verify;
22 the serial is not greater than the applied one; 23 the manifest
expired; 24 the profile is invalid or the host could not take it; 10 the
activation failed and went back; 14 the switch refused before changing
anything; 15 another nodegen command held the lock; 16 a health check
failed and the host went back. docs/pulling.md explains it all.`,
		example: "nodegen pull\nnodegen pull --registry registry.example.org/fleet --channel canary --host web1 --trusted-key /etc/nodegen/publish.pub",
		flags:   pullCommand,
	})
}

func pullCommand(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
	root := rootFlag(fs)
	registry := fs.String("registry", "", "the fleet's repository, `HOST[:PORT]/NAME` (default: the running generation's services.nodegen.pull.registry)")
	channel := fs.String("channel", "", "the channel to follow, `NAME` (default: the running generation's)")
	host := fs.String("host", "", "this host's `NAME` in the tags (default: the running generation's)")
	plainHTTP := fs.Bool("plain-http", false, "talk to the registry over HTTP, not HTTPS")
	keyFiles := fs.StringArray("trusted-key", nil, "also trust the ed25519 public key in `FILE` (PEM): for a host whose running generation trusts none yet")
	return func(args []string, stdout, stderr io.Writer) int {
		c := findCommand("pull")
		if len(args) > 0 {
			return usageError(stderr, c, "unexpected argument %q", args[0])
		}
		rootDir := *root
		if rootDir == "" {
			rootDir = "/"
		}
		current := filepath.Join(rootDir, "var/lib/nodegen/current")
		cfg, err := pull.ReadConfig(current)
		if err != nil {
			fmt.Fprintf(stderr, "nodegen pull: the running generation's pull configuration: %s\n", err)
			return exitPullInvalid
		}
		if cfg == nil {
			cfg = &pull.Config{}
		}
		keys, err := cfg.Keys(filepath.Join(current, pull.ConfigPath))
		if err != nil {
			fmt.Fprintf(stderr, "nodegen pull: %s\n", err)
			return exitPullInvalid
		}
		for _, f := range *keyFiles {
			data, err := os.ReadFile(f)
			if err != nil {
				return usageError(stderr, c, "--trusted-key: %s", err)
			}
			k, err := ociprofile.ParsePublicKey(data, f)
			if err != nil {
				return usageError(stderr, c, "--trusted-key: %s", err)
			}
			keys = append(keys, k)
		}
		if fs.Changed("registry") {
			cfg.Registry = *registry
		}
		if fs.Changed("channel") {
			cfg.Channel = *channel
		}
		if fs.Changed("host") {
			cfg.Host = *host
		}
		if fs.Changed("plain-http") {
			cfg.PlainHTTP = *plainHTTP
		}
		switch {
		case cfg.Registry == "":
			return usageError(stderr, c, "no registry: the running generation sets no services.nodegen.pull.registry, and --registry is not given")
		case cfg.Channel == "":
			return usageError(stderr, c, "no channel: the running generation sets no services.nodegen.pull.channel, and --channel is not given")
		case cfg.Host == "":
			return usageError(stderr, c, "no host name: the running generation sets no services.nodegen.pull.host, and --host is not given")
		}
		if err := ociprofile.CheckChannel(cfg.Channel); err != nil {
			return usageError(stderr, c, "%s", err)
		}
		return runPull(rootDir, *root, cfg, keys, stdout, stderr)
	}
}

// runPull fetches and applies one pull, and records its outcome.
func runPull(rootDir, rootFlagValue string, cfg *pull.Config, keys []ed25519.PublicKey, stdout, stderr io.Writer) int {
	state, err := pull.ReadState(rootDir)
	if err != nil {
		fmt.Fprintf(stderr, "nodegen pull: %s: %s\n", pull.StatePath, err)
		return exitError
	}
	now := time.Now()
	state.LastPull = now.UTC().Format(time.RFC3339)
	record := func(code int, msg string) int {
		state.Code, state.LastError = code, msg
		if code == exitOK {
			state.LastSuccess = state.LastPull
		}
		if err := pull.WriteState(rootDir, state); err != nil {
			fmt.Fprintf(stderr, "nodegen pull: writing %s: %s\n", pull.StatePath, err)
		}
		return code
	}
	repo, err := remote.NewRepository(cfg.Registry)
	if err != nil {
		fmt.Fprintf(stderr, "nodegen pull: registry %q: %s\n", cfg.Registry, err)
		return record(exitUsage, err.Error())
	}
	repo.PlainHTTP = cfg.PlainHTTP
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	f, err := pull.Fetch(ctx, pull.Request{Root: rootDir, Repo: repo, Registry: cfg.Registry, Host: cfg.Host, Channel: cfg.Channel, Keys: keys, State: state, Now: now})
	var perr *pull.Error
	if errors.As(err, &perr) {
		code := pullExitCodes[perr.Code]
		msg := perr.Error()
		if perr.Code == pull.Unreachable {
			msg += " (nothing changed: the host runs what it ran)"
		} else {
			msg += " (nothing changed)"
		}
		fmt.Fprintf(stderr, "nodegen pull: %s\n", msg)
		return record(code, msg)
	}
	if err != nil {
		fmt.Fprintf(stderr, "nodegen pull: %s\n", err)
		return record(exitError, err.Error())
	}
	if f.UpToDate {
		fmt.Fprintf(stdout, "up to date: %s serial %d (%s, generation %d)\n", f.Tag, f.Statement.Serial, state.Outcome, state.Generation)
		return record(exitOK, "")
	}
	fmt.Fprintf(stdout, "fetched %s serial %d (%s): %d file content(s) the host lacked, %d bytes\n", f.Tag, f.Statement.Serial, f.Manifest, f.Blobs, f.Bytes)
	newCfg, err := pull.ReadConfig(f.Dir)
	if err != nil {
		fmt.Fprintf(stderr, "nodegen pull: %s\n", err)
		return record(exitPullInvalid, err.Error())
	}
	if newCfg == nil {
		newCfg = &pull.Config{}
	}
	code := exitOK
	msg := ""
	gen := 0
	outcome := ""
	openCode := openSystem("pull", rootFlagValue, true, stdout, stderr, func(s *activate.System) int {
		gen, outcome, code, msg = pullSwitch(s, f.Dir, newCfg, stdout, stderr)
		return code
	})
	if gen == 0 && code == exitOK {
		// The system could not be opened (its lock held, ...).
		return record(openCode, "the switch could not begin")
	}
	if gen == 0 && msg == "" {
		msg = "the switch refused before changing anything"
	}
	if gen != 0 {
		// Applied, confirmed or not: this serial is not tried again.
		state.Serial, state.Manifest, state.Tag, state.Generation, state.Outcome = f.Statement.Serial, string(f.Manifest), f.Tag, gen, outcome
	}
	return record(code, msg)
}

// pullSwitch switches s to the profile in dir with a rollback timer (on a
// live system), runs the new profile's health checks, and confirms the
// generation or goes back. It returns the generation made (0: none), its
// outcome ("confirmed", "rolled back"), the exit code and the error's
// message.
func pullSwitch(s *activate.System, dir string, cfg *pull.Config, stdout, stderr io.Writer) (gen int, outcome string, code int, msg string) {
	o := activate.SwitchOptions{RollbackOnFailure: true, Checked: planPrinter("pull", s, false, stdout)}
	from := -1
	var token string
	if s.Live() {
		b := make([]byte, 24)
		rand.Read(b)
		token = hex.EncodeToString(b)
		cf := &confirmFlags{token: token, timeout: time.Duration(cfg.ChecksWindow()) * time.Second}
		code = switchConfirmed(s, dir, o, cf, stdout, stderr)
		// The confirmation of this attempt, known by its token's hash,
		// says which generation it made.
		sum := sha256.Sum256([]byte(token))
		if c, err := s.ReadConfirmation(); err == nil && c != nil && c.TokenHash == hex.EncodeToString(sum[:]) {
			gen, from = c.Generation, c.From
		}
	} else {
		o.BeforeChange = func(p *activate.Plan) error { from, gen = p.From, p.To; return nil }
		res, err := s.Switch(dir, o)
		code = report("pull", res, err, false, stdout, stderr)
		if err == nil && res != nil && res.Unchanged {
			gen = res.Generation
		}
	}
	if gen == 0 && code == exitOK {
		// The profile is the active generation's already.
		if gens, err := s.Generations(); err == nil {
			for _, g := range gens {
				if g.Current {
					return g.Number, "confirmed", exitOK, ""
				}
			}
		}
	}
	if gen == 0 {
		return 0, "", code, "the switch refused before changing anything"
	}
	if code != exitOK {
		return gen, "rolled back", exitActivationFailed, fmt.Sprintf("the activation of generation %d failed and went back", gen)
	}
	ctx := context.Background()
	if herr := pull.RunHealthChecks(ctx, cfg.HealthChecks, stderr); herr != nil {
		fmt.Fprintf(stderr, "nodegen pull: %s: going back\n", herr)
		if s.Live() {
			sum := sha256.Sum256([]byte(token))
			if _, _, err := s.ExpireConfirmation(gen, hex.EncodeToString(sum[:])[:16], "health check failed: "+herr.Error(), activate.SwitchOptions{Checked: planPrinter("rollback", s, false, stdout)}); err != nil {
				fmt.Fprintf(stderr, "nodegen pull: going back at once: %s (the rollback timer goes back)\n", err)
			}
		} else {
			var err error
			ro := activate.SwitchOptions{Checked: planPrinter("rollback", s, false, stdout)}
			if from > 0 {
				_, err = s.Rollback(from, ro)
			} else {
				_, err = s.Deactivate(ro)
			}
			if err != nil {
				fmt.Fprintf(stderr, "nodegen pull: going back: %s\n", err)
			}
		}
		return gen, "rolled back", exitUnhealthy, herr.Error() + "; rolled back"
	}
	if s.Live() {
		if _, err := s.ConfirmConfirmation(gen, token); err != nil {
			fmt.Fprintf(stderr, "nodegen pull: confirming generation %d: %s (the rollback timer goes back)\n", gen, err)
			return gen, "rolled back", exitRolledBack, err.Error()
		}
	}
	fmt.Fprintf(stdout, "generation %d is confirmed\n", gen)
	return gen, "confirmed", exitOK, ""
}
