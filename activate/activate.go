package activate

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/nodegen/nodegen/internal/keyset"
	"github.com/nodegen/nodegen/profile"
)

// SwitchOptions configure an activation.
type SwitchOptions struct {
	// DryRun works out the plan and changes nothing.
	DryRun bool
	// Backup moves files in the way aside instead of refusing, and puts
	// them back when nodegen stops managing their paths.
	Backup bool
	// RollbackOnFailure activates the previous generation again when a
	// unit fails.
	RollbackOnFailure bool
	// JobTimeout bounds the wait for units to start; default 90 s.
	JobTimeout time.Duration
	// Settle is how long units are given, once their jobs are done,
	// before their state is read; default 1 s.
	Settle time.Duration
	// Stable is how long a service the activation (re)started must keep
	// running under one InvocationID to be up; default 3 s. A program
	// that refuses its configuration exits at once, and Restart= runs it
	// again and again: active at any one moment, it is never up.
	Stable time.Duration
	// Checked, when set, is called with the plan once the check stage
	// passed, before anything changes (and with DryRun, before returning).
	Checked func(*Plan)
	// BeforeChange, when set, is called with the plan of a switch or
	// rollback after Checked and before anything changes (never with
	// DryRun); an error stops the activation there, as a refusal does.
	// A switch arms its rollback timer here.
	BeforeChange func(*Plan) error
	// Offline provides assets from the cache only, never downloading.
	Offline bool
	// Keys are the keys (deployment.keys, staged by a deploy) that the new
	// generation holds: a switch copies them into it, and its activation
	// puts them in place (and removes the previous generation's). None
	// is a generation without keys.
	Keys []keyset.Entry
	// TakeOver are paths ("/etc/motd") whose files, changed since nodegen
	// placed them or not nodegen's, a switch replaces with the profile's
	// on purpose; each is first moved below var/lib/nodegen/taken-over.
	TakeOver []string
}

// howOf is how a switch with o treats files in the way.
func (s *System) howOf(o SwitchOptions) planHow {
	h := planHow{backup: o.Backup, named: true}
	for _, p := range o.TakeOver {
		h.takeOver = append(h.takeOver, strings.TrimPrefix(path.Clean("/"+p), "/"))
	}
	if len(h.takeOver) > 0 {
		h.takeOverDir = s.freeName(path.Join(takenOverDir, s.now().UTC().Format("20060102T150405Z")))
	}
	return h
}

// freeName returns base, or else base.2, base.3, ...: the first that
// nothing below the root has, so that what one take-over keeps is never
// renamed over by another in the same second (or by any, with
// SOURCE_DATE_EPOCH). The lock keeps another command from taking it in
// between.
func (s *System) freeName(base string) string {
	name := base
	for i := 2; ; i++ {
		if _, err := s.r.Lstat(name); err != nil {
			return name // absent (or unreadable: creating it will say why)
		}
		name = base + "." + strconv.Itoa(i)
	}
}

// binaries is the check stage's part for assets and packages: with DryRun
// it only says what would be downloaded and installed; otherwise it
// downloads, checks and installs them, before anything in /etc changes.
func (s *System) binaries(p *Plan, o SwitchOptions) error {
	bp := s.checkBinaries(p.manifest, o.Offline)
	for _, a := range bp.download {
		p.Download = append(p.Download, a.Name)
	}
	p.Install = append(p.Install, bp.install...)
	o.checked(p)
	if o.DryRun {
		if len(bp.problems) > 0 {
			return &BinariesError{bp.problems}
		}
		return nil
	}
	return s.provideBinaries(bp)
}

func (o SwitchOptions) checked(p *Plan) {
	if o.Checked != nil {
		o.Checked(p)
	}
}

// Result is what an activation did.
type Result struct {
	// Recovered is the interrupted activation that was completed first.
	Recovered *Journal
	// Plan is what was (or, with DryRun, would be) done.
	Plan *Plan
	// Generation is the generation activated; Unchanged says it was the
	// active one already (the same profile).
	Generation int
	Unchanged  bool
	// Failed are the units that did not come up.
	Failed []FailedUnit
	// StillFailed are the units that were failed before the activation,
	// that it did not act on, and that are failed still.
	StillFailed []string
	// RolledBack is the activation back to the previous generation, with
	// RollbackOnFailure or after a failed step.
	RolledBack *Result
	// Failure is a step of the activation that failed after the system
	// was changed (the error is then a *FailedError).
	Failure *Failure
}

// Failure is an activation that failed at a step after it began to change
// the system, and what was done about it.
type Failure struct {
	// Generation is the generation it activated (0: deactivating), From
	// the one active before.
	Generation int `json:"generation"`
	From       int `json:"from"`
	// Step is the stage that failed (see Stages), Error its error.
	Step  string `json:"step"`
	Error string `json:"error"`
	// Date is when, RFC 3339 in UTC.
	Date string `json:"date"`
	// RolledBack says generation From was activated again; RollbackError
	// says why it could not be (the journal then stays, and the next
	// command activates its own generation around it).
	RolledBack    bool   `json:"rolledBack"`
	RollbackError string `json:"rollbackError,omitempty"`
}

