package activate

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/nodegen/nodegen/profile"
)

// UnitPlan is what an activation does to systemd units, following NixOS's
// switch-to-configuration (the same rules as `nodegen diff`, see
// profile.UnitChanges).
type UnitPlan struct {
	// Stop are stopped before the files change: removed units, and changed
	// units that stop if changed (the default; started again after).
	Stop []string `json:"stop"`
	// Reload and Restart act on changed units after daemon-reload.
	Reload  []string `json:"reload"`
	Restart []string `json:"restart"`
	// Start are started after daemon-reload: new units and units newly
	// wanted by a target, and changed units stopped before.
	Start []string `json:"start"`
	// NotRestarted are changed units left running as they are.
	NotRestarted []string `json:"notRestarted"`
	// FailedBefore are the units in the failed state before the switch
	// (read from the running systemd).
	FailedBefore []string `json:"failedBefore"`
	// ResetFailed are the units the target generation removes (or masks)
	// that are in the failed state: their failed state is reset after
	// daemon-reload (systemctl reset-failed), so that they leave
	// systemctl --failed with their files. A removed unit that fails
	// while it is stopped is reset too.
	ResetFailed []string `json:"resetFailed"`
	// Live says the plan was checked against the running systemd: only
	// active units are stopped, restarted and reloaded, and a unit is
	// started only if a target that wants it is active or starting.
	Live bool `json:"live"`

	wantedBy map[string][]string // unit -> the targets that want it in the target generation
	removed  []string            // the units the target generation removes or masks
}

// Empty reports whether the plan does nothing.
func (u UnitPlan) Empty() bool {
	return len(u.Stop)+len(u.Reload)+len(u.Restart)+len(u.Start)+len(u.NotRestarted)+len(u.ResetFailed) == 0
}

// planUnits works out the unit plan between two profiles ("": none), and
// refines it against the running systemd.
func (s *System) planUnits(ch profile.Changes, toDir string) (UnitPlan, error) {
	u := UnitPlan{
		Stop: ch.Units.Stop, Reload: ch.Units.Reload, Restart: []string{},
		Start: ch.Units.Start, NotRestarted: ch.Units.NotRestarted,
		ResetFailed: []string{}, wantedBy: map[string][]string{}, removed: ch.Units.Stop,
	}
	var stopStart []string
	for _, unit := range ch.Units.Restart {
		stop, err := profile.StopsIfChanged(toDir, unit)
		if err != nil {
			return UnitPlan{}, err
		}
		if stop {
			stopStart = append(stopStart, unit)
		} else {
			u.Restart = append(u.Restart, unit)
		}
	}
	if toDir != "" {
		m, err := profile.Read(toDir)
		if err != nil {
			return UnitPlan{}, err
		}
		u.wantedBy = wantedBy(m)
	}
	if s.units == nil {
		u.Stop = sorted(append(u.Stop, stopStart...))
		u.Start = sorted(append(u.Start, stopStart...))
		return u, nil
	}
	return s.refineLive(u, stopStart)
}

// wantedBy maps each unit to the targets (or other units) whose .wants,
// .requires or .upholds directory in the profile holds it.
func wantedBy(m profile.Manifest) map[string][]string {
	out := map[string][]string{}
	for _, e := range m.Entries {
		rel, ok := strings.CutPrefix(e.Path, "etc/systemd/system/")
		if !ok {
			continue
		}
		dir, unit := path.Split(rel)
		dir = strings.TrimSuffix(dir, "/")
		for _, suf := range []string{".wants", ".requires", ".upholds"} {
			if by, ok := strings.CutSuffix(dir, suf); ok && !strings.Contains(by, "/") {
				out[unit] = append(out[unit], by)
			}
		}
	}
	return out
}

