package activate

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// This file holds the rollback that lives on the host: a switch that must
// be confirmed arms a transient systemd timer before it activates, and
// the timer rolls the host back unless `nodegen confirm GEN TOKEN` comes
// in time. The deployer confirms over a new connection, so a generation
// that locks it out (sshd stopped, moved, firewalled) is rolled back by the
// host itself, whatever happens to the deployer or its session.

// confirmFile holds the confirmation that a switch waits for.
const confirmFile = stateDir + "/confirm.json"

// The states of a Confirmation.
const (
	// ConfirmActivating: the switch armed the timer and is activating.
	ConfirmActivating = "activating"
	// ConfirmWaiting: the generation is active and waits for its token.
	ConfirmWaiting = "waiting"
	// ConfirmConfirmed: the token came in time; the timer is stopped.
	ConfirmConfirmed = "confirmed"
	// ConfirmRolledBack: the timer expired and From is active again (or
	// the switch itself went back).
	ConfirmRolledBack = "rolled-back"
)

// Confirmation is the state of the latest switch that had to be
// confirmed, kept in var/lib/nodegen/confirm.json (readable by root only).
type Confirmation struct {
	// Generation is the generation that waits, From the one the timer
	// rolls back to (0: deactivate; Generation itself: nothing to go back
	// to, as when the profile was already active and confirmed).
	Generation int `json:"generation"`
	From       int `json:"from"`
	// TokenHash is the SHA-256 of the attempt's token, in hex.
	TokenHash string `json:"tokenHash"`
	// State is one of the Confirm* constants.
	State string `json:"state"`
	// Timers are the transient timer units armed for this attempt.
	Timers []string `json:"timers,omitempty"`
	// Deadline is when the newest timer fires (RFC 3339, UTC).
	Deadline string `json:"deadline,omitempty"`
	// Date is when State was last set (RFC 3339, UTC).
	Date string `json:"date"`
	// Reason says why the generation was rolled back when it was not
	// for its deadline: the deployer rolled it back at once ("health
	// check failed: ...", "hook failed: ..."). Empty otherwise.
	Reason string `json:"reason,omitempty"`
}

// RolledBackWhy says why a rolled-back confirmation's generation was
// rolled back: its Reason, else that it was not confirmed in time.
func (c *Confirmation) RolledBackWhy() string {
	if c.Reason != "" {
		return c.Reason
	}
	return fmt.Sprintf("not confirmed in time (the switch's deadline was %s)", c.Deadline)
}

// Attempt names the attempt in the timer's command line: the start of the
// token's hash, which says nothing of the token.
func (c *Confirmation) Attempt() string { return c.TokenHash[:16] }

// ErrNotConfirmable is a confirmation that cannot be given: another
// generation waits, the token is wrong, or the wait is over.
var ErrNotConfirmable = errors.New("not confirmable")

// ReadConfirmation returns the latest confirmation, or nil when no switch
// ever waited for one.
func (s *System) ReadConfirmation() (*Confirmation, error) {
	data, err := s.readFile(confirmFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var c Confirmation
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%s: %w", s.show(confirmFile), err)
	}
	if len(c.TokenHash) != 64 {
		return nil, fmt.Errorf("%s: no token hash", s.show(confirmFile))
	}
	return &c, nil
}

// ReadConfirmationAt is ReadConfirmation of the system at root without
// opening it: without its lock, which a running switch holds. The file is
// replaced atomically, so it is read whole, old or new.
func ReadConfirmationAt(root string) (*Confirmation, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	s := &System{r: r, shown: filepath.Clean(root)}
	return s.ReadConfirmation()
}

func (s *System) writeConfirmation(c *Confirmation) error {
	c.Date = s.now().UTC().Format(time.RFC3339)
	return s.writeJSON(confirmFile, c, 0o600)
}

