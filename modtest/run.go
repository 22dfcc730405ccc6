package modtest

import (
	"fmt"
	"io/fs"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/nodegen/nodegen/eval"
)

// Runner evaluates the runs of test files.
type Runner struct {
	// Library is the module library every run is evaluated with; nil
	// evaluates a run's modules alone (--bare).
	Library fs.FS
	// ShowTrace adds the evaluation chain to errors.
	ShowTrace bool
	// Match, when set, selects the runs to evaluate by name.
	Match *regexp.Regexp
	// Parallel is how many runs are evaluated at once; 0 means one per
	// CPU.
	Parallel int
	// Limits bound each run's evaluation (eval.Config.Limits).
	Limits eval.Limits
	// FS, when set, holds the modules the runs import (eval.Config.FS):
	// a File's Path is then a path inside it. The language server's
	// holds the editor's unsaved buffers.
	FS fs.FS
	// Machines boots the machines of machine runs and drives their steps
	// (modtest/machinerun). When it is nil, every machine run is skipped
	// with MachineSkip as the reason.
	Machines MachineDriver
	// MachineSkip says why machine runs cannot run here (not root, no
	// systemd-nspawn), when Machines is nil.
	MachineSkip string
	// SkipFails makes a machine run that cannot run fail instead of being
	// skipped: under CI=true, where everything it needs is installed.
	SkipFails bool
}

// MachineDriver runs a machine run: it boots the run's machines, drives
// its steps in order and reports the outcome as a Result. It is given the
// run's file and the run, both without errors.
type MachineDriver interface {
	RunMachines(f *File, r *Run) *Result
}

// Result is the outcome of one run.
type Result struct {
	File string
	Name string
	// Range is the run block's header.
	Range  hcl.Range
	Passed bool
	// Diags are why the run failed: failed asserts (with an *AssertFailure
	// as Extra), evaluation errors, an expect_error that found no match.
	Diags hcl.Diagnostics
	// Warnings are the evaluation's warnings.
	Warnings []eval.Warning
	// Files are the parsed files, for rendering Diags with snippets.
	Files map[string]*hcl.File
	// Skipped, when set, is why the run did not run (a machine run where
	// machines cannot boot); Passed is false and Diags empty.
	Skipped string
	// Notes are lines a machine run reports besides pass or fail: each
	// machine's time from boot to its profile active, the run's total.
	Notes []string
}

// AssertFailure is the Extra of the diagnostic of a failed assert.
type AssertFailure struct {
	// Message is the assert's error_message.
	Message string
	// Condition is the condition's source text.
	Condition string
	// Values are the configuration values the condition reads.
	Values []Value
}

// Value is one configuration value that a condition reads.
type Value struct {
	// Expr is the reference as written, such as config.networking.fqdn.
	Expr  string
	Value cty.Value
	// Error is set instead of Value when the reference has no value.
	Error string
}

// Summaries of the diagnostics a Runner adds.
const (
	SummaryAssertFailed  = "Test assertion failed"
	SummaryNoError       = "Expected an error"
	SummaryWrongError    = "Expected error not found"
	SummaryInternalError = "Internal error"
)

// FileResult is the outcome of one test file.
type FileResult struct {
	Path string
	// Diags are the file's own errors (a file with errors runs nothing).
	Diags hcl.Diagnostics
	Files map[string]*hcl.File
	// Runs holds the selected runs, in file order.
	Runs []*Result
	// NoRuns is true when the file has no run blocks at all.
	NoRuns bool
}

// Failed tells whether the file or any of its runs failed.
func (fr *FileResult) Failed() bool {
	if fr.Diags.HasErrors() {
		return true
	}
	for _, r := range fr.Runs {
		if !r.Passed && r.Skipped == "" {
			return true
		}
	}
	return false
}

// selected returns the runs of f that r.Match selects.
func (rn *Runner) selected(f *File) []*Run {
	var out []*Run
	for _, r := range f.Runs {
		if rn.Match == nil || rn.Match.MatchString(r.Name) {
			out = append(out, r)
		}
	}
	return out
}