// Describe says what happened, in one sentence.
func (f *Failure) Describe() string {
	what := "the activation of " + genName(f.Generation)
	if f.Generation == 0 {
		what = "the deactivation"
	}
	msg := fmt.Sprintf("%s failed at step %s: %s", what, f.Step, f.Error)
	back := genName(f.From)
	if f.From == 0 {
		back = "no generation (as before the first switch)"
	}
	switch {
	case f.RolledBack && f.From == 0:
		msg += "; what it placed was removed again, as before the first switch"
	case f.RolledBack:
		msg += fmt.Sprintf("; %s was activated again", back)
	case f.RollbackError != "":
		msg += fmt.Sprintf("; going back to %s failed too: %s", back, f.RollbackError)
	}
	return msg
}

func genName(n int) string {
	if n == 0 {
		return "none"
	}
	return fmt.Sprintf("generation %d", n)
}

// FailedError is an activation whose step failed after the system was
// changed; Failure says whether it was rolled back.
type FailedError struct {
	Failure *Failure
}

func (e *FailedError) Error() string { return e.Failure.Describe() }

// StepError is a stage of apply that failed (not a crash).
type StepError struct {
	Step string
	Err  error
}

func (e *StepError) Error() string { return fmt.Sprintf("step %s: %v", e.Step, e.Err) }
func (e *StepError) Unwrap() error { return e.Err }

// FailedUnit is a unit that did not come up after an activation.
type FailedUnit struct {
	Unit string
	// Why is its state ("failed (Result=exit-code)") or systemd's refusal.
	Why string
	// Journal holds its last log lines.
	Journal string
}

// ConflictError is a check stage that found paths it may not touch;
// nothing was changed.
type ConflictError struct {
	Conflicts []Conflict
}

func (e *ConflictError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d path(s) in the way; nothing was changed:", len(e.Conflicts))
	for _, c := range e.Conflicts {
		fmt.Fprintf(&b, "\n  %s: %s", c.Path, c.Reason)
	}
	return b.String()
}

// failpoint is called at each stage of an activation; tests make it fail
// (errCrash stops at once, as if the process died). NODEGEN_TEST_KILL_AT
// names a stage at which the process kills itself with SIGKILL, for tests
// that kill a real switch.
var failpoint = func(stage string) error {
	if os.Getenv("NODEGEN_TEST_KILL_AT") == stage {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		time.Sleep(time.Minute)
	}
	return nil
}

var errCrash = errors.New("simulated crash")

// Stages of an activation, in order, as failpoint names them.
var Stages = []string{"generation", "journal", "stop", "backup", "sysusers", "dirs", "static", "place-first", "place", "remove", "restore", "keys", "current", "state", "tmpfiles", "units", "done"}

// Recover completes an activation that a crash interrupted, if the journal
// says there is one, and returns that journal (nil when there was none).
// It never stops the caller: an interrupted activation that cannot be
// completed (a step fails again, a file is in the way) is rolled back, or
// failing that left for the caller to plan around; pending is then the
// journal still on disk.
func (s *System) Recover() (done, pending *Journal, err error) {
	if err := s.cleanGenerations(); err != nil {
		return nil, nil, err
	}
	if err := s.cleanTemp(); err != nil {
		return nil, nil, err
	}
	j, ok, err := s.readJournal()
	if err != nil || !ok {
		return nil, nil, err
	}
	if j.Failed != nil {
		s.logf("%s; activating around it", j.Failed.Describe())
		return nil, &j, nil
	}
	st, err := s.readState()
	if err != nil {
		return nil, nil, err
	}
	s.logf("completing the interrupted activation of %s (from %s)", genName(j.To), genName(j.From))
	p, err := s.plan(st, &j, j.To, "", j.how())
	if err == nil {
		err = p.refusal()
	}
	if err == nil {
		err = s.binaries(p, SwitchOptions{})
	}
	if err != nil {
		s.logf("the interrupted activation of %s cannot be completed: %v; activating around it", genName(j.To), err)
		return nil, &j, nil
	}
	_, err = s.apply(p, SwitchOptions{})
	var se *StepError
	if errors.As(err, &se) {
		f := s.rollBackFailed(&Result{}, p, se, SwitchOptions{})
		if err := s.markFailure(f.Failure); err != nil {
			return nil, nil, err
		}
		if f.Failure.RolledBack {
			return &j, nil, nil
		}
		j, _, err := s.readJournal()
		return nil, &j, err
	}
	if err != nil {
		return nil, nil, err
	}
	return &j, nil, nil
}

// refusal is the error that stops a plan before anything changes: its
// invalid profile entries, then its conflicts.
func (p *Plan) refusal() error {
	if len(p.Invalid) > 0 {
		return &InvalidError{p.Invalid}
	}
	if len(p.Conflicts) > 0 {
		return &ConflictError{p.Conflicts}
	}
	return nil
}

