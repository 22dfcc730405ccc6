package activate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMarksAndRollback: a generation whose units did not come up is
// marked rolled back (with RollbackOnFailure) or failed (without);
// Generations shows the marks; Rollback without a number skips the marked
// ones; a later activation of a generation whose units come up removes
// its mark; gc drops the marks of the generations it removes.
func TestMarksAndRollback(t *testing.T) {
	svc := "[Service]\nExecStart=/bin/true\n"
	good := writeProfile(t, unitFiles("web.service", svc)...)
	broken := writeProfile(t, flatten(unitFiles("web.service", svc), unitFiles("broken.service", svc))...)
	other := writeProfile(t, flatten(unitFiles("web.service", svc+"Environment=V=3\n"))...)
	root := newRoot(t, nil)
	f := &fakeUnits{t: t, root: root, active: map[string]bool{"multi-user.target": true}, failing: map[string]bool{"broken.service": true}}
	sw := func(dir string, o SwitchOptions) *Result {
		t.Helper()
		res, err := run(t, root, f, func(s *System) (*Result, error) { return s.Switch(dir, o) })
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	marks := func() map[int]string {
		t.Helper()
		gens, err := run(t, root, f, func(s *System) ([]Generation, error) { return s.Generations() })
		if err != nil {
			t.Fatal(err)
		}
		out := map[int]string{}
		for _, g := range gens {
			if g.Mark != nil {
				out[g.Number] = g.Mark.Kind + ": " + g.Mark.Why
			}
		}
		return out
	}
	// 1; 2 rolled back to 1; 3; 4 failed, and stays.
	sw(good, SwitchOptions{})
	sw(broken, SwitchOptions{RollbackOnFailure: true})
	sw(other, SwitchOptions{})
	if res := sw(broken, SwitchOptions{}); res.Generation != 4 || len(res.Failed) == 0 {
		t.Fatalf("generation %d, failed %v", res.Generation, res.Failed)
	}
	want := map[int]string{2: "rolled-back: units did not come up: broken.service", 4: "failed: units did not come up: broken.service"}
	if d := cmp.Diff(want, marks()); d != "" {
		t.Errorf("marks (-want +got):\n%s", d)
	}
	if st, err := run(t, root, f, func(s *System) (*Status, error) { return s.Status() }); err != nil || st.Generation.Mark == nil || st.Generation.Mark.Kind != MarkFailed {
		t.Errorf("status of the failed generation 4: %+v, %v", st.Generation, err)
	}
	rollback := func(to int) (*Result, error) {
		return run(t, root, f, func(s *System) (*Result, error) { return s.Rollback(to, SwitchOptions{}) })
	}
	// From 4: 3 is good.
	if res, err := rollback(0); err != nil || res.Generation != 3 {
		t.Fatalf("rollback from 4: %+v %v", res, err)
	}
	// From 3: 2 was rolled back, 1 is good.
	if res, err := rollback(0); err != nil || res.Generation != 1 {
		t.Fatalf("rollback from 3: %+v %v", res, err)
	}
	// --to 9 does not exist; --to 2 is activated as asked and, its unit
	// fixed, loses its mark.
	if _, err := rollback(9); err == nil || err.Error() != "there is no generation 9 (run nodegen generations to list them)" {
		t.Errorf("rollback --to 9: %v", err)
	}
	f.failing["broken.service"] = false
	if res, err := rollback(2); err != nil || res.Generation != 2 || len(res.Failed) != 0 {
		t.Fatalf("rollback --to 2: %+v %v", res, err)
	}
	if d := cmp.Diff(map[int]string{4: want[4]}, marks()); d != "" {
		t.Errorf("marks after generation 2 came up (-want +got):\n%s", d)
	}
	if _, err := run(t, root, f, func(s *System) ([]int, error) { return s.GC(0) }); err != nil {
		t.Fatal(err)
	}
	if st := readState(t, root); len(st.Marks) != 0 {
		t.Errorf("marks of removed generations kept: %+v", st.Marks)
	}
}

func TestRollbackTarget(t *testing.T) {
	rolledBack := func(ns ...int) []Mark {
		var out []Mark
		for _, n := range ns {
			out = append(out, Mark{Generation: n, Kind: MarkRolledBack})
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		st      State
		ns      []int
		want    int
		wantErr string
	}{
		{"the one before", State{Generation: 3}, []int{1, 2, 3}, 2, ""},
		{"skips marked", State{Generation: 4, Marks: rolledBack(3, 2)}, []int{1, 2, 3, 4}, 1, ""},
		{"a gap", State{Generation: 5}, []int{2, 5}, 2, ""},
		{"none active: the newest good", State{Marks: rolledBack(3)}, []int{1, 2, 3}, 2, ""},
		{"the first", State{Generation: 1}, []int{1, 2}, 0, "there is no generation before generation 1"},
		{"only marked", State{Generation: 3, Marks: append(rolledBack(2), Mark{Generation: 1, Kind: MarkFailed})}, []int{1, 2, 3}, 0,
			"there is no good generation before generation 3: generation(s) 2 (rolled back), 1 (failed); nodegen rollback --to N activates one of them all the same"},
		{"no generations", State{}, nil, 0, "there is no generation to roll back to"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := rollbackTarget(tc.st, tc.ns)
			msg := ""
			if err != nil {
				msg = err.Error()
			}
			if got != tc.want || msg != tc.wantErr {
				t.Errorf("got %d %q, want %d %q", got, msg, tc.want, tc.wantErr)
			}
		})
	}
}
