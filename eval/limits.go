package eval

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/internal/hclguard"
	"github.com/nodegen/nodegen/lib"
)

// Limits bound what one evaluation may read and compute, so that any
// input, however large or deep, ends in a located error within seconds and
// in bounded memory instead of exhausting the machine. A zero field takes
// its default (DefaultLimits).
type Limits struct {
	// Depth is how long the evaluation chain may grow (options and
	// expressions being evaluated, each waiting for the next).
	Depth int
	// Elements is how many elements one list, set, map or object may have.
	Elements int
	// StringBytes is how many bytes one string may have.
	StringBytes int
	// Allocation is how many bytes one evaluation may allocate for the
	// values it computes, an estimate: the bytes of every string made plus
	// allocationPerElement for every element of every collection made.
	Allocation int64
	// FileBytes is how many bytes one file may have: a module, a file()
	// or an environment.etc source.
	FileBytes int64
	// Files is how many module files one evaluation may load.
	Files int
	// Time is how long evaluating may take.
	Time time.Duration
}

// DefaultLimits are the limits of an evaluation that sets none. Each is
// far above what a real host needs (the whole library with the largest
// fixture makes some 2 MB of values, the generated set of 1000 modules of
// the benchmarks 6 MB)
// and small enough that an evaluation stops within seconds and well under
// 1 GiB of memory.
var DefaultLimits = Limits{
	Depth:       10000,
	Elements:    1 << 20,
	StringBytes: 64 << 20,
	Allocation:  256 << 20,
	FileBytes:   64 << 20,
	Files:       10000,
	Time:        60 * time.Second,
}

// A Limit names a bound an evaluation stopped at: one of Limits, or a
// bound of the language that no --limit raises. It is the code of the
// error (see OverLimit): tests and callers decide by it, never by the
// error's wording.
type Limit int

// The limits an error can be over.
const (
	// LimitDepth is Limits.Depth: the evaluation chain is too long.
	LimitDepth Limit = iota + 1
	// LimitElements is Limits.Elements: a collection has too many elements.
	LimitElements
	// LimitString is Limits.StringBytes: a string has too many bytes.
	LimitString
	// LimitAllocation is Limits.Allocation: the evaluation made too many
	// values.
	LimitAllocation
	// LimitTime is Limits.Time: the evaluation ran too long.
	LimitTime
	// LimitFiles is Limits.Files: the evaluation imports too many module
	// files.
	LimitFiles
	// LimitNesting is the bound on nesting in one file
	// (hclguard.MaxNestingDepth).
	LimitNesting
	// LimitFunctionBound is a bound of a library function that no limit
	// raises (lib.BoundError: format's widths and precisions).
	LimitFunctionBound
	// LimitTemplate is the bound on the lines of text in a row in one
	// template, and on the parser's work to join them in one file
	// (hclguard.MaxTemplateLiterals, hclguard.MaxTemplateWork).
	LimitTemplate
)

// OverLimit is the Extra of every error of an evaluation that went over
// one of its limits. Read it with LimitOf.
type OverLimit struct {
	// Limit is the limit gone over.
	Limit Limit
}

// LimitOf returns the limit the error d reports going over, 0 when d is
// not about a limit. It knows the errors of the checks before parsing
// (internal/hclguard) too.
func LimitOf(d *hcl.Diagnostic) Limit {
	if x, ok := hcl.DiagnosticExtra[OverLimit](d); ok {
		return x.Limit
	}
	if _, ok := hcl.DiagnosticExtra[hclguard.NestingTooDeep](d); ok {
		return LimitNesting
	}
	if _, ok := hcl.DiagnosticExtra[hclguard.TemplateTooLong](d); ok {
		return LimitTemplate
	}
	return 0
}

// libLimit is the Limit of a lib.TooLargeError's limit name.
func libLimit(name string) Limit {
	if name == "elements" {
		return LimitElements
	}
	return LimitString
}

// maxDepth is the most that the depth limit may be raised to: each step of
// the chain takes some 13 KB of Go stack, whose size is bounded to 1 GB.
const maxDepth = 50000

// allocationPerElement is what Limits.Allocation counts for one element of
// a collection: the value, its type and the thunk and scope that evaluate
// it, measured at about 500 bytes for the elements of a for expression.
const allocationPerElement = 512