// rollBackFailed handles a step of p's apply that failed: the journal
// records the failure, and the generation active before is activated
// again, with the units the apply stopped started again. It returns the
// *FailedError the activation ends with.
func (s *System) rollBackFailed(res *Result, p *Plan, se *StepError, o SwitchOptions) *FailedError {
	f := &Failure{Generation: p.To, From: p.From, Step: se.Step, Error: se.Err.Error(), Date: s.now().UTC().Format(time.RFC3339)}
	res.Failure = f
	fe := &FailedError{f}
	j := p.journal
	j.Failed, j.Stopped = f, p.Units.Stop
	if err := s.writeJournal(j); err != nil {
		f.RollbackError = err.Error()
		return fe
	}
	s.logf("%s; going back", f.Describe())
	st, err := s.readState()
	if err != nil {
		f.RollbackError = err.Error()
		return fe
	}
	back, err := s.plan(st, &j, p.From, "", planHow{backup: j.Backup})
	if err == nil && len(back.Conflicts) > 0 {
		err = &ConflictError{back.Conflicts}
	}
	if err == nil {
		// The units the failed apply stopped run again.
		back.Units.Start = sorted(append(back.Units.Start, j.Stopped...))
		o.RollbackOnFailure = false
		err = s.binaries(back, o)
	}
	if err != nil {
		f.RollbackError = err.Error()
		return fe
	}
	f.RolledBack = true
	rb := &Result{Plan: back, Generation: p.From}
	failed, err := s.apply(back, o)
	if err != nil {
		f.RolledBack, f.RollbackError = false, err.Error()
		// The journal says the failure still, for the next command.
		if j2, ok, rerr := s.readJournal(); rerr == nil && ok && j2.Failed != nil {
			j2.Failed = f
			if werr := s.writeJournal(j2); werr != nil {
				f.RollbackError += fmt.Sprintf(" (and recording it in the journal: %v)", werr)
			}
		}
		return fe
	}
	rb.Failed = failed
	res.RolledBack = rb
	return fe
}

// Pending returns the journal of an interrupted activation, if any.
func (s *System) Pending() (*Journal, error) {
	j, ok, err := s.readJournal()
	if err != nil || !ok {
		return nil, err
	}
	return &j, nil
}

// begin starts a command that activates: it completes an interrupted
// activation first (not on a dry run), and reads the state. interrupted
// is the journal of an activation still pending (one that could not be
// completed, or any, on a dry run): the command's plan goes around it.
func (s *System) begin(o SwitchOptions) (res *Result, st State, interrupted *Journal, err error) {
	res = &Result{}
	if o.DryRun {
		interrupted, err = s.Pending()
	} else {
		res.Recovered, interrupted, err = s.Recover()
	}
	if err != nil {
		return nil, State{}, nil, err
	}
	st, err = s.readState()
	return res, st, interrupted, err
}

// checkedPlan works out the plan (see plan) into res; conflicts are a
// *ConflictError.
func (s *System) checkedPlan(res *Result, st State, interrupted *Journal, to int, toDir string, how planHow) (*Plan, error) {
	p, err := s.plan(st, interrupted, to, toDir, how)
	if err != nil {
		return nil, err
	}
	res.Plan = p
	return p, p.refusal()
}

// Switch makes the profile in dir a new generation and activates it. A
// profile with the same files as the active generation makes no new
// generation: the active one is activated again, which puts back anything
// missing. Conflicts are a *ConflictError, and change nothing.
//
// The profile is copied into the new generation first, and everything
// after reads the copy: a profile directory replaced during the switch
// changes nothing of it. Assets and packages are provided before the final
// check, so that it sees what they brought (a package's file in the way of
// the profile's is a conflict like an admin's).
func (s *System) Switch(dir string, o SwitchOptions) (*Result, error) {
	res, st, interrupted, err := s.begin(o)
	if err != nil {
		return nil, err
	}
	if o.DryRun {
		to := 0
		if st.Generation != 0 {
			if same, err := s.sameProfile(st.Generation, dir, o.Keys); err != nil {
				return nil, err
			} else if same {
				to, res.Unchanged = st.Generation, true
			}
		}
		p, err := s.planAndProvide(res, st, interrupted, to, dir, s.howOf(o), o, to == 0)
		if err != nil || to != 0 {
			return res, err
		}
		return res, s.runChecks(dir, p.manifest, true)
	}
	n, err := s.addGeneration(dir, st, o.Keys)
	if err != nil {
		return nil, err
	}
	if err := failpoint("generation"); err != nil {
		return nil, err
	}
	to := n
	if st.Generation != 0 {
		if same, err := s.sameGenerations(st.Generation, n); err != nil {
			return nil, err
		} else if same {
			to, res.Unchanged = st.Generation, true
			if err := s.removeGeneration(n); err != nil {
				return nil, fmt.Errorf("removing the copy of the active generation's profile: %w", err)
			}
		}
	}
	// A refused switch leaves no generation behind.
	drop := func(err error) (*Result, error) {
		if to == n {
			if rerr := s.removeGeneration(n); rerr != nil {
				return res, fmt.Errorf("%w (and removing the unused generation %d: %v)", err, n, rerr)
			}
		}
		return res, err
	}
	p, err := s.planAndProvide(res, st, interrupted, to, "", s.howOf(o), o, to == n)
	if err != nil {
		return drop(err)
	}
	// The programs the checks run came with the binaries.
	if to == n {
		if err := s.runChecks(s.genDir(n), p.manifest, false); err != nil {
			return drop(err)
		}
	}
	return s.finish(res, p, o)
}

