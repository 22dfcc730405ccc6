package eval

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/eval/internal/declare"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// This file answers, for a message about something an option made (a
// line of a generated file that a program refuses), where to point: the
// definitions of that option that won, the user's first. Unlike Explain,
// it shows no value and lists no lost definitions.

// Definition is a definition of an option that won: where it is, and
// whether the user or the library wrote it.
type Definition struct {
	Range  hcl.Range
	Origin Origin
}

// namespaceDepth bounds how many levels of namespaces Definitions looks
// into for the options the user defined.
const namespaceDepth = 3

// Definitions returns the definitions that won of the option at p, which
// may lie inside submodule instances (environment.etc."x".text); when p
// goes on inside the value of an option (a key of an attrsOf option),
// those that set the key. When p is a namespace rather than an option
// of the top level (services.chrony), it returns the user's winning
// definitions of the options in it, three levels of namespaces down, in
// order of their paths. The user's definitions come first. An option that does not
// exist or does not evaluate has none: the error is reported where its
// value is read.
//
// An evaluation that left unused modules out (see unused.go) answers for
// a path along one of their options with its Whole: a profile's origin
// may name any option.
func (ev *Evaluator) Definitions(p options.Path) []Definition {
	if ev.alongLeftOut(p) {
		if whole := ev.Whole(); whole != ev {
			return whole.Definitions(p)
		}
	}
	var rs []hcl.Range
	if ns := declare.LookupDecl(ev.top.root, p); ns != nil && ns.Opt == nil && ns.Rename == nil {
		// A namespace of the top level (services.chrony).
		if ev.top.drainTo(ns.Path).HasErrors() {
			return nil
		}
		return definitions(ev.top.userRangesIn(ns, namespaceDepth))
	}
	inst, n, _, key, diags := ev.lookupOptionHops(p)
	if n == nil || diags.HasErrors() {
		return nil
	}
	switch {
	case key != nil:
		// (the definitions that won: those under a false condition of
		// the modules left out are not needed, see explain)
		x, d := ev.explain(p, false)
		if d.HasErrors() || x == nil {
			return nil
		}
		for _, def := range x.Definitions {
			if def.State == property.Won {
				rs = append(rs, def.Range)
			}
		}
	case n.Opt != nil:
		rs = inst.wonRanges(n, false)
	}
	return definitions(rs)
}

// definitions are the definitions at rs, the user's first.
func definitions(rs []hcl.Range) []Definition {
	rs = userFirst(rs)
	out := make([]Definition, len(rs))
	for i, r := range rs {
		out[i] = Definition{Range: r, Origin: OriginOf(r)}
	}
	return out
}

// wonRanges forces the option n of inst and returns where its
// definitions that won are (only the user's with userOnly); none when it
// does not evaluate.
func (inst *instance) wonRanges(n *declare.Node, userOnly bool) []hcl.Range {
	s := inst.force(n, hcl.Range{Filename: commandLine})
	if s.diags.HasErrors() {
		return nil
	}
	var rs []hcl.Range
	for _, part := range s.parts {
		if part.State == property.Won && (!userOnly || !inLibrary(part.Range)) {
			rs = append(rs, part.Range)
		}
	}
	return rs
}

// userRangesIn returns where the user's winning definitions of the
// options in the namespace n of inst are, depth levels of namespaces
// down, in order of their paths.
func (inst *instance) userRangesIn(n *declare.Node, depth int) []hcl.Range {
	if depth == 0 {
		return nil
	}
	var rs []hcl.Range
	for _, name := range n.Names {
		c := n.Children[name]
		switch {
		case c.Opt != nil:
			rs = append(rs, inst.wonRanges(c, true)...)
		case c.Rename == nil:
			rs = append(rs, inst.userRangesIn(c, depth-1)...)
		}
	}
	return rs
}