// tokenHash is the hex SHA-256 of a token.
func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// ArmConfirmation makes generation gen wait for token before the switch
// that activates it from generation from: it records the attempt and arms
// a timer that rolls back to from after within unless ConfirmConfirmation
// comes first. Called again for the same attempt (once the activation is
// done, with a shorter wait), it arms a new timer and only then stops the
// older ones, so that a timer is armed at every moment. When gen is
// already active and was confirmed (or never waited), from is gen and no
// timer is armed: there is nothing to go back to, and the token only
// proves that the deployer still gets in. exe is the nodegen executable
// the timer runs.
func (s *System) ArmConfirmation(gen, from int, token string, within time.Duration, state, exe string) (*Confirmation, error) {
	if !s.Live() {
		return nil, fmt.Errorf("a confirmation needs systemd running on %s (a rollback timer), and %s has none", s.rootName(), s.rootName())
	}
	if len(token) < 16 {
		return nil, errors.New("the confirmation token must have at least 16 characters")
	}
	prev, err := s.ReadConfirmation()
	if err != nil {
		return nil, err
	}
	c := &Confirmation{Generation: gen, From: from, TokenHash: tokenHash(token), State: state}
	var older []string
	if prev != nil && (prev.State == ConfirmActivating || prev.State == ConfirmWaiting) {
		older = prev.Timers
		// An earlier attempt at this generation, or at the one this
		// switch comes from, was not confirmed: this one rolls back to
		// where that one would have.
		if prev.Generation == gen || prev.Generation == from {
			c.From = prev.From
		}
		if prev.Generation == gen && prev.TokenHash == c.TokenHash {
			// The timers of this attempt go on being counted, so that a
			// new one never has the name of one still loaded.
			c.Timers = prev.Timers
		}
	}
	if c.From != gen {
		// The boot unit first: from the moment a timer is armed, a
		// reboot must not end the wait without a rollback.
		if err := s.installBootUnit(exe); err != nil {
			return nil, err
		}
		timer := nextTimer(c)
		at := s.now().Add(within)
		if err := armTimer(timer, within, exe, gen, c.Attempt()); err != nil {
			return nil, err
		}
		c.Timers = []string{timer}
		c.Deadline = at.UTC().Format(time.RFC3339)
	} else {
		c.Timers = nil
	}
	if err := s.writeConfirmation(c); err != nil {
		stopTimers(c.Timers)
		return nil, err
	}
	var stale []string
	for _, t := range older {
		if !slices.Contains(c.Timers, t) {
			stale = append(stale, t)
		}
	}
	stopTimers(stale)
	if c.From == gen {
		if err := s.removeBootUnit(); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// DisarmConfirmation ends the wait of generation gen after its switch went
// back by itself: its timers are stopped, and the confirmation says
// rolled back.
func (s *System) DisarmConfirmation(gen int) error {
	c, err := s.ReadConfirmation()
	if err != nil || c == nil || c.Generation != gen {
		return err
	}
	stopTimers(c.Timers)
	c.State, c.Timers = ConfirmRolledBack, nil
	if err := s.writeConfirmation(c); err != nil {
		return err
	}
	return s.removeBootUnit()
}

// ConfirmConfirmation confirms generation gen with the attempt's token:
// its timers are stopped and it stays. It fails with ErrNotConfirmable
// when gen does not wait (another generation does, it was rolled back, it
// is not active) or the token is not the attempt's. Confirming again with
// the same token succeeds.
func (s *System) ConfirmConfirmation(gen int, token string) (*Confirmation, error) {
	c, err := s.ReadConfirmation()
	if err != nil {
		return nil, err
	}
	if c == nil || c.Generation != gen {
		return nil, fmt.Errorf("%w: generation %d does not wait for a confirmation", ErrNotConfirmable, gen)
	}
	if subtle.ConstantTimeCompare([]byte(c.TokenHash), []byte(tokenHash(token))) != 1 {
		return nil, fmt.Errorf("%w: that is not the token of generation %d's switch", ErrNotConfirmable, gen)
	}
	switch c.State {
	case ConfirmConfirmed:
		return c, nil
	case ConfirmRolledBack:
		if c.Reason != "" {
			return nil, fmt.Errorf("%w: generation %d was rolled back (%s): %s", ErrNotConfirmable, gen, c.Date, c.Reason)
		}
		return nil, fmt.Errorf("%w: generation %d was not confirmed in time and was rolled back (%s)", ErrNotConfirmable, gen, c.Date)
	case ConfirmActivating:
		return nil, fmt.Errorf("%w: generation %d is still being activated", ErrNotConfirmable, gen)
	}
	st, err := s.readState()
	if err != nil {
		return nil, err
	}
	if st.Generation != gen {
		return nil, fmt.Errorf("%w: generation %d is not active (%s is)", ErrNotConfirmable, gen, generationName(st.Generation))
	}
	// Stopped first: a timer that fires now finds the system locked, waits,
	// and then finds the generation confirmed.
	stopTimers(c.Timers)
	c.State, c.Timers, c.Deadline = ConfirmConfirmed, nil, ""
	if err := s.writeConfirmation(c); err != nil {
		return nil, err
	}
	if err := s.removeBootUnit(); err != nil {
		return nil, err
	}
	return c, nil
}

// ExpireConfirmation is what the rollback timer of attempt runs: unless
// generation gen was confirmed in time, it activates the generation the
// switch came from (deactivates, when it came from none). It does nothing,
// and says so, when the attempt is not the latest, was confirmed, or gen
// is no longer active. An activation that was killed half way is
// completed first, as by every command that changes the system. reason,
// when not empty, is why the deployer rolls gen back before its deadline
// (a health check or hook that failed): the generation's mark and the
// confirmation say it instead of "not confirmed in time".
func (s *System) ExpireConfirmation(gen int, attempt, reason string, o SwitchOptions) (res *Result, why string, err error) {
	c, err := s.ReadConfirmation()
	if err != nil {
		return nil, "", err
	}
	switch {
	case c == nil || c.Generation != gen || c.Attempt() != attempt:
		return nil, "another switch's confirmation is the latest", nil
	case c.State == ConfirmConfirmed:
		return nil, fmt.Sprintf("generation %d was confirmed", gen), nil
	case c.State == ConfirmRolledBack:
		return nil, fmt.Sprintf("generation %d was rolled back already", gen), nil
	case c.From == gen:
		return nil, "there is no generation to go back to", nil
	}
	if _, _, err := s.Recover(); err != nil {
		return nil, "", err
	}
	st, err := s.readState()
	if err != nil {
		return nil, "", err
	}
	if st.Generation != gen {
		// From is active: a rollback of this attempt that was killed
		// half way, which Recover just completed; the generation is
		// marked as the rollback would have.
		c.Reason = reason
		if st.Generation == c.From && st.markOf(gen) == nil {
			if err := s.setMark(gen, MarkRolledBack, c.RolledBackWhy()); err != nil {
				return nil, "", err
			}
		}
		c.State, c.Timers = ConfirmRolledBack, nil
		if err := s.writeConfirmation(c); err != nil {
			return nil, "", err
		}
		return nil, fmt.Sprintf("generation %d is not active (%s is)", gen, generationName(st.Generation)), s.removeBootUnit()
	}
	c.Reason = reason
	if reason != "" {
		s.logf("generation %d is rolled back (%s): activating %s again", gen, reason, generationName(c.From))
	} else {
		s.logf("generation %d was not confirmed in time: activating %s again", gen, generationName(c.From))
	}
	if c.From == 0 {
		res, err = s.Deactivate(o)
	} else {
		res, err = s.Rollback(c.From, o)
	}
	// The timers are transient and have fired; the state says what
	// happened even when the rollback failed, so that no confirmation
	// comes through afterwards.
	// The mark first: once the confirmation says rolled back, the
	// generation is marked.
	kind, why := MarkRolledBack, c.RolledBackWhy()
	if err != nil {
		kind, why = MarkFailed, why+"; going back failed"
	}
	merr := s.setMark(gen, kind, why)
	c.State, c.Timers = ConfirmRolledBack, nil
	werr := s.writeConfirmation(c)
	if werr == nil {
		werr = s.removeBootUnit()
	}
	if werr != nil && err == nil {
		err = werr
	}
	if merr != nil && err == nil {
		err = merr
	}
	return res, "", err
}

func generationName(n int) string {
	if n == 0 {
		return "no generation"
	}
	return fmt.Sprintf("generation %d", n)
}

// armTimer starts the transient timer unit NAME.timer, which runs
// `EXE confirm --expire GEN ATTEMPT` once after within.
func armTimer(name string, within time.Duration, exe string, gen int, attempt string) error {
	secs := int64((within + time.Second - 1) / time.Second)
	args := []string{"systemd-run", "--quiet", "--collect", "--unit=" + name,
		fmt.Sprintf("--on-active=%ds", secs), "--timer-property=AccuracySec=1s",
		"--description=nodegen: roll back generation " + fmt.Sprint(gen) + " unless it is confirmed",
		// Type=exec, not oneshot: the start job ends once the command
		// runs, so the rollback's wait for the jobs it queued does not
		// wait for its own. A run killed by a signal runs again.
		"--property=Type=exec", "--property=Restart=on-abnormal", "--property=RestartSec=1s",
		"--", exe, "confirm", "--expire", fmt.Sprint(gen), attempt}
	out, err := timerCommand(30*time.Second, args...)
	if err != nil {
		return fmt.Errorf("arming the rollback timer: %s: %v", strings.TrimSpace(out), err)
	}
	return nil
}

// stopTimers stops transient timer units (names without .timer); a
// timer that is gone already is no error.
func stopTimers(names []string) {
	if len(names) == 0 {
		return
	}
	args := []string{"systemctl", "stop", "--"}
	for _, n := range names {
		args = append(args, n+".timer")
	}
	timerCommand(30*time.Second, args...)
}

// timerCommand runs the commands that arm and stop the timers (a test
// records them instead).
var timerCommand = runBounded

// runBounded runs a command, at most timeout, and returns its combined
// output.
func runBounded(timeout time.Duration, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, args[0], args[1:]...).CombinedOutput()
	return string(out), err
}