// planAndProvide works out and checks the plan to generation to (see
// checkedPlan), then provides its assets and packages and, when they
// changed anything, checks again: the plan that is printed and applied is
// the one that saw their files. With DryRun it only says what it would
// download and install.
func (s *System) planAndProvide(res *Result, st State, interrupted *Journal, to int, toDir string, how planHow, o SwitchOptions, fresh bool) (*Plan, error) {
	p, err := s.checkedPlan(res, st, interrupted, to, toDir, how)
	if err != nil {
		return p, err
	}
	if err := s.checkImagePrograms(p.manifest); err != nil {
		return p, err
	}
	bp := s.checkBinaries(p.manifest, o.Offline)
	provided := func(p *Plan) {
		for _, a := range bp.download {
			p.Download = append(p.Download, a.Name)
		}
		p.Install = append(p.Install, bp.install...)
	}
	if !o.DryRun && (len(bp.download)+len(bp.extract)+len(bp.install) > 0 || len(bp.problems) > 0) {
		if err := s.provideBinaries(bp); err != nil {
			return p, err
		}
		if p, err = s.checkedPlan(res, st, interrupted, to, toDir, how); err != nil {
			if p != nil {
				provided(p)
			}
			return p, err
		}
	}
	provided(p)
	if !o.DryRun {
		if err := s.installSelf(); err != nil {
			return p, err
		}
	}
	p.NewGeneration = fresh
	o.checked(p)
	if o.DryRun && len(bp.problems) > 0 {
		return p, &BinariesError{bp.problems}
	}
	if !o.DryRun && o.BeforeChange != nil {
		if err := o.BeforeChange(p); err != nil {
			return p, err
		}
	}
	return p, nil
}

// finish applies a plan, and rolls back when a unit failed and o asks for
// it.
func (s *System) finish(res *Result, p *Plan, o SwitchOptions) (*Result, error) {
	res.Generation = p.To
	failed, err := s.apply(p, o)
	var se *StepError
	if errors.As(err, &se) {
		fe := s.rollBackFailed(res, p, se, o)
		if err := s.markFailure(fe.Failure); err != nil {
			return res, fmt.Errorf("%w (and recording it: %v)", fe, err)
		}
		return res, fe
	}
	if err != nil {
		return res, err
	}
	res.Failed, res.StillFailed = failed, p.stillFailed
	if len(failed) == 0 || !o.RollbackOnFailure {
		return res, s.markActivation(res, p.To)
	}
	res, err = s.rollBackUnits(res, p, o)
	if err != nil {
		if merr := s.setMark(p.To, MarkFailed, fmt.Sprintf("units did not come up: %s; %v", failedNames(failed), err)); merr != nil {
			return res, fmt.Errorf("%w (and recording it: %v)", err, merr)
		}
		return res, err
	}
	return res, s.markActivation(res, p.To)
}

// rollBackUnits activates the generation before p again, after units of
// p's activation did not come up.
func (s *System) rollBackUnits(res *Result, p *Plan, o SwitchOptions) (*Result, error) {
	s.logf("units failed: activating generation %d again", p.From)
	st, err := s.readState()
	if err != nil {
		return res, err
	}
	back, err := s.plan(st, nil, p.From, "", planHow{backup: o.Backup})
	if err != nil {
		return res, fmt.Errorf("rolling back: %w", err)
	}
	if len(back.Conflicts) > 0 {
		return res, fmt.Errorf("rolling back: %w", &ConflictError{back.Conflicts})
	}
	rb := &Result{Plan: back, Generation: p.From}
	o.RollbackOnFailure = false
	if err := s.binaries(back, o); err != nil {
		return res, fmt.Errorf("rolling back: %w", err)
	}
	if rb.Failed, err = s.apply(back, o); err != nil {
		return res, fmt.Errorf("rolling back: %w", err)
	}
	res.RolledBack = rb
	return res, nil
}

// sameProfile reports whether generation n holds the same profile as dir,
// and the same keys.
func (s *System) sameProfile(n int, dir string, keys []keyset.Entry) (bool, error) {
	if same, err := s.sameKeys(n, keys); err != nil || !same {
		return false, err
	}
	a, err := s.readFile(path.Join(generationDir(n), profile.ManifestName))
	if err != nil {
		return false, err
	}
	b, err := os.ReadFile(path.Join(dir, profile.ManifestName))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return false, fmt.Errorf("%s is not a nodegen profile: it has no %s", dir, profile.ManifestName)
		}
		return false, err
	}
	return string(a) == string(b), nil
}

// Rollback activates generation to, or with to = 0 the newest generation
// older than the active one.
func (s *System) Rollback(to int, o SwitchOptions) (*Result, error) {
	res, st, interrupted, err := s.begin(o)
	if err != nil {
		return nil, err
	}
	ns, err := s.generationNumbers()
	if err != nil {
		return nil, err
	}
	if to == 0 {
		if to, err = rollbackTarget(st, ns); err != nil {
			return nil, err
		}
	} else if !slices.Contains(ns, to) {
		return nil, fmt.Errorf("there is no generation %d (run nodegen generations to list them)", to)
	} else if m := st.markOf(to); m != nil {
		s.logf("%s; activating it as asked", m.Describe())
	}
	how := planHow{backup: o.Backup, keepEdits: true, takeOverDir: s.freeName(path.Join(takenOverDir, s.now().UTC().Format("20060102T150405Z")))}
	p, err := s.planAndProvide(res, st, interrupted, to, "", how, o, false)
	if err != nil || o.DryRun {
		res.Generation = to
		return res, err
	}
	return s.finish(res, p, o)
}