// RunFiles parses and runs the test files at paths, calling report with
// each file's result, in the order of paths, as soon as that file and the
// ones before it are done. When Match is set, files without a selected run
// are not reported.
func (rn *Runner) RunFiles(paths []string, report func(*FileResult)) {
	type job struct {
		f   *File
		run *Run
		res **Result
		wg  *sync.WaitGroup
	}
	results := make([]*FileResult, len(paths))
	waits := make([]*sync.WaitGroup, len(paths))
	var jobs []job
	for i, p := range paths {
		f := ParseFile(p)
		fr := &FileResult{Path: f.Path, Diags: f.Diags, NoRuns: len(f.Runs) == 0 && !f.Diags.HasErrors()}
		if f.HCL != nil {
			fr.Files = map[string]*hcl.File{f.Path: f.HCL}
		}
		results[i], waits[i] = fr, &sync.WaitGroup{}
		if f.Diags.HasErrors() {
			continue
		}
		sel := rn.selected(f)
		fr.Runs = make([]*Result, len(sel))
		waits[i].Add(len(sel))
		for j, r := range sel {
			jobs = append(jobs, job{f: f, run: r, res: &fr.Runs[j], wg: waits[i]})
		}
	}
	n := rn.Parallel
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	queue := make(chan job)
	for range n {
		go func() {
			for j := range queue {
				*j.res = rn.Run(j.f, j.run)
				j.wg.Done()
			}
		}()
	}
	go func() {
		for _, j := range jobs {
			queue <- j
		}
		close(queue)
	}()
	for i, fr := range results {
		waits[i].Wait()
		if rn.Match != nil && len(fr.Runs) == 0 && !fr.Diags.HasErrors() {
			continue
		}
		report(fr)
	}
}

// Run evaluates one run of f and checks it.
func (rn *Runner) Run(f *File, r *Run) (res *Result) {
	res = &Result{File: f.Path, Name: r.Name, Range: r.Block.DefRange(), Files: map[string]*hcl.File{f.Path: f.HCL}}
	if r.Diags.HasErrors() {
		res.Diags = r.Diags
		return res
	}
	if r.IsMachineRun() {
		return rn.runMachines(f, r, res)
	}
	defer func() {
		if p := recover(); p != nil {
			res.Passed = false
			res.Diags = append(res.Diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  SummaryInternalError,
				Detail:   fmt.Sprintf("Evaluating this run panicked: %v. This is a bug in nodegen; please report it with the test file.\n\n%s", p, debug.Stack()),
				Subject:  r.Block.DefRange().Ptr(),
			})
		}
	}()
	ev, diags := eval.New(eval.Config{
		Library:   rn.Library,
		ShowTrace: rn.ShowTrace,
		Limits:    rn.Limits,
		FS:        rn.FS,
		Inline:    []eval.InlineModule{{Path: f.Path, File: f.HCL, Body: r.Body}},
	})
	for name, file := range ev.Files() {
		res.Files[name] = file
	}
	if !diags.HasErrors() {
		var d hcl.Diagnostics
		res.Warnings, d = ev.Check()
		diags = append(diags, d...)
	}
	if r.ExpectError != "" {
		res.Diags = expectError(r, diags)
		res.Passed = len(res.Diags) == 0
		return res
	}
	if diags.HasErrors() {
		res.Diags = errorsOnly(diags)
		return res
	}
	for _, a := range r.Asserts {
		res.Diags = append(res.Diags, checkAssert(ev, a, f.HCL.Bytes)...)
	}
	res.Passed = !res.Diags.HasErrors()
	return res
}

// SummaryMachinesUnavailable is the summary of a machine run that could
// not run and must not be skipped (Runner.SkipFails).
const SummaryMachinesUnavailable = "Machines unavailable"

// runMachines hands a machine run to the driver, or skips it.
func (rn *Runner) runMachines(f *File, r *Run, res *Result) *Result {
	if rn.Machines != nil {
		out := rn.Machines.RunMachines(f, r)
		for name, file := range res.Files {
			if _, ok := out.Files[name]; !ok {
				if out.Files == nil {
					out.Files = map[string]*hcl.File{}
				}
				out.Files[name] = file
			}
		}
		return out
	}
	why := rn.MachineSkip
	if why == "" {
		why = "no machine driver"
	}
	return MachinesUnavailable(r, res, why, rn.SkipFails)
}

// MachinesUnavailable marks res, the result of machine run r, as skipped
// because machines cannot boot here (why), or, when fails (CI), as
// failed at the run block.
func MachinesUnavailable(r *Run, res *Result, why string, fails bool) *Result {
	if fails {
		res.Diags = append(res.Diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  SummaryMachinesUnavailable,
			Detail:   fmt.Sprintf("This run boots machines, which cannot boot here: %s. CI is set, so it fails instead of being skipped.", why),
			Subject:  r.Block.DefRange().Ptr(),
		})
		res.Passed = false
		return res
	}
	res.Skipped = why
	return res
}