// refineLive checks the plan against the running systemd.
func (s *System) refineLive(u UnitPlan, stopStart []string) (UnitPlan, error) {
	names := append(append(append(append(append([]string{}, u.Stop...), u.Reload...), u.Restart...), u.Start...), stopStart...)
	for _, unit := range append(append([]string{}, u.Start...), append(u.Restart, stopStart...)...) {
		names = append(names, u.wantedBy[unit]...)
	}
	states, err := s.units.ActiveStates(dedupe(names))
	if err != nil {
		return UnitPlan{}, err
	}
	active := func(unit string) bool {
		switch states[unit] {
		case "active", "activating", "reloading", "refreshing":
			return true
		}
		return false
	}
	out := UnitPlan{Live: true, NotRestarted: u.NotRestarted, wantedBy: u.wantedBy, removed: u.removed,
		Stop: []string{}, Reload: []string{}, Restart: []string{}, Start: []string{}, ResetFailed: []string{}}
	if out.FailedBefore, err = s.units.Failed(); err != nil {
		return UnitPlan{}, err
	}
	for _, unit := range u.removed {
		if slices.Contains(out.FailedBefore, unit) {
			out.ResetFailed = append(out.ResetFailed, unit)
		}
	}
	starting := map[string]bool{}
	for _, unit := range u.Stop {
		if active(unit) {
			out.Stop = append(out.Stop, unit)
		}
	}
	for _, unit := range u.Reload {
		if active(unit) {
			out.Reload = append(out.Reload, unit)
		}
	}
	// Changed units that are not running are started when a target that
	// wants them is active (a unit that failed, now fixed), as NixOS does
	// by starting the active targets again.
	var candidates []string
	for _, unit := range stopStart {
		if active(unit) {
			out.Stop = append(out.Stop, unit)
			starting[unit] = true
		} else {
			candidates = append(candidates, unit)
		}
	}
	for _, unit := range u.Restart {
		if active(unit) {
			out.Restart = append(out.Restart, unit)
		} else {
			candidates = append(candidates, unit)
		}
	}
	// A new unit that runs already is the system's unit of that name (a
	// package's containerd.service, taken over): it runs its old definition
	// and files, so it restarts with the profile's.
	for _, unit := range u.Start {
		if active(unit) {
			out.Restart = append(out.Restart, unit)
		} else {
			candidates = append(candidates, unit)
		}
	}
	// New units start when a target that wants them is active or starts.
	for changed := true; changed; {
		changed = false
		for _, unit := range candidates {
			if starting[unit] {
				continue
			}
			for _, by := range u.wantedBy[unit] {
				if active(by) || starting[by] {
					starting[unit] = true
					changed = true
					break
				}
			}
		}
	}
	for unit := range starting {
		out.Start = append(out.Start, unit)
	}
	out.Stop, out.Restart, out.Start = sorted(out.Stop), sorted(out.Restart), sorted(out.Start)
	return out, nil
}

func sorted(list []string) []string {
	if list == nil {
		return []string{}
	}
	return dedupe(list)
}

// UnitStatus is the state of a unit after an activation, as systemctl
// show reports it.
type UnitStatus struct {
	ActiveState, SubState, Result string
	// Type is a service's Type= ("oneshot"), "" for other units.
	Type string
	// ConditionResult is systemd's "yes" or "no": whether the unit's
	// Condition*= settings held when it was last started.
	ConditionResult string
	// InvocationID is the ID of the unit's last run ("" when it never
	// ran since systemd loaded it): a new one says it was started.
	InvocationID string
	// ConditionChecked is when its conditions were last checked
	// (ConditionTimestampMonotonic, "0" when never).
	ConditionChecked string
	// ExecMainCode and ExecMainStatus are how a service's main process
	// last ended: CLD_EXITED (1) with its exit status, CLD_KILLED (2) or
	// CLD_DUMPED (3) with its signal; "0" when it did not end.
	ExecMainCode, ExecMainStatus string
}

// statusProperties are the properties UnitStatus holds.
const statusProperties = "ActiveState,SubState,Result,Type,ConditionResult,InvocationID,ConditionTimestampMonotonic,ExecMainCode,ExecMainStatus"

// UnitManager acts on the units of a running systemd.
type UnitManager interface {
	// ActiveStates returns the ActiveState of each unit.
	ActiveStates(units []string) (map[string]string, error)
	// Stop stops units and waits until they are stopped.
	Stop(units []string) error
	// DaemonReload makes systemd read the unit files again.
	DaemonReload() error
	// Queue queues jobs ("start", "restart", "reload") for units without
	// waiting for them; it returns the units whose job could not be
	// queued, with systemd's reason.
	Queue(verb string, units []string) map[string]string
	// WaitJobs waits until no job is queued or running, at most timeout;
	// it returns false on timeout.
	WaitJobs(timeout time.Duration) (bool, error)
	// Status reads the state of a unit.
	Status(unit string) (UnitStatus, error)
	// Journal returns the last n lines a unit logged since a time.
	Journal(unit string, n int, since time.Time) string
	// Failed lists the units in the failed state.
	Failed() ([]string, error)
	// Invocations returns the last start of each unit: its InvocationID
	// and when its conditions were checked.
	Invocations(units []string) (map[string]Invocation, error)
	// ResetFailed resets the failed state of units (systemctl
	// reset-failed), so that systemd forgets them once their files are
	// gone.
	ResetFailed(units []string) error
	// Succeeded reports whether systemd logged that unit ended
	// successfully since a time: for a unit it unloaded since, whose
	// state says nothing any more.
	Succeeded(unit string, since time.Time) bool
	// SystemUnits reads what systemd loads for each unit name (after a
	// daemon-reload): the system's own file, once nodegen's is removed.
	SystemUnits(units []string) (map[string]SystemUnit, error)
}