// Deactivate removes everything nodegen placed below etc/, stops the units
// the active generation had, and puts back the files it moved aside. The
// generations are kept.
func (s *System) Deactivate(o SwitchOptions) (*Result, error) {
	res, st, interrupted, err := s.begin(o)
	if err != nil {
		return nil, err
	}
	how := planHow{keepEdits: true, takeOverDir: s.freeName(path.Join(takenOverDir, s.now().UTC().Format("20060102T150405Z")))}
	p, err := s.checkedPlan(res, st, interrupted, 0, "", how)
	if err != nil {
		return res, err
	}
	o.checked(p)
	if o.DryRun {
		return res, nil
	}
	o.RollbackOnFailure = false
	return s.finish(res, p, o)
}

// GC removes all generations but the newest keep ones and the active one,
// and returns the numbers removed.
func (s *System) GC(keep int) ([]int, error) {
	_, pending, err := s.Recover()
	if err != nil {
		return nil, err
	}
	st, err := s.readState()
	if err != nil {
		return nil, err
	}
	ns, err := s.generationNumbers()
	if err != nil {
		return nil, err
	}
	// A generation that waits for its confirmation may go back to the
	// one it came from: that one stays until the wait is over.
	waitsFor := -1
	if c, err := s.ReadConfirmation(); err != nil {
		return nil, err
	} else if c != nil && (c.State == ConfirmActivating || c.State == ConfirmWaiting) {
		waitsFor = c.From
	}
	removed := []int{}
	for i, n := range ns {
		if n == st.Generation || n == waitsFor || i >= len(ns)-keep || pending != nil && (n == pending.From || n == pending.To) {
			continue
		}
		if err := s.removeGeneration(n); err != nil {
			return removed, fmt.Errorf("removing generation %d: %w", n, err)
		}
		removed = append(removed, n)
	}
	if err := s.pruneAssets(); err != nil {
		return removed, err
	}
	if err := s.pruneMarks(slices.DeleteFunc(ns, func(n int) bool { return slices.Contains(removed, n) })); err != nil {
		return removed, err
	}
	return removed, s.syncDir(generationsDir)
}

// apply carries out a checked plan; see the package doc for the stages.
// A stage that fails is a *StepError naming it (the caller rolls back);
// errCrash, a simulated death, is returned as it is.
func (s *System) apply(p *Plan, o SwitchOptions) ([]FailedUnit, error) {
	if err := s.writeJournal(p.journal); err != nil {
		return nil, err
	}
	step := func(name string, f func() error) error {
		err := f()
		if err == nil {
			err = failpoint(name)
		}
		if err == nil || errors.Is(err, errCrash) {
			return err
		}
		return &StepError{Step: name, Err: err}
	}
	var target []Placement
	var failed []FailedUnit
	steps := []struct {
		name string
		f    func() error
	}{
		{"journal", func() error { return nil }},
		{"stop", func() error {
			if s.units != nil && len(p.Units.Stop) > 0 {
				s.logf("stopping %s", strings.Join(p.Units.Stop, " "))
				return s.units.Stop(p.Units.Stop)
			}
			return nil
		}},
		{"backup", func() error {
			for _, rel := range p.Backup {
				if err := s.moveAside(rel, backupPath(rel)); err != nil {
					return err
				}
			}
			for _, rel := range p.TakeOver {
				if err := s.moveAside(rel, path.Join(p.journal.TakeOverDir, rel)); err != nil {
					return err
				}
			}
			for _, rel := range p.KeepEdited {
				if err := s.keepEdit(p.From, rel, path.Join(p.journal.TakeOverDir, rel)); err != nil {
					return err
				}
			}
			return nil
		}},
		{"sysusers", func() error { return s.runConfTool(p.To, "etc/sysusers.d/", "systemd-sysusers") }},
		{"dirs", func() error {
			var err error
			if target, err = s.resolveOwners(p.target); err != nil {
				return err
			}
			for _, dir := range p.CreateDirs {
				if err := s.r.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
					return fmt.Errorf("creating %s: %w", s.show(dir), unwrapPath(err))
				}
			}
			return nil
		}},
		{"static", func() error {
			if p.To != 0 {
				return s.symlinkAtomic(staticTarget(p.To), staticLink)
			}
			return s.removeIfOurs(staticLink)
		}},
		{"place", func() error {
			for i, t := range placementsToPlace(p, target) {
				// What is there now must be what the check saw, or
				// nodegen's: a file that appeared since is the admin's.
				// place makes sure of it in the rename itself.
				accept := func(d onDisk) bool { return s.holds(d, t) || s.holdsAny(d, p.mine[t.Path]) }
				err := s.place(p.To, t, accept)
				var ae *appearedError
				if errors.As(err, &ae) {
					return fmt.Errorf("%s: %s appeared there after the check; it was left as it is (move it away, or have nodegen keep it: "+BackupHint+")", s.show(t.Path), describe(ae.d))
				}
				if err != nil {
					return err
				}
				if i == 0 {
					if err := failpoint("place-first"); err != nil {
						return err
					}
				}
			}
			return nil
		}},
		{"remove", func() error {
			for _, rel := range p.Remove {
				// Only what nodegen placed: a file changed since the
				// check stays, no longer managed; removeIf makes sure
				// of it in the removal itself.
				d, err := s.inspect(rel)
				if err != nil {
					return err
				}
				if d.fi == nil {
					continue
				}
				removed, err := s.removeIf(rel, func(d onDisk) bool { return s.holdsAny(d, p.mine[rel]) })
				if err != nil {
					return err
				}
				if !removed {
					s.logf("%s changed after the check: left as it is, no longer managed", s.show(rel))
				}
			}
			return nil
		}},
		{"restore", func() error {
			for _, rel := range p.Restore {
				if d, err := s.inspect(rel); err != nil {
					return err
				} else if d.fi != nil {
					return fmt.Errorf("%s: %s appeared there after the check; nodegen keeps the file it moved aside at %s", s.show(rel), describe(d), s.show(backupPath(rel)))
				}
				// The window between the check and the rename, for
				// tests to write in.
				if err := failpoint("restore:" + rel); err != nil {
					return err
				}
				if err := s.restore(rel); err != nil {
					return err
				}
			}
			return nil
		}},
		{"keys", func() error {
			var err error
			p.keys, err = s.installKeys(p)
			return err
		}},
		{"current", func() error {
			dirs, err := s.pruneDirs(p.journal.Dirs, target)
			if err != nil {
				return err
			}
			p.keptDirs = dirs
			if err := s.syncAll(); err != nil {
				return err
			}
			if p.To != 0 {
				return s.symlinkAtomic(path.Base(generationsDir)+"/"+strconv.Itoa(p.To), currentLink)
			}
			if err := s.r.Remove(currentLink); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return unwrapPath(err)
			}
			return nil
		}},
		{"state", func() error {
			last := max(p.state.LastGeneration, p.To, p.From)
			failures := p.state.Failures
			if p.failure != nil {
				failures = append(failures, *p.failure)
			}
			if len(failures) > maxFailures {
				failures = failures[len(failures)-maxFailures:]
			}
			return s.writeState(State{Generation: p.To, LastGeneration: last, Entries: target, Dirs: p.keptDirs, Failures: failures, Marks: p.state.Marks, Keys: p.keys})
		}},
		{"tmpfiles", func() error { return s.runConfTool(p.To, "etc/tmpfiles.d/", "systemd-tmpfiles", "--create") }},
		{"units", func() error {
			var err error
			failed, p.stillFailed, err = s.actOnUnits(p.Units, o)
			return err
		}},
		{"done", func() error {
			if err := s.r.Remove(journalFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return unwrapPath(err)
			}
			return s.syncDir(stateDir)
		}},
	}
	for _, st := range steps {
		if err := step(st.name, st.f); err != nil {
			return nil, err
		}
	}
	return failed, nil
}

