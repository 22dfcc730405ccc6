package activate

import (
	"fmt"
	"slices"
	"strings"
)

// A unit of nodegen's may stand where the system has its own: the
// profile's sshd.service where Debian's openssh-server has ssh.service
// (and the alias sshd.service, moved aside by --backup), a taken-over
// containerd.service. When an activation removes nodegen's unit (a switch
// to a profile without it, a rollback, deactivate), systemd falls back to
// the system's own file of that name once the files are restored; nodegen
// started nothing of it, so on a remote host a removed sshd locked its
// operator out. startSystemUnits starts the system's unit again.

// SystemUnit is what systemd loads for a unit name: its own file, after
// nodegen's is gone.
type SystemUnit struct {
	// ID is the unit systemd resolves the name to (ssh.service for the
	// alias sshd.service).
	ID string
	// LoadState is "loaded", "not-found", "masked"...
	LoadState string
	// FragmentPath is the unit file; UnitFileState its state ("enabled",
	// "disabled", "static", "alias"...).
	FragmentPath  string
	UnitFileState string
}

// comesBack reports whether the system's unit is one nodegen starts again
// in place of its own: loaded from a file that is not nodegen's, and
// enabled (a target wants it at boot, so it would be running had nodegen
// not stood in its place).
func (u SystemUnit) comesBack() bool {
	if u.LoadState != "loaded" || u.FragmentPath == "" || strings.HasPrefix(u.FragmentPath, "/etc/static/") {
		return false
	}
	switch u.UnitFileState {
	case "enabled", "enabled-runtime", "alias":
		return true
	}
	return false
}

// startSystemUnits returns the units to start again after daemon-reload:
// for each unit the activation removed and stopped (it was running), the
// system's own unit of that name when it comes back (SystemUnit.
// comesBack) and is not running yet.
func (s *System) startSystemUnits(u UnitPlan) ([]string, error) {
	var stopped []string
	for _, unit := range u.removed {
		if slices.Contains(u.Stop, unit) {
			stopped = append(stopped, unit)
		}
	}
	if len(stopped) == 0 {
		return nil, nil
	}
	sys, err := s.units.SystemUnits(stopped)
	if err != nil {
		return nil, err
	}
	var start []string
	for _, unit := range stopped {
		su, ok := sys[unit]
		if !ok || !su.comesBack() {
			continue
		}
		id := su.ID
		if id == "" {
			id = unit
		}
		if slices.Contains(start, id) || slices.Contains(u.Start, id) {
			continue
		}
		s.logf("%s was removed; the system's own %s (%s, %s) is started again", unit, id, su.FragmentPath, su.UnitFileState)
		start = append(start, id)
	}
	return start, nil
}

// SystemUnits implements UnitManager.
func (c *Systemctl) SystemUnits(units []string) (map[string]SystemUnit, error) {
	props, err := c.show(units, "LoadState", "FragmentPath", "UnitFileState")
	if err != nil {
		return nil, fmt.Errorf("reading the units that replace removed ones: %w", err)
	}
	out := map[string]SystemUnit{}
	for unit, p := range props {
		out[unit] = SystemUnit{ID: p["Id"], LoadState: p["LoadState"], FragmentPath: p["FragmentPath"], UnitFileState: p["UnitFileState"]}
	}
	return out, nil
}
