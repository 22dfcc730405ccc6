package activate

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"path"
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
	// Live says the plan was checked against the running systemd: only
	// active units are stopped, restarted and reloaded, and a unit is
	// started only if a target that wants it is active or starting.
	Live bool `json:"live"`

	wantedBy map[string][]string // unit -> the targets that want it in the target generation
}

// Empty reports whether the plan does nothing.
func (u UnitPlan) Empty() bool {
	return len(u.Stop)+len(u.Reload)+len(u.Restart)+len(u.Start)+len(u.NotRestarted) == 0
}

// planUnits works out the unit plan between two profiles ("": none), and
// refines it against the running systemd.
func (s *System) planUnits(ch profile.Changes, toDir string) (UnitPlan, error) {
	u := UnitPlan{
		Stop: ch.Units.Stop, Reload: ch.Units.Reload, Restart: []string{},
		Start: ch.Units.Start, NotRestarted: ch.Units.NotRestarted,
		wantedBy: map[string][]string{},
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
	out := UnitPlan{Live: true, NotRestarted: u.NotRestarted, wantedBy: u.wantedBy,
		Stop: []string{}, Reload: []string{}, Restart: []string{}, Start: []string{}}
	if out.FailedBefore, err = s.units.Failed(); err != nil {
		return UnitPlan{}, err
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

// UnitStatus is the state of a unit after an activation.
type UnitStatus struct {
	ActiveState, SubState, Result string
	// Type is a service's Type= ("oneshot"), "" for other units.
	Type string
	// ConditionResult is systemd's "yes" or "no": whether the unit's
	// Condition*= settings held when it was last started.
	ConditionResult string
}

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

// ActiveStates implements UnitManager.
func (c *Systemctl) ActiveStates(units []string) (map[string]string, error) {
	out := map[string]string{}
	if len(units) == 0 {
		return out, nil
	}
	args := append([]string{"systemctl", "show", "--property=Id,ActiveState", "--"}, units...)
	text, err := c.run(args...)
	if err != nil {
		return nil, err
	}
	// One block per unit, in order, separated by blank lines.
	for i, block := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if i >= len(units) {
			break
		}
		for _, line := range strings.Split(block, "\n") {
			if v, ok := strings.CutPrefix(line, "ActiveState="); ok {
				out[units[i]] = v
			}
		}
	}
	return out, nil
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
	out, err := c.run("systemctl", "show", "--property=ActiveState,SubState,Result,Type,ConditionResult", "--", unit)
	if err != nil {
		return UnitStatus{}, err
	}
	var st UnitStatus
	for _, line := range strings.Split(out, "\n") {
		k, v, _ := strings.Cut(line, "=")
		switch k {
		case "ActiveState":
			st.ActiveState = v
		case "SubState":
			st.SubState = v
		case "Result":
			st.Result = v
		case "Type":
			st.Type = v
		case "ConditionResult":
			st.ConditionResult = v
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
func (st UnitStatus) skipped() bool {
	return st.ActiveState == "inactive" && st.Result == "success" && st.ConditionResult == "no"
}

// up says whether a unit that an activation started, restarted or
// reloaded came up: active (a timer waiting, a socket listening, a service
// running or a oneshot that remains after exit), or a oneshot service that
// exited successfully.
func (st UnitStatus) up() bool {
	switch {
	case st.SubState == "auto-restart":
		return false
	case st.ActiveState == "active":
		return st.Result == "" || st.Result == "success"
	case st.ActiveState == "inactive" && st.Type == "oneshot":
		return st.Result == "success"
	}
	return false
}