// placementsToPlace are the resolved placements of the plan's Place list.
func placementsToPlace(p *Plan, target []Placement) []Placement {
	want := map[string]bool{}
	for _, t := range p.Place {
		want[t.Path] = true
	}
	var out []Placement
	for _, t := range target {
		if want[t.Path] {
			out = append(out, t)
		}
	}
	return out
}

// resolveOwners gives every copy its uid and gid, now that sysusers ran.
func (s *System) resolveOwners(target []Placement) ([]Placement, error) {
	o := s.readOwners()
	out := make([]Placement, len(target))
	for i, t := range target {
		if t.Kind == KindCopy {
			uid, ok := o.uid(t.User)
			if !ok {
				return nil, fmt.Errorf("%s: user %q (from %s) does not exist", s.show(t.Path), t.User, t.Option)
			}
			gid, ok := o.gid(t.Group)
			if !ok {
				return nil, fmt.Errorf("%s: group %q (from %s) does not exist", s.show(t.Path), t.Group, t.Option)
			}
			t.UID, t.GID = uid, gid
		}
		out[i] = t
	}
	return out, nil
}

// place puts one entry of generation gen in place, over nothing or over
// what accept takes (an *appearedError otherwise: see replace).
func (s *System) place(gen int, t Placement, accept func(onDisk) bool) error {
	if t.Kind != KindCopy {
		return s.replace("linking", t.Path, linkMaker(t.Target), accept)
	}
	data, err := s.readFile(path.Join(generationDir(gen), t.Path))
	if err != nil {
		return fmt.Errorf("generation %d: %s: %w", gen, t.Path, err)
	}
	mode, err := parseMode(t.Mode)
	if err != nil {
		return err
	}
	return s.replace("writing", t.Path, fileMaker(t.Path, bytes.NewReader(data), int64(len(data)), mode, t.UID, t.GID), accept)
}

// removeIfOurs removes a symlink into the generations (etc/static).
func (s *System) removeIfOurs(rel string) error {
	d, err := s.inspect(rel)
	if err != nil || d.fi == nil {
		return err
	}
	if d.fi.Mode()&fs.ModeSymlink != 0 && strings.HasPrefix(d.link, "/"+generationsDir+"/") {
		return unwrapPath(s.r.Remove(rel))
	}
	return nil
}

// moveAside moves the admin's file at rel to dst, its backup.
func (s *System) moveAside(rel, dst string) error {
	if _, err := s.r.Lstat(rel); errors.Is(err, fs.ErrNotExist) {
		return nil // moved already, by the activation a crash interrupted
	}
	if _, err := s.r.Lstat(dst); err == nil {
		// Never over what an earlier activation kept.
		return fmt.Errorf("moving %s aside: %s is there already, kept from earlier; nodegen never overwrites a file it moved aside", s.show(rel), s.show(dst))
	}
	if err := s.r.MkdirAll(path.Dir(dst), 0o700); err != nil {
		return unwrapPath(err)
	}
	if err := s.move(rel, dst); err != nil {
		return fmt.Errorf("moving %s aside to %s: %w", s.show(rel), s.show(dst), err)
	}
	s.logf("moved %s aside to %s", s.show(rel), s.show(dst))
	return nil
}