// Systemctl is the UnitManager of the running system, through systemctl
// and journalctl.
type Systemctl struct {
	// Timeout bounds each command; default 2 minutes.
	Timeout time.Duration
}

func (c *Systemctl) run(args ...string) (string, error) {
	timeout := c.Timeout
	if timeout == 0 {
		timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if ctx.Err() != nil {
			msg = fmt.Sprintf("timed out after %s", timeout)
		}
		if msg == "" {
			msg = err.Error()
		}
		return stdout.String(), fmt.Errorf("%s: %s", strings.Join(args, " "), msg)
	}
	return stdout.String(), nil
}

// Invocation identifies the last start of a unit.
type Invocation struct {
	// ID is its InvocationID, ConditionChecked its
	// ConditionTimestampMonotonic (see UnitStatus).
	ID, ConditionChecked string
}

// ActiveStates implements UnitManager.
func (c *Systemctl) ActiveStates(units []string) (map[string]string, error) {
	props, err := c.show(units, "ActiveState")
	out := map[string]string{}
	for unit, p := range props {
		out[unit] = p["ActiveState"]
	}
	return out, err
}

// Invocations implements UnitManager.
func (c *Systemctl) Invocations(units []string) (map[string]Invocation, error) {
	props, err := c.show(units, "InvocationID", "ConditionTimestampMonotonic")
	out := map[string]Invocation{}
	for unit, p := range props {
		out[unit] = Invocation{ID: p["InvocationID"], ConditionChecked: p["ConditionTimestampMonotonic"]}
	}
	return out, err
}

// show reads properties of each unit with systemctl show.
func (c *Systemctl) show(units []string, properties ...string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	if len(units) == 0 {
		return out, nil
	}
	args := append([]string{"systemctl", "show", "--property=Id," + strings.Join(properties, ","), "--"}, units...)
	text, err := c.run(args...)
	if err != nil {
		return nil, err
	}
	// One block per unit, in order, separated by blank lines.
	for i, block := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if i >= len(units) {
			break
		}
		props := map[string]string{}
		for _, line := range strings.Split(block, "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				props[k] = v
			}
		}
		out[units[i]] = props
	}
	return out, nil
}

// ResetFailed implements UnitManager.
func (c *Systemctl) ResetFailed(units []string) error {
	if len(units) == 0 {
		return nil
	}
	_, err := c.run(append([]string{"systemctl", "reset-failed", "--"}, units...)...)
	return err
}

// Stop implements UnitManager.
func (c *Systemctl) Stop(units []string) error {
	if len(units) == 0 {
		return nil
	}
	_, err := c.run(append([]string{"systemctl", "stop", "--"}, units...)...)
	return err
}

// DaemonReload implements UnitManager.
func (c *Systemctl) DaemonReload() error {
	_, err := c.run("systemctl", "daemon-reload")
	return err
}

// Queue implements UnitManager.
func (c *Systemctl) Queue(verb string, units []string) map[string]string {
	failed := map[string]string{}
	for _, unit := range units {
		if _, err := c.run("systemctl", verb, "--no-block", "--", unit); err != nil {
			failed[unit] = err.Error()
		}
	}
	return failed
}