// withDefaults returns l with every zero field set to its default.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.Depth == 0 {
		l.Depth = d.Depth
	}
	if l.Elements == 0 {
		l.Elements = d.Elements
	}
	if l.StringBytes == 0 {
		l.StringBytes = d.StringBytes
	}
	if l.Allocation == 0 {
		l.Allocation = d.Allocation
	}
	if l.FileBytes == 0 {
		l.FileBytes = d.FileBytes
	}
	if l.Files == 0 {
		l.Files = d.Files
	}
	if l.Time == 0 {
		l.Time = d.Time
	}
	return l
}

// limitSpec describes one limit that `--limit NAME=VALUE` sets.
type limitSpec struct {
	name string
	what string // what it bounds, for the limits table
	// get returns the limit's value in l, as the table shows it; set
	// parses a value into l.
	get func(l *Limits) string
	set func(l *Limits, v string) error
}

var limitSpecs = []limitSpec{
	{"depth", "steps of the evaluation chain (an option or expression waiting for the next); at most 50000",
		func(l *Limits) string { return strconv.Itoa(l.Depth) },
		func(l *Limits, v string) error {
			if err := setInt(&l.Depth, v, false); err != nil {
				return err
			}
			if l.Depth > maxDepth {
				return fmt.Errorf("depth %d is more than %d: deeper chains would overflow the Go stack", l.Depth, maxDepth)
			}
			return nil
		}},
	{"elements", "elements of one list, set, map or object",
		func(l *Limits) string { return strconv.Itoa(l.Elements) },
		func(l *Limits, v string) error { return setInt(&l.Elements, v, false) }},
	{"string", "bytes of one string",
		func(l *Limits) string { return showBytes(int64(l.StringBytes)) },
		func(l *Limits, v string) error { return setInt(&l.StringBytes, v, true) }},
	{"allocation", "bytes of values one evaluation makes (strings, plus 512 per collection element)",
		func(l *Limits) string { return showBytes(l.Allocation) },
		func(l *Limits, v string) error { return setInt64(&l.Allocation, v) }},
	{"file", "bytes of one file read: a module, file(), an environment.etc source",
		func(l *Limits) string { return showBytes(l.FileBytes) },
		func(l *Limits, v string) error { return setInt64(&l.FileBytes, v) }},
	{"files", "module files one evaluation loads",
		func(l *Limits) string { return strconv.Itoa(l.Files) },
		func(l *Limits, v string) error { return setInt(&l.Files, v, false) }},
	{"time", "time one evaluation may take",
		func(l *Limits) string { return showDuration(l.Time) },
		func(l *Limits, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return fmt.Errorf("want a positive duration such as 90s or 5m, not %q", v)
			}
			l.Time = d
			return nil
		}},
}

// Set sets the limit called name (as the limits table names it) from a
// value: a count, a size in bytes with an optional K, M or G (powers of
// 1024), or for time a duration such as 90s.
func (l *Limits) Set(name, value string) error {
	for _, s := range limitSpecs {
		if s.name == name {
			return s.set(l, value)
		}
	}
	names := make([]string, len(limitSpecs))
	for i, s := range limitSpecs {
		names[i] = s.name
	}
	sort.Strings(names)
	return fmt.Errorf("no limit is called %q (there are %s)", name, strings.Join(names, ", "))
}

// LimitsTable is the table of the evaluation limits that Set sets: each
// limit's name, its default and what it bounds, one a line, aligned.
// `nodegen eval --help` shows it and docs/language.md repeats it.
func LimitsTable() string {
	d := DefaultLimits
	var b strings.Builder
	fmt.Fprintf(&b, "%-10s  %-8s  %s\n", "NAME", "DEFAULT", "BOUNDS")
	for _, s := range limitSpecs {
		fmt.Fprintf(&b, "%-10s  %-8s  %s\n", s.name, s.get(&d), s.what)
	}
	fmt.Fprintf(&b, "%-10s  %-8d  %s\n", "(nesting)", hclguard.MaxNestingDepth, "levels of nesting in one file: blocks, brackets, calls, templates, operator chains (fixed)")
	fmt.Fprintf(&b, "%-10s  %-8d  %s\n", "(template)", hclguard.MaxTemplateLiterals,
		fmt.Sprintf("lines of text in a row in one template or heredoc, at most %d MiB of joining them in a file (fixed)", hclguard.MaxTemplateWork>>20))
	return b.String()
}