// expectError checks that diags has an error containing r.ExpectError.
func expectError(r *Run, diags hcl.Diagnostics) hcl.Diagnostics {
	errs := errorsOnly(diags)
	if len(errs) == 0 {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  SummaryNoError,
			Detail:   fmt.Sprintf("The run was expected to fail with an error containing %q, but the evaluation succeeded.", r.ExpectError),
			Subject:  r.ExpectRange.Ptr(),
		}}
	}
	for _, d := range errs {
		if strings.Contains(d.Summary, r.ExpectError) || strings.Contains(d.Detail, r.ExpectError) {
			return nil
		}
	}
	return append(hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  SummaryWrongError,
		Detail:   fmt.Sprintf("The run was expected to fail with an error containing %q; it failed with %s instead.", r.ExpectError, plural(len(errs), "this error", "these errors")),
		Subject:  r.ExpectRange.Ptr(),
	}}, errs...)
}

func errorsOnly(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			out = append(out, d)
		}
	}
	return out
}

// checkAssert evaluates an assert's condition; when it is false, the
// diagnostic names the error_message and the values the condition reads.
func checkAssert(ev *eval.Evaluator, a *Assert, src []byte) hcl.Diagnostics {
	v, diags := ev.EvalExpr(a.Condition)
	if diags.HasErrors() {
		return diags
	}
	if v.IsNull() || !v.IsKnown() {
		return append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid condition",
			Detail:   "The condition of an assert must be true or false, not null.",
			Subject:  a.Condition.Range().Ptr(),
		})
	}
	b, err := convert.Convert(v, cty.Bool)
	if err != nil || v.Type() != cty.Bool {
		return append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid condition",
			Detail:   fmt.Sprintf("The condition of an assert must be true or false, not a value of type %s.", v.Type().FriendlyName()),
			Subject:  a.Condition.Range().Ptr(),
		})
	}
	if b.True() {
		return diags
	}
	msgVal, d := ev.EvalExpr(a.ErrorMessage)
	diags = append(diags, d...)
	msg := "(error_message could not be evaluated)"
	if !d.HasErrors() {
		if s, err := convert.Convert(msgVal, cty.String); err == nil && !s.IsNull() && s.IsKnown() {
			msg = s.AsString()
		} else {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid error_message",
				Detail:   "The error_message of an assert must be a string.",
				Subject:  a.ErrorMessage.Range().Ptr(),
			})
		}
	}
	fail := &AssertFailure{
		Message:   msg,
		Condition: string(a.Condition.Range().SliceBytes(src)),
		Values:    conditionValues(ev, a.Condition),
	}
	return append(hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  SummaryAssertFailed,
		Detail:   failureDetail(fail),
		Subject:  a.Condition.Range().Ptr(),
		Extra:    fail,
	}}, diags...)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// conditionValues evaluates the configuration references of a condition:
// each traversal rooted at config, root or options, up to its first step
// that is not a static attribute or key.
func conditionValues(ev *eval.Evaluator, expr hclsyntax.Expression) []Value {
	var out []Value
	seen := map[string]bool{}
	for _, t := range hclsyntax.Variables(expr) {
		switch t.RootName() {
		case "config", "root", "options":
		default:
			continue
		}
		t = staticPrefix(t)
		s := traversalString(t)
		if seen[s] {
			continue
		}
		seen[s] = true
		v, diags := ev.EvalExpr(&hclsyntax.ScopeTraversalExpr{Traversal: t, SrcRange: t.SourceRange()})
		val := Value{Expr: s, Value: v}
		if diags.HasErrors() {
			val = Value{Expr: s, Error: diags[0].Summary}
			for _, d := range diags {
				if d.Severity == hcl.DiagError {
					val.Error = d.Summary
					break
				}
			}
		}
		out = append(out, val)
	}
	return out
}

// staticPrefix cuts a traversal before its first index that is not a
// string: config.a.b["c"] stays whole, config.a.list[0] becomes
// config.a.list.
func staticPrefix(t hcl.Traversal) hcl.Traversal {
	for i, step := range t {
		if ix, ok := step.(hcl.TraverseIndex); ok {
			if !ix.Key.IsKnown() || ix.Key.IsNull() || ix.Key.Type() != cty.String {
				return t[:i]
			}
		}
	}
	return t
}

// traversalString writes a traversal as HCL would.
func traversalString(t hcl.Traversal) string {
	var b strings.Builder
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString(".")
			b.WriteString(s.Name)
		case hcl.TraverseIndex:
			if s.Key.Type() == cty.String {
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			} else {
				b.WriteString("[...]")
			}
		case hcl.TraverseSplat:
			b.WriteString("[*]")
		}
	}
	return b.String()
}
