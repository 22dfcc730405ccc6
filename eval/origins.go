package eval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/nodegen/nodegen/eval/internal/declare"
	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// This file tells, for messages, where the values an error involves come
// from: the definitions that made a submodule instance, and the options
// an assertion's condition read, each with its definitions. The user's
// own files come before the library's, since they are what the user can
// change.

// Origin says who wrote a module, and so a definition or a declaration
// in it: the user, in a file of theirs, or the built-in library.
type Origin uint8

const (
	// UserFile is a module the user wrote: a host file, a role, a file
	// they import.
	UserFile Origin = iota
	// Library is a module of the built-in library.
	Library
)

// String is "user file" or "library".
func (o Origin) String() string {
	if o == Library {
		return "library"
	}
	return "user file"
}

// OriginOf tells who wrote the module a range lies in.
func OriginOf(r hcl.Range) Origin {
	if _, ok := LibraryModule(r.Filename); ok {
		return Library
	}
	return UserFile
}

// LibraryModule tells whether name, a file name in diagnostics and
// ranges, names a module of the built-in library, and which: its path in
// the library ("services/cluster/kubernetes/kubelet.hcl").
func LibraryModule(name string) (rel string, ok bool) {
	return strings.CutPrefix(name, syntax.LibraryPrefix)
}

// LibraryFileName is the file name a module of the built-in library
// (rel, its path in the library) has in diagnostics and ranges: the
// inverse of LibraryModule.
func LibraryFileName(rel string) string { return syntax.LibraryPrefix + rel }

// inLibrary tells whether a range lies in a module of the built-in library.
func inLibrary(r hcl.Range) bool { return OriginOf(r) == Library }

// userFirst sorts ranges stably with the user's files before the library's,
// and drops repeated ones.
func userFirst(rs []hcl.Range) []hcl.Range {
	out := slices.Clone(rs)
	slices.SortStableFunc(out, func(a, b hcl.Range) int {
		switch la, lb := inLibrary(a), inLibrary(b); {
		case la == lb:
			return 0
		case lb:
			return -1
		}
		return 1
	})
	return slices.CompactFunc(out, func(a, b hcl.Range) bool { return a == b })
}

// showRanges lists ranges as "a, b and c".
func showRanges(rs []hcl.Range) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = options.ShowPos(r)
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// userRange is the first of rs in the user's files.
func userRange(rs []hcl.Range) (hcl.Range, bool) {
	for _, r := range rs {
		if !inLibrary(r) {
			return r, true
		}
	}
	return hcl.Range{}, false
}

// origin says which definitions made a submodule instance, the user's
// first: "The submodule instance "a.b" is defined at host.hcl:3:5." It is
// "" at the top level.
func (inst *instance) origin() string {
	if len(inst.loc) == 0 {
		return ""
	}
	if len(inst.defRanges) == 0 {
		return fmt.Sprintf("In the submodule instance %q.", inst.loc.String())
	}
	return fmt.Sprintf("The submodule instance %q is defined at %s.", inst.loc.String(), showRanges(inst.defRanges))
}

// userDefinitionsNote lists, for an evaluation chain, the user's
// definitions of option n of inst and of the submodule instance it is in:
// the lines to look at when the chain runs through the library. It is ""
// when the user defined neither.
func userDefinitionsNote(inst *instance, n *declare.Node) string {
	var user []hcl.Range
	if s := inst.peekState(n); s != nil {
		for _, d := range s.defs {
			if !inLibrary(d.Range) {
				user = append(user, d.Range)
			}
		}
	}
	var b strings.Builder
	if len(user) > 0 {
		fmt.Fprintf(&b, "\n      defined at %s", showRanges(userFirst(user)))
	}
	if r, ok := userRange(inst.defRanges); ok {
		fmt.Fprintf(&b, "\n      in the submodule instance %q defined at %s", inst.loc.String(), options.ShowPos(r))
	}
	return b.String()
}

// noteOrigin adds, to the errors about an option of a submodule instance
// the user defined that do not point into the user's definition, where
// that definition is: an error in the library's part of the instance is
// caused by what the user's definition holds. An error located in the
// library (a unit name the library makes of the instance's name, say) is
// moved to the user's definition, the line to fix, as undefinedDiag
// does; the detail still names the library's line.
func (inst *instance) noteOrigin(diags hcl.Diagnostics) {
	user, ok := userRange(inst.defRanges)
	if !ok || len(inst.loc) == 0 {
		return
	}
	o := inst.origin()
	for _, d := range diags {
		x, ok := d.Extra.(options.DiagExtra)
		if !ok || d.Severity != hcl.DiagError || len(x.Option) <= len(inst.loc) || !slices.Equal(x.Option[:len(inst.loc)], inst.loc) ||
			strings.Contains(d.Detail, o) || inst.inDefinition(d.Subject) {
			continue
		}
		if d.Subject != nil && inLibrary(*d.Subject) {
			d.Detail = joinNotes(d.Detail, fmt.Sprintf("The library makes it at %s from the submodule instance %q, which is defined here.", options.ShowPos(*d.Subject), inst.loc.String()))
			d.Subject, d.Context = user.Ptr(), nil
			continue
		}
		d.Detail = joinNotes(d.Detail, o)
	}
}

