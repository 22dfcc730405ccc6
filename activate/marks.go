package activate

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// The kinds of Mark.
const (
	// MarkFailed: the generation's last activation failed and it stayed
	// (units that did not come up, without a rollback), or going back
	// from it failed too.
	MarkFailed = "failed"
	// MarkRolledBack: the generation's last activation failed or was not
	// confirmed in time, and the generation before it was activated again.
	MarkRolledBack = "rolled-back"
)

// Mark says that a generation's last activation went wrong, so that
// Rollback does not go back to it unless asked by number. A later
// activation of the generation that succeeds removes its mark.
type Mark struct {
	Generation int `json:"generation"`
	// Kind is MarkFailed or MarkRolledBack.
	Kind string `json:"kind"`
	// Why says what went wrong, Date when (RFC 3339, UTC).
	Why  string `json:"why"`
	Date string `json:"date"`
}

// Describe says what happened to the generation, in one line.
func (m Mark) Describe() string {
	what := "failed"
	if m.Kind == MarkRolledBack {
		what = "rolled back"
	}
	return fmt.Sprintf("generation %d %s (%s): %s", m.Generation, what, m.Date, m.Why)
}

// markOf returns generation n's mark in st, nil when it has none.
func (st State) markOf(n int) *Mark {
	for i := range st.Marks {
		if st.Marks[i].Generation == n {
			return &st.Marks[i]
		}
	}
	return nil
}

// setMark records what went wrong with generation n (replacing its mark),
// or with kind "" removes its mark: state.json is written only when that
// changes it.
func (s *System) setMark(n int, kind, why string) error {
	if n == 0 {
		return nil
	}
	st, err := s.readState()
	if err != nil {
		return err
	}
	marks := slices.DeleteFunc(slices.Clone(st.Marks), func(m Mark) bool { return m.Generation == n })
	if kind == "" && len(marks) == len(st.Marks) {
		return nil
	}
	if kind != "" {
		marks = append(marks, Mark{Generation: n, Kind: kind, Why: why, Date: s.now().UTC().Format(time.RFC3339)})
		slices.SortFunc(marks, func(a, b Mark) int { return a.Generation - b.Generation })
	}
	st.Marks = marks
	return s.writeState(st)
}

// markActivation records how the activation of generation to ended: its
// mark is removed when every unit came up, and says failed or rolled back
// otherwise.
func (s *System) markActivation(res *Result, to int) error {
	switch {
	case len(res.Failed) == 0:
		return s.setMark(to, "", "")
	case res.RolledBack != nil:
		return s.setMark(to, MarkRolledBack, "units did not come up: "+failedNames(res.Failed))
	}
	return s.setMark(to, MarkFailed, "units did not come up: "+failedNames(res.Failed))
}

func failedNames(failed []FailedUnit) string {
	names := make([]string, len(failed))
	for i, f := range failed {
		names[i] = f.Unit
	}
	return strings.Join(names, " ")
}

// pruneMarks drops the marks of generations that no longer exist.
func (s *System) pruneMarks(exist []int) error {
	st, err := s.readState()
	if err != nil {
		return err
	}
	kept := slices.DeleteFunc(slices.Clone(st.Marks), func(m Mark) bool { return !slices.Contains(exist, m.Generation) })
	if len(kept) == len(st.Marks) {
		return nil
	}
	st.Marks = kept
	return s.writeState(st)
}

// rollbackTarget is the generation a rollback without a number goes to:
// the newest one older than the active one (any, when none is active)
// that has no mark.
func rollbackTarget(st State, ns []int) (int, error) {
	var skipped []string
	for i := len(ns) - 1; i >= 0; i-- {
		n := ns[i]
		if st.Generation != 0 && n >= st.Generation {
			continue
		}
		if m := st.markOf(n); m != nil {
			skipped = append(skipped, fmt.Sprintf("%d (%s)", n, strings.ReplaceAll(m.Kind, "-", " ")))
			continue
		}
		return n, nil
	}
	switch {
	case len(skipped) > 0 && st.Generation == 0:
		return 0, fmt.Errorf("there is no good generation to roll back to: generation(s) %s; nodegen rollback --to N activates one of them all the same", strings.Join(skipped, ", "))
	case len(skipped) > 0:
		return 0, fmt.Errorf("there is no good generation before generation %d: generation(s) %s; nodegen rollback --to N activates one of them all the same", st.Generation, strings.Join(skipped, ", "))
	case st.Generation == 0:
		return 0, fmt.Errorf("there is no generation to roll back to")
	}
	return 0, fmt.Errorf("there is no generation before generation %d", st.Generation)
}

// markFailure records a step of generation f.Generation's activation that
// failed: rolled back, or failed when going back failed too.
func (s *System) markFailure(f *Failure) error {
	kind := MarkFailed
	if f.RolledBack {
		kind = MarkRolledBack
	}
	return s.setMark(f.Generation, kind, fmt.Sprintf("step %s failed: %s", f.Step, f.Error))
}
