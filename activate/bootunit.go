package activate

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"time"
)

// This file holds what makes the rollback promise survive a reboot. The
// transient timers that ArmConfirmation starts live in /run and are gone
// after a restart; the deadline in confirm.json is not. While a
// confirmation waits, a unit in /etc/systemd/system.control (the
// directory systemd keeps for units that programs, not the
// administrator, write) runs `nodegen confirm --enforce` at every boot:
// a deadline passed while the host was down rolls back, one still ahead
// is armed again, and a switch or rollback killed half way is completed.

// BootUnit is the name of the unit that enforces a confirmation's
// deadline at boot.
const BootUnit = "nodegen-confirm.service"

// The unit and the link that makes multi-user.target want it.
const (
	bootUnitDir  = "etc/systemd/system.control"
	bootUnitFile = bootUnitDir + "/" + BootUnit
	bootUnitWant = bootUnitDir + "/multi-user.target.wants/" + BootUnit
)

// bootUnitText is the boot unit for the nodegen executable exe. It is
// Type=exec and ordered before nothing: the rollback it runs waits for
// the boot's jobs to end, which must not wait for it. A run killed by a
// signal is started again (Restart=on-abnormal), and the run goes on with
// what the killed one left.
func bootUnitText(exe string) string {
	return fmt.Sprintf(`# Written by nodegen while a generation waits for its confirmation;
# removed once it is confirmed or rolled back.
[Unit]
Description=nodegen: enforce the confirmation deadline of a switch
ConditionPathExists=/%s
After=local-fs.target

[Service]
Type=exec
ExecStart=%s confirm --enforce
Restart=on-abnormal
RestartSec=1s
`, confirmFile, systemdQuote(exe))
}

// systemdQuote quotes an executable path for ExecStart=.
func systemdQuote(s string) string {
	if !strings.ContainsAny(s, " \t\"'\\%$;") {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, `%`, `%%`, `$`, `$$`)
	return `"` + r.Replace(s) + `"`
}

// installBootUnit writes the boot unit for exe and the link that makes
// the next boot start it.
func (s *System) installBootUnit(exe string) error {
	if err := s.r.MkdirAll(path.Dir(bootUnitWant), 0o755); err != nil {
		return fmt.Errorf("installing %s: %w", BootUnit, unwrapPath(err))
	}
	if err := s.writeAtomic(bootUnitFile, []byte(bootUnitText(exe)), 0o644, -1, -1); err != nil {
		return err
	}
	return s.symlinkAtomic("/"+bootUnitFile, bootUnitWant)
}

// removeBootUnit removes the boot unit once no confirmation waits; a unit
// that is gone already is no error.
func (s *System) removeBootUnit() error {
	for _, rel := range []string{bootUnitWant, bootUnitFile} {
		if err := s.r.Remove(rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing %s: %w", s.show(rel), unwrapPath(err))
		}
	}
	return nil
}

// EnforceConfirmation is what the boot unit runs: it completes a switch or
// rollback that was killed half way and, when a generation still waits
// for its confirmation, rolls back if the deadline passed and arms a new
// timer for the rest of the wait if it did not. why says what it did
// when it did not roll back.
func (s *System) EnforceConfirmation(exe string, o SwitchOptions) (res *Result, why string, err error) {
	if _, _, err := s.Recover(); err != nil {
		return nil, "", err
	}
	c, err := s.ReadConfirmation()
	if err != nil {
		return nil, "", err
	}
	if c == nil || (c.State != ConfirmActivating && c.State != ConfirmWaiting) || c.From == c.Generation {
		return nil, "no generation waits for a confirmation", s.removeBootUnit()
	}
	deadline, perr := time.Parse(time.RFC3339, c.Deadline)
	if perr == nil && s.now().Before(deadline) {
		if !s.Live() {
			return nil, "", fmt.Errorf("arming the rollback timer needs systemd running on %s", s.rootName())
		}
		within := deadline.Sub(s.now())
		timer := nextTimer(c)
		if err := armTimer(timer, within, exe, c.Generation, c.Attempt()); err != nil {
			return nil, "", err
		}
		c.Timers = []string{timer}
		if err := s.writeConfirmation(c); err != nil {
			return nil, "", err
		}
		return nil, fmt.Sprintf("generation %d waits for its confirmation until %s: the rollback timer is armed again", c.Generation, c.Deadline), nil
	}
	// The deadline passed (or is unreadable: the promise was to roll
	// back).
	return s.ExpireConfirmation(c.Generation, c.Attempt(), "", o)
}

// nextTimer names a new timer of c's attempt: one more than the highest
// number its timers had, so that it never meets a timer still loaded.
func nextTimer(c *Confirmation) string {
	n := 0
	for _, t := range c.Timers {
		if i := strings.LastIndexByte(t, '-'); i >= 0 {
			if k, err := strconv.Atoi(t[i+1:]); err == nil && k > n {
				n = k
			}
		}
	}
	return fmt.Sprintf("nodegen-rollback-%d-%s-%d", c.Generation, c.TokenHash[:8], n+1)
}