// inDefinition tells whether r lies in one of the definitions that made
// the instance.
func (inst *instance) inDefinition(r *hcl.Range) bool {
	if r == nil {
		return false
	}
	for _, def := range inst.defRanges {
		if def.Filename == r.Filename && def.ContainsOffset(r.Start.Byte) {
			return true
		}
	}
	return false
}

// optionRead is an option an assertion's condition read.
type optionRead struct {
	inst *instance
	n    *declare.Node
}

// readRecorder collects the options an expression reads itself (directly
// or through locals), not those read to compute them.
type readRecorder struct {
	// base is the length of the evaluation chain when recording began.
	base  int
	reads []optionRead
	// hosts are the options of other hosts read (see Hosts.read).
	hosts []hostOptionRead
}

// record notes that option n of inst is being read, when an assertion's
// condition reads it and not an option it depends on.
func (ev *Evaluator) record(inst *instance, n *declare.Node) {
	r := ev.recorder
	if r == nil {
		return
	}
	for _, f := range ev.stack[min(r.base, len(ev.stack)):] {
		if f.opt != nil {
			return
		}
	}
	for _, o := range r.reads {
		if o.inst == inst && o.n == n {
			return
		}
	}
	r.reads = append(r.reads, optionRead{inst: inst, n: n})
}

// readsNote lists the options an assertion's condition read with where
// each was defined: the options the user defined first, each with its
// live definitions (the user's first), then those that have only their
// default.
func readsNote(reads []optionRead) string {
	type line struct {
		text string
		user bool
	}
	var lines []line
	for _, o := range reads {
		s := o.inst.peekState(o.n)
		if s == nil || s.status != done {
			continue
		}
		var rs []hcl.Range
		for i, d := range s.parts {
			if d.State != property.Won || (i == 0 && o.n.Opt.DefaultExpr != nil) {
				continue
			}
			rs = append(rs, d.Range)
		}
		rs = userFirst(rs)
		name := o.inst.fullPath(o.n.Path).String()
		switch {
		case len(rs) > 0:
			_, user := userRange(rs)
			lines = append(lines, line{text: fmt.Sprintf("%s, defined at %s", name, showRanges(rs)), user: user})
		case s.defined:
			lines = append(lines, line{text: name + ", its default"})
		default:
			lines = append(lines, line{text: name + ", not defined"})
		}
	}
	if len(lines) == 0 {
		return ""
	}
	slices.SortStableFunc(lines, func(a, b line) int {
		switch {
		case a.user == b.user:
			return 0
		case a.user:
			return -1
		}
		return 1
	})
	var b strings.Builder
	b.WriteString("The condition read:")
	for _, l := range lines {
		b.WriteString("\n  " + l.text)
	}
	return b.String()
}

// maxStaticReads bounds how many locals staticReads follows, so that a
// message never costs more than a small walk of the source.
const maxStaticReads = 64

// staticReads adds to reads the options expr refers to in its source,
// following locals: what an assertion's condition read through a local
// that was computed before the condition (and is memoised), which
// recording at evaluation time does not see. It evaluates nothing; a
// reference whose path goes on into an option's value is left out.
func (sc *scope) staticReads(expr hclsyntax.Expression, reads []optionRead) []optionRead {
	budget := maxStaticReads
	var walk func(sc *scope, tr hcl.Traversal)
	walk = func(sc *scope, tr hcl.Traversal) {
		path := traversalNames(tr)
		switch tr.RootName() {
		case "config":
			reads = addStaticRead(reads, sc.inst, path)
		case "root":
			reads = addStaticRead(reads, sc.inst.ev.top, path)
		case "local":
			if len(path) == 0 || budget == 0 || sc.locals == nil {
				return
			}
			budget--
			for ls := sc.locals; ls != nil; ls = ls.parent {
				a, ok := ls.attrs[path[0]]
				if !ok {
					continue
				}
				if st, ok := a.Expr.(*hclsyntax.ScopeTraversalExpr); ok && len(tr) == len(path)+1 {
					// local.cfg.enable where cfg = config.a.b: config.a.b.enable
					walk(ls.sc, append(slices.Clone(st.Traversal), tr[2:]...))
					return
				}
				for _, v := range a.Expr.Variables() {
					walk(ls.sc, v)
				}
				return
			}
		}
	}
	for _, v := range expr.Variables() {
		walk(sc, v)
	}
	return reads
}

// traversalNames is the names a traversal's steps after its root take, up
// to the first that is not a name (an index by a number, a splat).
func traversalNames(tr hcl.Traversal) []string {
	var out []string
	for _, step := range tr[1:] {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			out = append(out, s.Name)
		case hcl.TraverseIndex:
			if !s.Key.IsKnown() || s.Key.IsNull() || s.Key.Type() != cty.String {
				return out
			}
			out = append(out, s.Key.AsString())
		default:
			return out
		}
	}
	return out
}

// addStaticRead adds the option at path of inst to reads, when path names
// one exactly.
func addStaticRead(reads []optionRead, inst *instance, path []string) []optionRead {
	n := inst.root
	for i, seg := range path {
		c := n.Children[seg]
		if c == nil {
			return reads
		}
		if c.Opt != nil {
			if i != len(path)-1 {
				return reads
			}
			for _, o := range reads {
				if o.inst == inst && o.n == c {
					return reads
				}
			}
			return append(reads, optionRead{inst: inst, n: c})
		}
		n = c
	}
	return reads
}
