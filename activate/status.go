package activate

import (
	"fmt"
	"io/fs"
	"strings"
)

// Drift is a path nodegen manages whose file is not what it placed.
type Drift struct {
	// Path is the path as a user sees it ("/etc/motd").
	Path string `json:"path"`
	// Option is the option that produced the entry.
	Option string `json:"option,omitempty"`
	// Now says what is there instead: "missing", "changed: now a file
	// with mode 0644", "changed: now a symlink to /x"...
	Now string `json:"now"`
	// GenerationFile is set for an edit made into the active generation
	// (through the link /etc/PATH -> /etc/static/PATH, which is still
	// nodegen's): the generation's file that was changed.
	GenerationFile string `json:"generationFile,omitempty"`
	// Hint says the ways out of such an edit (EditedHint).
	Hint string `json:"hint,omitempty"`
}

// Status is what nodegen status reports.
type Status struct {
	// Generation is the active generation, nil when none is.
	Generation *Generation `json:"generation"`
	// Pending is the journal of an activation under way, interrupted or
	// failed.
	Pending *Journal `json:"pending"`
	// Drifted are the managed paths changed since nodegen placed them.
	Drifted []Drift `json:"drifted"`
	// Live says units were read from the running systemd; FailedUnits are
	// the units in the failed state there.
	Live        bool     `json:"live"`
	FailedUnits []string `json:"failedUnits"`
	// LastFailure is the last activation that failed at a step.
	LastFailure *Failure `json:"lastFailure"`
	// Confirmation is the latest switch that had to be confirmed
	// (switch --confirm-token, nodegen deploy), nil when none had to be.
	Confirmation *Confirmation `json:"confirmation,omitempty"`
}

// Status reads the state of the system without changing anything.
func (s *System) Status() (*Status, error) {
	st, err := s.readState()
	if err != nil {
		return nil, err
	}
	out := &Status{Drifted: []Drift{}, FailedUnits: []string{}, Live: s.units != nil}
	if st.Generation != 0 {
		g, _, err := s.readGeneration(st.Generation)
		if err != nil {
			return nil, err
		}
		g.Current = true
		g.Mark = st.markOf(st.Generation)
		out.Generation = &g
	}
	if out.Pending, err = s.Pending(); err != nil {
		return nil, err
	}
	if out.Drifted, err = s.drifted(st); err != nil {
		return nil, err
	}
	if n := len(st.Failures); n > 0 {
		out.LastFailure = &st.Failures[n-1]
	}
	if out.Pending != nil && out.Pending.Failed != nil {
		out.LastFailure = out.Pending.Failed
	}
	if out.Confirmation, err = s.ReadConfirmation(); err != nil {
		return nil, err
	}
	if s.units != nil {
		if out.FailedUnits, err = s.units.Failed(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// drifted lists the entries of the state that are not on disk as nodegen
// placed them, and etc/static when it does not point at the active
// generation.
func (s *System) drifted(st State) ([]Drift, error) {
	out := []Drift{}
	listed := map[string]bool{}
	entries := st.Entries
	if st.Generation != 0 {
		entries = append([]Placement{{Path: staticLink, Kind: KindSymlink, Target: staticTarget(st.Generation)}}, entries...)
	}
	for _, e := range entries {
		d, err := s.inspect(e.Path)
		if err != nil {
			return nil, err
		}
		if s.holds(d, e) {
			continue
		}
		now := "missing"
		if d.fi != nil {
			now = "changed: now " + describe(d)
			if d.fi.Mode().IsRegular() {
				now += fmt.Sprintf(" with mode %04o", d.fi.Mode()&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky))
			}
		}
		out = append(out, Drift{Path: s.show(e.Path), Option: e.Option, Now: now})
		listed[e.Path] = true
	}
	// The files of the active generation, which the links show.
	edited, err := s.editedFiles(st.Generation)
	if err != nil {
		return nil, err
	}
	for _, f := range edited {
		if listed[f.entry.Path] {
			continue
		}
		pl, ok := stateHas(st, f.entry.Path)
		out = append(out, s.editedDrift(st.Generation, f, ok && pl.Kind == KindLink))
	}
	return out, nil
}

// listFailed parses systemctl list-units --plain --no-legend: the first
// word of each line.
func listFailed(text string) []string {
	out := []string{}
	for _, line := range strings.Split(text, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			out = append(out, f[0])
		}
	}
	return out
}
