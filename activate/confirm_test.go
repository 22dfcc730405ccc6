package activate

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// recordTimers makes the timer commands succeed and records them.
func recordTimers(t *testing.T) *[]string {
	t.Helper()
	var calls []string
	old := timerCommand
	timerCommand = func(_ time.Duration, args ...string) (string, error) {
		calls = append(calls, strings.Join(args, " "))
		return "", nil
	}
	t.Cleanup(func() { timerCommand = old })
	return &calls
}

// twoGenerations opens a root where generation 2 is active, with systemd
// (fakeUnits).
func twoGenerations(t *testing.T) *System {
	t.Helper()
	root := newRoot(t, nil)
	mustSwitch(t, root, writeProfile(t, file("one", "1\n")), SwitchOptions{})
	mustSwitch(t, root, writeProfile(t, file("two", "2\n")), SwitchOptions{})
	units := &fakeUnits{t: t, root: root, failing: map[string]bool{}, active: map[string]bool{"multi-user.target": true}}
	return open(t, root, units)
}

func TestConfirmation(t *testing.T) {
	calls := recordTimers(t)
	s := twoGenerations(t)
	defer s.Close()
	const token, other = "0123456789abcdef-attempt-a", "0123456789abcdef-attempt-b"

	c, err := s.ArmConfirmation(2, 1, token, time.Minute, ConfirmActivating, "/usr/local/bin/nodegen")
	if err != nil {
		t.Fatal(err)
	}
	if want := "--on-active=60s"; len(*calls) != 1 || !strings.Contains((*calls)[0], want) || !strings.HasSuffix((*calls)[0], "-- /usr/local/bin/nodegen confirm --expire 2 "+c.Attempt()) {
		t.Fatalf("arming ran %q", *calls)
	}
	if _, err := s.ConfirmConfirmation(2, token); !errors.Is(err, ErrNotConfirmable) || !strings.Contains(err.Error(), "still being activated") {
		t.Errorf("confirming while activating: %v", err)
	}

	// Armed again once active: a new timer first, then the first one
	// stopped; it still rolls back to generation 1.
	c, err = s.ArmConfirmation(2, 2, token, 10*time.Second, ConfirmWaiting, "/usr/local/bin/nodegen")
	if err != nil {
		t.Fatal(err)
	}
	if c.From != 1 || len(c.Timers) != 1 || !strings.HasSuffix(c.Timers[0], "-2") {
		t.Errorf("re-armed: from %d, timers %q", c.From, c.Timers)
	}
	if len(*calls) != 3 || !strings.Contains((*calls)[1], "--on-active=10s") || !strings.HasSuffix((*calls)[2], "-1.timer") || !strings.HasPrefix((*calls)[2], "systemctl stop -- ") {
		t.Errorf("re-arming ran %q, want the new timer armed and the first one stopped", *calls)
	}
	if !strings.Contains((*calls)[1], "--property=Type=exec") {
		t.Errorf("the timer's service is not Type=exec (its rollback would wait for its own start job): %q", (*calls)[1])
	}
	unit, err := s.readFile(bootUnitFile)
	if err != nil || !strings.Contains(string(unit), "ExecStart=/usr/local/bin/nodegen confirm --enforce\n") {
		t.Errorf("the boot unit while generation 2 waits: %q, %v", unit, err)
	}
	if _, err := s.r.Lstat(bootUnitWant); err != nil {
		t.Errorf("multi-user.target does not want the boot unit: %v", err)
	}

	for _, bad := range []struct {
		gen   int
		token string
		why   string
	}{
		{2, other, "that is not the token of generation 2's switch"},
		{1, token, "generation 1 does not wait for a confirmation"},
	} {
		if _, err := s.ConfirmConfirmation(bad.gen, bad.token); !errors.Is(err, ErrNotConfirmable) || !strings.Contains(err.Error(), bad.why) {
			t.Errorf("confirm %d %s: %v, want %q", bad.gen, bad.token, err, bad.why)
		}
	}
	*calls = nil
	if _, err := s.ConfirmConfirmation(2, token); err != nil {
		t.Fatal(err)
	}
	if len(*calls) != 1 || !strings.HasPrefix((*calls)[0], "systemctl stop -- nodegen-rollback-2-") || strings.Count((*calls)[0], ".timer") != 1 {
		t.Errorf("confirming ran %q", *calls)
	}
	for _, rel := range []string{bootUnitFile, bootUnitWant} {
		if _, err := s.r.Lstat(rel); err == nil {
			t.Errorf("%s stays after the confirmation", rel)
		}
	}
	if _, err := s.ConfirmConfirmation(2, token); err != nil {
		t.Errorf("confirming again: %v", err)
	}
	if _, why, err := s.ExpireConfirmation(2, c.Attempt(), "", SwitchOptions{}); err != nil || why != "generation 2 was confirmed" {
		t.Errorf("the timer after the confirmation: %q, %v", why, err)
	}
	if st, _ := s.readState(); st.Generation != 2 {
		t.Errorf("generation %d is active after a confirmed generation's timer", st.Generation)
	}
}