// WaitJobs implements UnitManager.
func (c *Systemctl) WaitJobs(timeout time.Duration) (bool, error) {
	deadline := time.Now().Add(timeout)
	for {
		out, err := c.run("systemctl", "list-jobs", "--no-legend", "--plain")
		if err != nil {
			return false, err
		}
		if strings.TrimSpace(out) == "" {
			return true, nil
		}
		if time.Now().After(deadline) {
			return false, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Status implements UnitManager.
func (c *Systemctl) Status(unit string) (UnitStatus, error) {
	out, err := c.run("systemctl", "show", "--property="+statusProperties, "--", unit)
	if err != nil {
		return UnitStatus{}, err
	}
	var st UnitStatus
	fields := map[string]*string{
		"ActiveState":                 &st.ActiveState,
		"SubState":                    &st.SubState,
		"Result":                      &st.Result,
		"Type":                        &st.Type,
		"ConditionResult":             &st.ConditionResult,
		"InvocationID":                &st.InvocationID,
		"ConditionTimestampMonotonic": &st.ConditionChecked,
		"ExecMainCode":                &st.ExecMainCode,
		"ExecMainStatus":              &st.ExecMainStatus,
	}
	for _, line := range strings.Split(out, "\n") {
		k, v, _ := strings.Cut(line, "=")
		if f, ok := fields[k]; ok {
			*f = v
		}
	}
	return st, nil
}

// Journal implements UnitManager.
func (c *Systemctl) Journal(unit string, n int, since time.Time) string {
	out, err := c.run("journalctl", "--no-pager", "-q", "-n", fmt.Sprint(n), "-u", unit, fmt.Sprintf("--since=@%d", since.Unix()))
	if err != nil {
		return ""
	}
	return strings.TrimRight(out, "\n")
}

// unitSuccessID is the MESSAGE_ID of systemd's "Deactivated
// successfully" (SD_MESSAGE_UNIT_SUCCESS), logged with UNIT=.
const unitSuccessID = "7ad2d189f7e94e70a38c781354912448"

// Succeeded implements UnitManager.
func (c *Systemctl) Succeeded(unit string, since time.Time) bool {
	out, err := c.run("journalctl", "--no-pager", "-q", "-o", "cat", fmt.Sprintf("--since=@%d", since.Unix()),
		"MESSAGE_ID="+unitSuccessID, "UNIT="+unit)
	return err == nil && strings.TrimSpace(out) != ""
}

// Failed implements UnitManager.
func (c *Systemctl) Failed() ([]string, error) {
	out, err := c.run("systemctl", "list-units", "--state=failed", "--all", "--plain", "--no-legend", "--no-pager")
	if err != nil {
		return nil, err
	}
	return listFailed(out), nil
}

// skipped says whether systemd did not start the unit because one of its
// Condition*= settings does not hold (ConditionPathExists= of a file that
// something else provides later): not a failure, and nothing to wait for.
// The conditions must have been checked since before (a unit that never
// started says ConditionResult=no too).
func (st UnitStatus) skipped(before Invocation) bool {
	checked := st.ConditionChecked != "" && st.ConditionChecked != "0" && st.ConditionChecked != before.ConditionChecked
	return st.ActiveState == "inactive" && st.Result == "success" && st.ConditionResult == "no" && checked
}

// judge says whether a unit that an activation started, restarted or
// reloaded came up, as systemd itself judges it, and why not. before is
// its invocation before the activation queued its job: a unit with
// another InvocationID now ran since. A unit is up when it is active (a timer
// waiting, a socket listening, a service running, a oneshot that remains
// after exit), or when it ran and ended with Result=success, whatever its
// Type= (a simple service or a oneshot that exited 0, or with a status of
// its SuccessExitStatus=). It is not when it failed, keeps restarting, or
// never started (a unit it needs is missing or failed): inactive with the
// invocation it had before.
func (st UnitStatus) judge(before Invocation) (up bool, why string) {
	ran := st.InvocationID != "" && st.InvocationID != before.ID
	// systemd unloads a unit that nothing references once it ended well
	// (never a failed one): one that had run before reads as new then
	// (one that had not is asked of the journal, see actOnUnits).
	collected := st.InvocationID == "" && before.ID != ""
	switch {
	case st.SubState == "auto-restart":
		return false, fmt.Sprintf("%s/%s (Result=%s%s): it keeps exiting and being restarted", st.ActiveState, st.SubState, st.Result, st.mainExit())
	case st.ActiveState == "active" || st.ActiveState == "reloading" || st.ActiveState == "refreshing":
		if st.Result == "" || st.Result == "success" {
			return true, ""
		}
	case st.ActiveState == "inactive" && (ran || collected) && st.Result == "success":
		return true, ""
	case st.ActiveState == "inactive" && st.Result == "success":
		return false, fmt.Sprintf("%s/%s: it did not start (a unit it needs is missing or failed)", st.ActiveState, st.SubState)
	case st.ActiveState == "activating" || st.ActiveState == "deactivating":
		return false, fmt.Sprintf("still %s", st.ActiveState)
	}
	return false, fmt.Sprintf("%s/%s (Result=%s%s)", st.ActiveState, st.SubState, st.Result, st.mainExit())
}

// mainExit says how a service's main process ended, ", exit status 3",
// when it ended otherwise than with status 0.
func (st UnitStatus) mainExit() string {
	switch {
	case st.ExecMainCode == "1" && st.ExecMainStatus != "" && st.ExecMainStatus != "0":
		return ", exit status " + st.ExecMainStatus
	case st.ExecMainCode == "2" || st.ExecMainCode == "3":
		return ", killed by signal " + st.ExecMainStatus
	}
	return ""
}