// restore puts the admin's file kept for rel back.
func (s *System) restore(rel string) error {
	if err := s.r.MkdirAll(path.Dir(rel), 0o755); err != nil {
		return unwrapPath(err)
	}
	if err := s.move(backupPath(rel), rel); err != nil {
		var ae *appearedError
		if errors.Is(err, fs.ErrExist) || errors.As(err, &ae) {
			return fmt.Errorf("%s: something appeared there after the check; nodegen keeps the file it moved aside at %s", s.show(rel), s.show(backupPath(rel)))
		}
		return fmt.Errorf("restoring %s from %s: %w", s.show(rel), s.show(backupPath(rel)), err)
	}
	s.logf("restored %s", s.show(rel))
	// Remove the backup directories left empty.
	for dir := path.Dir(backupPath(rel)); dir != backupDir && strings.HasPrefix(dir, backupDir); dir = path.Dir(dir) {
		if s.r.Remove(dir) != nil {
			break
		}
	}
	return nil
}

// move renames src to dst, which must be free: what appeared at dst is
// never replaced (an error that is fs.ErrExist, or an *appearedError).
// Across file systems it copies (a regular file with its mode and owner,
// or a symlink) and then removes src.
func (s *System) move(src, dst string) error {
	err := s.renameNoReplace(src, dst)
	if err == nil || !errors.Is(err, syscall.EXDEV) {
		return unwrapPath(err)
	}
	nothing := func(onDisk) bool { return false }
	fi, err := s.r.Lstat(src)
	if err != nil {
		return unwrapPath(err)
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := s.r.Readlink(src)
		if err != nil {
			return unwrapPath(err)
		}
		if err := s.replace("linking", dst, linkMaker(target), nothing); err != nil {
			return err
		}
	case fi.Mode().IsRegular():
		data, err := s.r.ReadFile(src)
		if err != nil {
			return unwrapPath(err)
		}
		uid, gid := -1, -1
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			uid, gid = int(st.Uid), int(st.Gid)
		}
		mode := fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
		if err := s.replace("writing", dst, fileMaker(dst, bytes.NewReader(data), int64(len(data)), mode, uid, gid), nothing); err != nil {
			return err
		}
	default:
		return fmt.Errorf("%s is %s, which nodegen does not move across file systems", s.show(src), describe(onDisk{fi: fi}))
	}
	return unwrapPath(s.r.Remove(src))
}

// pruneDirs removes the directories nodegen created that no entry of the
// target needs, deepest first, when they are empty, and returns those
// still there.
func (s *System) pruneDirs(created []string, target []Placement) ([]string, error) {
	needed := map[string]bool{}
	for _, t := range target {
		for _, d := range ancestors(t.Path) {
			needed[d] = true
		}
	}
	dirs := append([]string(nil), created...)
	sort.Sort(sort.Reverse(sort.StringSlice(dirs)))
	var kept []string
	for _, d := range dirs {
		if !needed[d] {
			err := s.r.Remove(d)
			if err == nil || errors.Is(err, fs.ErrNotExist) {
				continue
			}
			// Not empty: something else lives there now.
		}
		if fi, err := s.r.Lstat(d); err == nil && fi.IsDir() {
			kept = append(kept, d)
		}
	}
	return dedupe(kept), nil
}