func TestConfirmationExpires(t *testing.T) {
	recordTimers(t)
	s := twoGenerations(t)
	defer s.Close()
	const token = "0123456789abcdef-attempt-a"
	c, err := s.ArmConfirmation(2, 1, token, time.Minute, ConfirmWaiting, "nodegen")
	if err != nil {
		t.Fatal(err)
	}
	if _, why, err := s.ExpireConfirmation(2, "0000000000000000", "", SwitchOptions{}); err != nil || why != "another switch's confirmation is the latest" {
		t.Errorf("another attempt's timer: %q, %v", why, err)
	}
	res, why, err := s.ExpireConfirmation(2, c.Attempt(), "", SwitchOptions{})
	if err != nil || why != "" || res.Generation != 1 {
		t.Fatalf("expiring: %+v, %q, %v", res, why, err)
	}
	if st, _ := s.readState(); st.Generation != 1 {
		t.Errorf("generation %d is active after the timer, want 1", st.Generation)
	}
	// Generation 2 is marked: a rollback does not go back to it.
	if st, _ := s.readState(); st.markOf(2) == nil || st.markOf(2).Kind != MarkRolledBack || !strings.HasPrefix(st.markOf(2).Why, "not confirmed in time") {
		t.Errorf("generation 2's mark after the timer: %+v", st.Marks)
	}
	if _, err := s.ConfirmConfirmation(2, token); !errors.Is(err, ErrNotConfirmable) || !strings.Contains(err.Error(), "was not confirmed in time and was rolled back") {
		t.Errorf("confirming after the rollback: %v", err)
	}

	// A later attempt at generation 3 from the unconfirmed 2 would roll
	// back to 1, where 2's would have.
	mustSwitchOpen(t, s, writeProfile(t, file("three", "3\n")))
	c, err = s.ArmConfirmation(3, 1, token+"x", time.Minute, ConfirmActivating, "nodegen")
	if err != nil {
		t.Fatal(err)
	}
	c, err = s.ArmConfirmation(4, 3, token+"y", time.Minute, ConfirmActivating, "nodegen")
	if err != nil || c.From != 1 {
		t.Errorf("an attempt from an unconfirmed generation rolls back to %d (%v), want 1", c.From, err)
	}
}

// TestConfirmationRolledBackWithReason: the deployer's rollback at once
// (confirm --expire --reason) marks the generation and the confirmation
// with its reason, not "not confirmed in time".
func TestConfirmationRolledBackWithReason(t *testing.T) {
	recordTimers(t)
	s := twoGenerations(t)
	defer s.Close()
	const token = "0123456789abcdef-attempt-r"
	c, err := s.ArmConfirmation(2, 1, token, time.Minute, ConfirmWaiting, "nodegen")
	if err != nil {
		t.Fatal(err)
	}
	const reason = "health check failed: kubernetes-node-ready (21 tries): exit 1"
	res, why, err := s.ExpireConfirmation(2, c.Attempt(), reason, SwitchOptions{})
	if err != nil || why != "" || res.Generation != 1 {
		t.Fatalf("rolling back: %+v, %q, %v", res, why, err)
	}
	st, _ := s.readState()
	if m := st.markOf(2); st.Generation != 1 || m == nil || m.Kind != MarkRolledBack || m.Why != reason {
		t.Errorf("after the rollback: generation %d active, marks %+v; want 1, and 2 rolled back for %q", st.Generation, st.Marks, reason)
	}
	got, err := s.ReadConfirmation()
	if err != nil || got.State != ConfirmRolledBack || got.Reason != reason || got.RolledBackWhy() != reason {
		t.Errorf("the confirmation after the rollback: %+v, %v", got, err)
	}
	if _, err := s.ConfirmConfirmation(2, token); !errors.Is(err, ErrNotConfirmable) || !strings.HasSuffix(err.Error(), "): "+reason) || strings.Contains(err.Error(), "in time") {
		t.Errorf("confirming after the rollback: %v, want it rolled back for %q", err, reason)
	}
	// The timer, when it fires afterwards, does nothing and keeps the
	// reason.
	if _, why, err := s.ExpireConfirmation(2, c.Attempt(), "", SwitchOptions{}); err != nil || why != "generation 2 was rolled back already" {
		t.Errorf("the timer after the rollback: %q, %v", why, err)
	}
	if got, _ := s.ReadConfirmation(); got.Reason != reason {
		t.Errorf("the reason after the timer: %q", got.Reason)
	}
}