func setInt64(p *int64, v string) error {
	n, err := parseSize(v)
	if err != nil {
		return err
	}
	*p = n
	return nil
}

func setInt(p *int, v string, size bool) error {
	var n int64
	var err error
	if size {
		n, err = parseSize(v)
	} else {
		n, err = strconv.ParseInt(v, 10, 32)
		if err != nil || n <= 0 {
			err = fmt.Errorf("want a positive whole number, not %q", v)
		}
	}
	if err != nil {
		return err
	}
	if n > 1<<31-1 {
		return fmt.Errorf("%q is more than the largest such limit, %d", v, 1<<31-1)
	}
	*p = int(n)
	return nil
}

// parseSize parses a positive size in bytes with an optional K, M or G.
func parseSize(v string) (int64, error) {
	mult := int64(1)
	num := v
	if i := len(v) - 1; i > 0 {
		switch v[i] {
		case 'K':
			mult, num = 1<<10, v[:i]
		case 'M':
			mult, num = 1<<20, v[:i]
		case 'G':
			mult, num = 1<<30, v[:i]
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("want a positive size in bytes such as 1048576 or 64M, not %q", v)
	}
	return n * mult, nil
}

// showDuration shows a duration in whole seconds when it is one.
func showDuration(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}

// showBytes shows a size as parseSize reads it, in the largest unit that
// divides it.
func showBytes(n int64) string {
	switch {
	case n%(1<<30) == 0:
		return fmt.Sprintf("%dG", n>>30)
	case n%(1<<20) == 0:
		return fmt.Sprintf("%dM", n>>20)
	case n%(1<<10) == 0:
		return fmt.Sprintf("%dK", n>>10)
	}
	return strconv.FormatInt(n, 10)
}

// tooLarge is the diagnostic of a value over the limit lim, at rng.
func tooLarge(lim Limit, rng hcl.Range, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Value too large",
		Detail:   detail + " Raise the limit with --limit if the configuration really needs it.",
		Subject:  rng.Ptr(),
		Extra:    OverLimit{Limit: lim},
	}
}

// asTooLarge returns err as a lib.TooLargeError, or nil. Only an error
// pays for the pointer errors.As needs, which escapes.
func asTooLarge(err error) *lib.TooLargeError {
	if err == nil {
		return nil
	}
	var big *lib.TooLargeError
	if errors.As(err, &big) {
		return big
	}
	return nil
}

// charge counts n bytes against the evaluation's allocation budget and
// checks its time; going over either is an error at rng.
//
// Once the budget or the time is spent, every later charge is the same
// error, the first, so that the evaluation ends quickly and reports it
// once.
func (ev *Evaluator) charge(n int64, rng hcl.Range) *hcl.Diagnostic {
	if ev.exhausted != nil {
		return ev.exhausted
	}
	ev.stats.Allocated += n
	if ev.stats.Allocated > ev.limits.Allocation {
		ev.exhausted = tooLarge(LimitAllocation, rng, fmt.Sprintf("The evaluation made more than %s of values (limit allocation).", showBytes(ev.limits.Allocation)))
		return ev.exhausted
	}
	return ev.checkTime(rng)
}

// mergeBudget is the options.Budget of the evaluation's merges: a value
// walked is a check of the time, a value made is charged as a collection
// of its elements (checkElements), so that a merge that walks a value
// that shares itself as a tree (2^40 nodes from 42 lines of locals) stops
// at the allocation or time limit.
type mergeBudget struct{ ev *Evaluator }

// Spend implements options.Budget.
func (b mergeBudget) Spend(made int, rng hcl.Range) *hcl.Diagnostic {
	if made == 0 {
		return b.ev.checkTime(rng)
	}
	return b.ev.checkElements(made, rng)
}

// checkTime is an error at rng once the evaluation has run longer than its
// time limit, the same error every time after. It reads the clock only
// every 1024th call.
func (ev *Evaluator) checkTime(rng hcl.Range) *hcl.Diagnostic {
	if ev.exhausted != nil {
		return ev.exhausted
	}
	ev.ticks++
	if ev.ticks%1024 != 0 || time.Since(ev.started) <= ev.limits.Time {
		return nil
	}
	ev.exhausted = &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Evaluation too long",
		Detail:   fmt.Sprintf("The evaluation has run for more than %s (limit time). Raise the limit with --limit if the configuration really needs it.", ev.limits.Time),
		Subject:  rng.Ptr(),
		Extra:    OverLimit{Limit: LimitTime},
	}
	return ev.exhausted
}