// runConfTool runs systemd-sysusers or systemd-tmpfiles on the *.conf
// files that generation gen has in dir (given by their paths on the host:
// with --root=DIR the tools read them as they are and apply them below
// DIR).
func (s *System) runConfTool(gen int, dir, tool string, args ...string) error {
	if gen == 0 {
		return nil
	}
	_, m, err := s.readGeneration(gen)
	if err != nil {
		return err
	}
	var files []string
	for _, e := range m.Entries {
		if isConf(e, dir) {
			files = append(files, s.host(path.Join(generationDir(gen), e.Path)))
		}
	}
	if len(files) == 0 {
		return nil
	}
	bin, err := exec.LookPath(tool)
	if err != nil {
		return fmt.Errorf("the profile has %s files, but %s is not installed", strings.TrimSuffix(dir, "/"), tool)
	}
	if s.root != "/" {
		args = append(args, "--root="+s.root)
	}
	cmd := exec.Command(bin, append(args, files...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %v: %s", tool, err, lastLines(string(out), 3))
	}
	return nil
}

// actOnUnits reloads systemd and reloads, restarts and starts units, then
// reads back the state of each and reports those that did not come up, and
// the units failed before that it did not act on and that are failed
// still.
func (s *System) actOnUnits(u UnitPlan, o SwitchOptions) (failed []FailedUnit, still []string, err error) {
	if s.units == nil {
		return nil, nil, nil
	}
	defer func() {
		if err != nil || len(u.FailedBefore) == 0 {
			return
		}
		now, ferr := s.units.Failed()
		if ferr != nil {
			err = ferr
			return
		}
		acted := dedupe(append(append(append([]string{}, u.Reload...), u.Restart...), u.Start...))
		for _, unit := range u.FailedBefore {
			if slices.Contains(now, unit) && !slices.Contains(acted, unit) {
				still = append(still, unit)
			}
		}
	}()
	since := time.Now()
	if err := s.units.DaemonReload(); err != nil {
		return nil, nil, err
	}
	if err := s.resetRemoved(u); err != nil {
		return nil, nil, err
	}
	again, err := s.startSystemUnits(u)
	if err != nil {
		return nil, nil, err
	}
	u.Start = append(u.Start, again...)
	acted := dedupe(append(append(append([]string{}, u.Reload...), u.Restart...), u.Start...))
	if len(acted) == 0 {
		return nil, nil, nil
	}
	// The invocation of each unit before its job: one that ran since has
	// another.
	before, err := s.units.Invocations(acted)
	if err != nil {
		return nil, nil, err
	}
	refused := map[string]string{}
	for _, job := range []struct {
		verb  string
		units []string
	}{{"reload", u.Reload}, {"restart", u.Restart}, {"start", u.Start}} {
		if len(job.units) == 0 {
			continue
		}
		s.logf("%s %s", map[string]string{"reload": "reloading", "restart": "restarting", "start": "starting"}[job.verb], strings.Join(job.units, " "))
		for unit, why := range s.units.Queue(job.verb, job.units) {
			refused[unit] = why
		}
	}
	timeout := o.JobTimeout
	if timeout == 0 {
		timeout = 90 * time.Second
	}
	done, err := s.units.WaitJobs(timeout)
	if err != nil {
		return nil, nil, err
	}
	if done {
		settle := o.Settle
		if settle == 0 {
			settle = time.Second
		}
		time.Sleep(settle)
	}
	// A unit that exited and waits to be restarted (Restart=) is given
	// until the timeout to come up: a service that restarts until what it
	// needs answers (a Kubernetes component and its apiserver) is up then.
	stable := o.Stable
	if stable == 0 {
		stable = 3 * time.Second
	}
	statuses, err := s.unitStatuses(acted, refused, before, stable, since.Add(timeout))
	if err != nil {
		return nil, nil, err
	}
	for _, unit := range acted {
		why, bad := refused[unit]
		if !bad {
			st := statuses[unit]
			if st.skipped(before[unit]) {
				s.logf("%s: not started: a condition of it does not hold (it starts once it does)", unit)
				continue
			}
			var up bool
			if up, why = st.judge(before[unit]); up {
				continue
			}
			// Unloaded since it ended well, and never run before: the
			// journal says whether it ran.
			if st.ActiveState == "inactive" && st.Result == "success" && st.InvocationID == "" && s.units.Succeeded(unit, since) {
				continue
			}
			if st.ActiveState == "activating" || st.ActiveState == "deactivating" {
				why += " after " + timeout.String()
			}
		}
		failed = append(failed, FailedUnit{Unit: unit, Why: why, Journal: s.units.Journal(unit, 10, since)})
	}
	return failed, nil, nil
}

// resetRemoved resets the failed state of the units that u removes (or
// masks) and that are failed now: those failed before, and those that
// failed while they were stopped.
func (s *System) resetRemoved(u UnitPlan) error {
	if len(u.removed) == 0 {
		return nil
	}
	now, err := s.units.Failed()
	if err != nil {
		return err
	}
	var reset []string
	for _, unit := range u.removed {
		if slices.Contains(now, unit) {
			reset = append(reset, unit)
		}
	}
	if len(reset) == 0 {
		return nil
	}
	s.logf("resetting the failed state of %s (removed)", strings.Join(reset, " "))
	return s.units.ResetFailed(reset)
}

// unitStatuses returns the status of each unit of units that systemd did
// not refuse, asking again for those waiting to be restarted
// (SubState=auto-restart) or starting again (activating), and for an
// active unit that ran since before until it has kept one InvocationID
// for stable (one that runs again and again under new ones is marked
// Flapping), until none is left to ask, or until deadline.
func (s *System) unitStatuses(units []string, refused map[string]string, before map[string]Invocation, stable time.Duration, deadline time.Time) (map[string]UnitStatus, error) {
	statuses := map[string]UnitStatus{}
	pending := []string{}
	for _, unit := range units {
		if _, bad := refused[unit]; !bad {
			pending = append(pending, unit)
		}
	}
	// since is when each active unit was first seen with its current
	// InvocationID; runs counts the InvocationIDs it was seen active with.
	since := map[string]time.Time{}
	runs := map[string]int{}
	for {
		var again []string
		for _, unit := range pending {
			st, err := s.units.Status(unit)
			if err != nil {
				return nil, err
			}
			prev, seen := statuses[unit]
			statuses[unit] = st
			switch {
			// Between two tries a restarting unit is activating
			// again (its ExecStartPre= running), with no job left.
			case st.SubState == "auto-restart" || st.ActiveState == "activating":
				again = append(again, unit)
			case st.ActiveState == "active" && st.InvocationID != "" && st.InvocationID != before[unit].ID:
				if !seen || prev.InvocationID != st.InvocationID || prev.ActiveState != "active" {
					since[unit] = time.Now()
					runs[unit]++
				}
				if time.Since(since[unit]) < stable {
					again = append(again, unit)
				}
			}
		}
		if len(again) == 0 || !time.Now().Before(deadline) {
			for _, unit := range again {
				if st := statuses[unit]; st.ActiveState == "active" && runs[unit] > 1 {
					st.Flapping = true
					statuses[unit] = st
				}
			}
			return statuses, nil
		}
		pending = again
		time.Sleep(min(500*time.Millisecond, stable))
	}
}