// mustSwitchOpen switches the open system s to the profile dir.
func mustSwitchOpen(t *testing.T, s *System, dir string) {
	t.Helper()
	if _, err := s.Switch(dir, SwitchOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestConfirmationNeedsSystemd(t *testing.T) {
	root := newRoot(t, nil)
	s := open(t, root, nil)
	defer s.Close()
	if _, err := s.ArmConfirmation(1, 0, "0123456789abcdef", time.Minute, ConfirmActivating, "nodegen"); err == nil || !strings.Contains(err.Error(), "needs systemd running") {
		t.Errorf("arming without systemd: %v", err)
	}
}

// TestGCKeepsWhatAWaitGoesBackTo: gc keeps the generation that a waiting
// confirmation rolls back to.
func TestGCKeepsWhatAWaitGoesBackTo(t *testing.T) {
	recordTimers(t)
	s := twoGenerations(t)
	defer s.Close()
	mustSwitchOpen(t, s, writeProfile(t, file("three", "3\n")))
	if _, err := s.ArmConfirmation(3, 1, "0123456789abcdef-attempt", time.Minute, ConfirmWaiting, "nodegen"); err != nil {
		t.Fatal(err)
	}
	removed, err := s.GC(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 1 || removed[0] != 2 {
		t.Errorf("gc --keep 0 removed %v, want [2] (3 is active, 1 is what it goes back to)", removed)
	}
}

// TestEnforceConfirmation is the boot unit's command: a deadline that
// passed while the host was down rolls back; one still ahead is armed
// again for the rest of the wait.
func TestEnforceConfirmation(t *testing.T) {
	calls := recordTimers(t)
	s := twoGenerations(t)
	defer s.Close()
	const token = "0123456789abcdef-attempt-a"
	start := time.Date(2026, 12, 4, 18, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return start }
	if _, err := s.ArmConfirmation(2, 1, token, time.Minute, ConfirmWaiting, "/usr/local/bin/nodegen"); err != nil {
		t.Fatal(err)
	}

	// A boot 20 s later: 40 s are left.
	*calls = nil
	s.now = func() time.Time { return start.Add(20 * time.Second) }
	res, why, err := s.EnforceConfirmation("/usr/local/bin/nodegen", SwitchOptions{})
	if err != nil || res != nil || !strings.Contains(why, "armed again") {
		t.Fatalf("enforcing before the deadline: %+v, %q, %v", res, why, err)
	}
	if len(*calls) != 1 || !strings.Contains((*calls)[0], "--on-active=40s") || !strings.Contains((*calls)[0], "nodegen-rollback-2-") || !strings.Contains((*calls)[0], "-2 ") {
		t.Errorf("enforcing before the deadline ran %q, want a second timer for 40s", *calls)
	}

	// A boot after the deadline rolls back, marks generation 2 and
	// removes the boot unit.
	s.now = func() time.Time { return start.Add(time.Hour) }
	res, why, err = s.EnforceConfirmation("/usr/local/bin/nodegen", SwitchOptions{})
	if err != nil || why != "" || res == nil || res.Generation != 1 {
		t.Fatalf("enforcing after the deadline: %+v, %q, %v", res, why, err)
	}
	st, _ := s.readState()
	if st.Generation != 1 || st.markOf(2) == nil || st.markOf(2).Kind != MarkRolledBack {
		t.Errorf("after the deadline: generation %d active, marks %+v", st.Generation, st.Marks)
	}
	if _, err := s.r.Lstat(bootUnitFile); err == nil {
		t.Errorf("the boot unit stays after the rollback")
	}
	if _, why, err := s.EnforceConfirmation("/usr/local/bin/nodegen", SwitchOptions{}); err != nil || why != "no generation waits for a confirmation" {
		t.Errorf("enforcing once more: %q, %v", why, err)
	}
}