// checkValue checks a value just made at rng against the limits on one
// string and one collection and charges it to the allocation budget. It
// looks at the value's top level only: the values inside were checked
// when they were made.
func (ev *Evaluator) checkValue(v cty.Value, rng hcl.Range) *hcl.Diagnostic {
	if !v.IsKnown() || v.IsNull() {
		return nil
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		n := len(v.AsString())
		if n > ev.limits.StringBytes {
			return tooLarge(LimitString, rng, fmt.Sprintf("This string has %d bytes, more than %s (limit string).", n, showBytes(int64(ev.limits.StringBytes))))
		}
		return ev.charge(int64(n), rng)
	case ty.IsListType() || ty.IsSetType() || ty.IsMapType() || ty.IsTupleType() || ty.IsObjectType():
		n := v.LengthInt()
		if n > ev.limits.Elements {
			return tooLarge(LimitElements, rng, fmt.Sprintf("This value has %d elements, more than %d (limit elements).", n, ev.limits.Elements))
		}
		return ev.charge(int64(n)*allocationPerElement, rng)
	}
	return nil
}

// checkTree is an error at rng when v, about to be walked whole by cty or
// a library function (which know nothing of sharing), holds some value
// more than once and so more values at every depth than the elements
// limit: a value that holds another many times over (an object of two
// references to one object, forty times over, is 2^40 values) would be
// walked without end. A value that shares nothing was bounded as it was
// made, and a function checks its own result.
func (ev *Evaluator) checkTree(v cty.Value, rng hcl.Range) *hcl.Diagnostic {
	ty := v.Type()
	if !ty.IsObjectType() && !ty.IsTupleType() && !ty.IsListType() {
		return nil
	}
	if n, shared := ctyelems.TreeSize(v, ev.limits.Elements); shared && n > ev.limits.Elements {
		return tooLarge(LimitElements, rng, fmt.Sprintf("This value holds more than %d values at all depths (limit elements), some of them many times over; it is not walked.", ev.limits.Elements))
	}
	return nil
}

// checkElements checks that a collection of n elements about to be made
// at rng is within the limits, and charges it.
func (ev *Evaluator) checkElements(n int, rng hcl.Range) *hcl.Diagnostic {
	if n > ev.limits.Elements {
		return tooLarge(LimitElements, rng, fmt.Sprintf("This value would have more than %d elements (limit elements).", ev.limits.Elements))
	}
	return ev.charge(int64(n)*allocationPerElement, rng)
}

// libLimits are the limits lib's functions check before they build their
// result.
func (l Limits) libLimits() lib.Limits {
	return lib.Limits{Elements: l.Elements, StringBytes: l.StringBytes}
}

// checkDepth is an error at rng when the evaluation chain is longer than
// the depth limit, so that a runaway evaluation is an error and not a Go
// stack overflow. It checks the time limit too. The chain goes over the
// limit once: a later step over it (a sibling of the step that went over,
// evaluated as the chain unwinds) is the same error, the first, reported
// once.
func (ev *Evaluator) checkDepth(rng hcl.Range) *hcl.Diagnostic {
	if len(ev.stack) > ev.limits.Depth {
		if ev.tooDeep != nil {
			return ev.tooDeep
		}
		ev.tooDeep = &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Evaluation too deep",
			Detail:   fmt.Sprintf("The evaluation chain is more than %d steps long (limit depth). Raise the limit with --limit if the configuration really needs it.", ev.limits.Depth),
			Subject:  rng.Ptr(),
			Extra:    OverLimit{Limit: LimitDepth},
		}
		return ev.tooDeep
	}
	return ev.checkTime(rng)
}

// checkString is an error at rng when a string of n bytes, about to be
// made, is over the string limit.
func (ev *Evaluator) checkString(n int, rng hcl.Range) *hcl.Diagnostic {
	if n > ev.limits.StringBytes {
		return tooLarge(LimitString, rng, fmt.Sprintf("This string would have more than %s (limit string).", showBytes(int64(ev.limits.StringBytes))))
	}
	return nil
}
