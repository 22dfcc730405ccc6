// Package declare is the declaring phase of an evaluation (phase 3 of
// eval's pipeline): Declare is a function of the loaded modules (package
// syntax) and of a narrow evaluator for the expressions declaring reads
// (Consts: the constants, the module's locals and the iterators of
// dynamic blocks, never config), which makes the declared value: the
// option tree of the top level and the trees of the submodule types, with
// each option's type.
//
// The declared value depends on the declaring modules alone and nothing
// changes it once Declare returned it: it holds no lock, and the
// evaluations of a fleet (eval.Fleet) share one, in parallel goroutines,
// each binding the types that name a submodule or path to itself. The
// package imports neither eval nor anything of the runtime that evaluates
// (instances, thunks, the state of options): the import graph keeps the
// layering (eval's TestDeclaringDoesNotEvaluate).
//
// The files: declare.go (the trees, the options, renames and removals),
// dynamic.go (the dynamic blocks that make declarations from a table),
// types.go (the option types: type expressions, named types, formats,
// submodule and freeform types).
package declare

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval/internal/slabs"
	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// Node is a node of an option tree: a namespace, an option, or the old
// path of a renamed or removed option.
type Node struct {
	Path     options.Path
	Children map[string]*Node
	Names    []string // sorted child names

	Opt     *Option
	Rename  *syntax.Rename
	RenMod  *syntax.Module
	Removed *syntax.Remove
	RemMod  *syntax.Module
	// RenameBad is set when the rename's target is wrong (an error of the
	// declaration): the definitions of the old path then stay there.
	RenameBad bool
	// RenamedFrom lists the renamed paths whose definitions land here.
	RenamedFrom []*Node
	// ID numbers a node of the top-level tree from 1 (see
	// Declared.Nodes): eval's top-level instance keeps the node's state at
	// that index; submodule instances keep theirs in a map.
	ID int32
}

// child is the child node named seg, added (with the path p, from slab)
// when there is none yet. A node's children map is made with its first
// child: most nodes are options, which have none.
func (n *Node) child(seg string, p options.Path, slab *[]Node) (c *Node, added bool) {
	if c = n.Children[seg]; c != nil {
		return c, false
	}
	if n.Children == nil {
		n.Children = map[string]*Node{}
	}
	c = slabs.Take(slab)
	c.Path = p
	n.Children[seg] = c
	return c, true
}

// RangeOrZero is the declaration range of an option node, or a zero range.
func (n *Node) RangeOrZero() hcl.Range {
	if n.Opt != nil {
		return n.Opt.Block.DefRange()
	}
	return hcl.Range{}
}

// IsNamespace reports whether n is a namespace: neither an option nor a
// renamed or removed path.
func (n *Node) IsNamespace() bool { return n.Opt == nil && n.Rename == nil && n.Removed == nil }

// Option is one declared option.
type Option struct {
	Path  options.Path
	Type  options.Type
	Block *hclsyntax.Block
	Mod   *syntax.Module
	Body  *syntax.Submodule // the submodule body it is declared in, if any

	DefaultExpr hclsyntax.Expression
	Apply       hclsyntax.Expression
	Example     hclsyntax.Expression
	Description string
	DefaultText string
	// NameTexts are the description and default_text when they read
	// name, the instance's attribute name; Description and DefaultText
	// then hold the text for <name> (see TextsFor).
	NameTexts []*hclsyntax.Attribute
	ReadOnly  bool
	Internal  bool
	// Vars binds the iterators of the dynamic blocks that made the
	// declaration (see dynamic.go) in all its expressions.
	Vars *syntax.Binding
	// Also are the more declarations of the same (submodule) option.
	Also []*hclsyntax.Block

	// ConstDefault is the default's definition when the default is a
	// constant (see syntax.ConstantValue), made when the option is
	// declared, for every instance (for an option of a shared library
	// module, once for the process: see keptOption).
	ConstDefault *options.Def
	// OwnType is set when Type names a submodule or the type path, which
	// each evaluation binds to itself (see eval's Evaluator.typeOf).
	OwnType bool
}

// Declaration describes one option for documentation and tooling (eval's
// Evaluator.Declarations lists them).
type Declaration struct {
	Path        options.Path
	Type        string
	Description string
	// Default is the default's source text, or its default_text (prose,
	// and then DefaultIsText is set); HasDefault tells whether there is one.
	Default       string
	DefaultIsText bool
	HasDefault    bool
	Example       string
	ReadOnly      bool
	Internal      bool
	Range         hcl.Range
}

// Declared is what declaring makes (phase 3), which eval's define and
// force take: the option tree of the top level, with the renamed and
// removed paths, and the trees of every submodule type its options can
// hold. It depends on the declaring modules alone (see
// syntax.Module.Declares), and it is a value: Declare makes it whole and
// nothing changes it after, so that the evaluations of a fleet whose
// declaring modules are the same share one, in parallel goroutines,
// without a lock.
type Declared struct {
	Root *Node
	// Nodes is the number of nodes of the top-level tree, numbered 1 to
	// Nodes (Node.ID).
	Nodes int
	// Renamed are the nodes of the renamed and removed options of the
	// top-level tree, in the order of their names (a walk of the tree by
	// name): the definitions every evaluation's checks look for.
	Renamed []*Node
	// ModDiags are the diagnostics of each module's declarations, Diags
	// those of the tree and of the submodule types, reported by every
	// evaluation of the tree (see eval's Evaluator.declarationDiags).
	ModDiags map[*syntax.Module]hcl.Diagnostics
	Diags    hcl.Diagnostics
	// Facts holds what the evaluations of a tree that several share learn
	// about it and keep for the others (eval's inert modules), by keys of
	// their own.
	Facts sync.Map

	// submodules and formats are the registries the tree was declared
	// with: those of the loaded modules.
	submodules map[string]*syntax.Submodule
	formats    map[string]*syntax.Format
	// subTypes are the trees of the submodule types, by their names (see
	// declarer.subTypeAt): every one that a type of the declared options
	// (or of their submodules, or a freeform type) holds.
	subTypes map[string]*SubType
	// typeCache holds the types of the tree that name a submodule, a
	// format, a named type or path, by source text (see parseType).
	typeCache map[string]options.Type
}

// SubType is the option tree of a set of submodules merged together.
type SubType struct {
	Root   *Node
	Bodies []*syntax.Submodule
	// Freeform is the type of the names no option declares (nil: such a
	// name is an error), declared at FreeformAt.
	Freeform   options.Type
	FreeformAt *hcl.Range
	Diags      hcl.Diagnostics
}

// Consts is the narrow evaluator declaring reads expressions with: the
// for_each and labels of dynamic blocks, and a default made by one from
// its iterators alone. eval implements it over the module's locals, in
// a scope of their own, since no instance exists yet.
type Consts interface {
	// DeclValue is the value of expr, an expression of module m read
	// when the options are declared: over constants, functions, the
	// module's locals and the iterators vars binds, never config (which
	// loading checked when m was parsed).
	DeclValue(m *syntax.Module, vars *syntax.Binding, expr hclsyntax.Expression) (cty.Value, hcl.Diagnostics)
	// CheckElements is the error of a collection of n elements at rng
	// beyond the limits.
	CheckElements(n int, rng hcl.Range) *hcl.Diagnostic
}

// declarer declares the options of loaded modules: what declaring reads
// (the loaded modules, and expressions through consts) and the declared
// value it fills, which nothing else sees until Declare returns it.
type declarer struct {
	*syntax.Modules
	d      *Declared
	consts Consts
	// typeByName holds the named types parsed (see lookupNamedType).
	typeByName map[*syntax.NamedType]options.Type
	// private is set for a declarer that reads a declared value made
	// already (see Declared.SubTypeOf): it adds nothing to it.
	private bool
}

// Declare makes the declared value of the loaded modules l: the option
// tree of the top level from every module's option declarations and
// renames, and the trees of the submodule types. It reports the
// declaration errors of the submodule types now rather than when the
// first instance is made: those of the types options use (merged ones
// too), named by the option's path, then the rest.
func Declare(l *syntax.Modules, consts Consts) *Declared {
	d := &Declared{
		submodules: l.Submodules,
		formats:    l.Formats,
		ModDiags:   map[*syntax.Module]hcl.Diagnostics{},
		subTypes:   map[string]*SubType{},
	}
	dc := &declarer{Modules: l, d: d, consts: consts}
	var entries []declEntry
	for _, m := range l.Mods {
		if !m.Declares() {
			continue
		}
		decls, dd := dc.expandDecls(m, m.Options, nil, nil)
		if len(dd) > 0 {
			d.ModDiags[m] = dd
		}
		for _, o := range decls {
			entries = append(entries, declEntry{syn: o, mod: m})
		}
	}
	root, diags := dc.buildTrie(entries, nil)
	diags = append(diags, addRenames(root, l.Mods)...)
	diags = append(diags, dc.checkRenameKeys(root)...)
	reported := map[*SubType]bool{}
	report := func(st *SubType) {
		if !reported[st] {
			reported[st] = true
			diags = append(diags, st.Diags...)
		}
	}
	dc.walkSubTypes(root, nil, map[string]bool{}, report)
	for _, name := range slices.Sorted(maps.Keys(d.submodules)) {
		report(dc.subTypeAt([]string{name}, nil))
	}
	dc.completeSubTypes(root)
	d.Root, d.Diags = root, diags
	d.Nodes = numberNodes(root, 0, &d.Renamed)
	return d
}

// walkSubTypes builds the trees of the submodule types that the options
// below n hold through attrsOf, listOf, nullOr and uniq, prefix in front
// of their paths (which name them in the trees' errors), and calls built
// with each, as eval's Evaluator.walkOptions walks them.
func (dc *declarer) walkSubTypes(n *Node, prefix options.Path, seen map[string]bool, built func(*SubType)) {
	if o := n.Opt; o != nil {
		if HoldsSubmodule(o.Type) {
			dc.walkSubType(o.Type, prefix.Join(n.Path), seen, built)
		}
		return
	}
	for _, name := range n.Names {
		dc.walkSubTypes(n.Children[name], prefix, seen, built)
	}
}

func (dc *declarer) walkSubType(t options.Type, p options.Path, seen map[string]bool, built func(*SubType)) {
	switch t := t.(type) {
	case options.AttrsOf:
		dc.walkSubType(t.Elem, p.Child("<name>"), seen, built)
	case options.ListOf:
		dc.walkSubType(t.Elem, p.Child("*"), seen, built)
	case options.NullOr:
		dc.walkSubType(t.Elem, p, seen, built)
	case options.Uniq:
		dc.walkSubType(t.Elem, p, seen, built)
	case options.Submodule:
		key := subTypeKey(t.Names)
		if seen[key] {
			return // a recursive submodule
		}
		seen[key] = true
		defer delete(seen, key)
		st := dc.subTypeAt(t.Names, p)
		built(st)
		if st.Root != nil {
			dc.walkSubTypes(st.Root, p, seen, built)
		}
	}
}

// completeSubTypes builds the trees of the submodule types left that an
// evaluation can instantiate: those inside either and oneOf, and those of
// the freeform types, which walkSubTypes does not reach, so that the
// declared value holds every tree its evaluations ask for. Their errors
// are reported when an instance is made, as when they were built then.
func (dc *declarer) completeSubTypes(root *Node) {
	var fromTree func(n *Node)
	var fromType func(t options.Type)
	fromType = func(t options.Type) {
		switch t := t.(type) {
		case options.AttrsOf:
			fromType(t.Elem)
		case options.ListOf:
			fromType(t.Elem)
		case options.NullOr:
			fromType(t.Elem)
		case options.Uniq:
			fromType(t.Elem)
		case options.Either:
			fromType(t.A)
			fromType(t.B)
		case options.OneOf:
			for _, a := range t.Alts {
				fromType(a)
			}
		case options.Submodule:
			if _, ok := dc.d.subTypes[subTypeKey(t.Names)]; ok {
				return
			}
			st := dc.subTypeAt(t.Names, nil)
			fromTree(st.Root)
			fromType(st.Freeform)
		}
	}
	fromTree = func(n *Node) {
		if n == nil {
			return
		}
		if n.Opt != nil {
			fromType(n.Opt.Type)
			return
		}
		for _, name := range n.Names {
			fromTree(n.Children[name])
		}
	}
	fromTree(root)
	// The trees built so far, in the order of their names, so that what
	// is built is the same whatever the order of the map.
	for _, key := range slices.Sorted(maps.Keys(dc.d.subTypes)) {
		st := dc.d.subTypes[key]
		fromTree(st.Root)
		fromType(st.Freeform)
	}
}

// numberNodes numbers the nodes of the tree at n after last, in the order
// of their names, and returns the last number given; it adds the renamed
// and removed options it meets (leaves: addRenames places none above
// another node) to renamed, in the same order.
func numberNodes(n *Node, last int, renamed *[]*Node) int {
	last++
	n.ID = int32(last)
	if n.Rename != nil || n.Removed != nil {
		*renamed = append(*renamed, n)
	}
	for _, name := range n.Names {
		last = numberNodes(n.Children[name], last, renamed)
	}
	return last
}

// declEntry is an option declaration with where it is written.
type declEntry struct {
	syn  *syntax.OptionDecl
	mod  *syntax.Module
	body *syntax.Submodule
}

// buildTrie builds an option tree from declarations. prefix is where the
// tree sits (the option holding a submodule), for messages only.
func (dc *declarer) buildTrie(entries []declEntry, prefix options.Path) (*Node, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	full := func(p options.Path) string { return prefix.Join(p).String() }
	root := &Node{}
	// defaultAt is, for an option declared several times, a later
	// declaration that gives a default when the first does not.
	var defaultAt map[*Option]*hclsyntax.Block
	// An option and its node for each entry, in two allocations; the
	// namespaces above them take nodes from the slab too.
	decls := make([]Option, 0, len(entries))
	nodes := make([]Node, 0, len(entries))
	for _, e := range entries {
		d, dd := dc.decodeOption(e, &decls)
		diags = append(diags, dd...)
		if d == nil {
			continue
		}
		dc.settleDefault(d)
		n := root
		ok := true
		for i, seg := range d.Path {
			if n.Opt != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("Option %q would be a parent of option %q", full(n.Path), full(d.Path)),
					Detail:   fmt.Sprintf("The option %q declared at %s has a type (%s) that does not hold declared options.", full(n.Path), options.ShowPos(n.Opt.Block.DefRange()), n.Opt.Type.Description()),
					Subject:  e.syn.Block.DefRange().Ptr(),
				})
				ok = false
				break
			}
			n, _ = n.child(seg, d.Path[:i+1], &nodes)
		}
		if !ok {
			continue
		}
		switch {
		case n.Opt != nil:
			if t, merged := options.MergeTypes(n.Opt.Type, d.Type); merged {
				first := defaultAt[n.Opt]
				if first == nil && n.Opt.DefaultExpr != nil {
					first = n.Opt.Block
				}
				if first != nil && d.DefaultExpr != nil {
					// As NixOS's mergeOptionDecls: one declaration
					// gives the default.
					diags = append(diags, &hcl.Diagnostic{
						Severity: hcl.DiagError,
						Summary:  fmt.Sprintf("Option %q has two defaults", full(d.Path)),
						Detail: fmt.Sprintf("The option %q is declared with a default at %s and at %s. Its declarations merge (their submodules do), but only one of them may give a default, as in NixOS.",
							full(d.Path), options.ShowPos(first.DefRange()), options.ShowPos(d.Block.DefRange())),
						Subject: d.DefaultExpr.Range().Ptr(),
					})
					continue
				}
				if first == nil && d.DefaultExpr != nil {
					if defaultAt == nil {
						defaultAt = map[*Option]*hclsyntax.Block{}
					}
					defaultAt[n.Opt] = d.Block
				}
				n.Opt.Type, n.Opt.OwnType = t, n.Opt.OwnType || d.OwnType
				n.Opt.Also = append(n.Opt.Also, d.Block)
				continue
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Option %q is already declared", full(d.Path)),
				Detail:   fmt.Sprintf("The option %q is declared here and at %s. An option is declared once; only submodule options may be declared in several places, and their submodules merge.", full(d.Path), options.ShowPos(n.Opt.Block.DefRange())),
				Subject:  d.Block.DefRange().Ptr(),
			})
		case len(n.Children) > 0:
			var first *Node
			for _, name := range slices.Sorted(maps.Keys(n.Children)) {
				first = firstOption(n.Children[name])
				if first != nil {
					break
				}
			}
			detail := fmt.Sprintf("The option %q has options declared below it", full(d.Path))
			if first != nil {
				detail += fmt.Sprintf(", such as %q at %s", full(first.Path), options.ShowPos(first.Opt.Block.DefRange()))
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Option %q would be a parent of other options", full(d.Path)),
				Detail:   detail + ". A namespace of options cannot itself be an option.",
				Subject:  d.Block.DefRange().Ptr(),
			})
		default:
			n.Opt = d
		}
	}
	finishTrie(root)
	return root, diags
}

// firstOption is the first option at or below n, in the order of the
// names.
func firstOption(n *Node) *Node {
	if n.Opt != nil {
		return n
	}
	for _, name := range slices.Sorted(maps.Keys(n.Children)) {
		if f := firstOption(n.Children[name]); f != nil {
			return f
		}
	}
	return nil
}

// finishTrie sorts the names of the children of every node below n.
func finishTrie(n *Node) {
	n.Names = slices.Sorted(maps.Keys(n.Children))
	for _, c := range n.Children {
		finishTrie(c)
	}
}

// settleDefault makes the definition of o's default when it is a constant,
// or made by a dynamic block from its iterators alone, once for the
// declared tree, which evaluations then only read.
func (dc *declarer) settleDefault(o *Option) {
	if o.ConstDefault != nil || o.DefaultExpr == nil {
		return
	}
	d, constant := constantDefault(o.DefaultExpr)
	if !constant {
		// A default made by a dynamic block may read its iterators alone.
		var v cty.Value
		if v, constant = IteratorValue(dc.consts, o, o.DefaultExpr); constant {
			d = DefaultAt(o.DefaultExpr, property.ForcedVal(v, o.DefaultExpr.Range()))
		}
	}
	if constant {
		o.ConstDefault = &d
	}
}

// optionArgs are the arguments an option block takes.
var optionArgs = []string{"type", "default", "default_text", "example", "description", "apply", "read_only", "internal"}

// keptOption is the option kept for syn, if any. Declaring keeps, in
// their syntax (syntax.OptionDecl's Decoded), the options declared in the
// files of the library modules the process shares (syntax.Module.Shared
// and syntax.OptionDecl.InFile: a declaration an evaluation makes is never
// kept, so that nothing grows with the evaluations) as decodeOption read
// them, when it found nothing wrong: what it reads depends on the syntax
// alone, and so does the type when it is one of sharedTypes (else the
// kept declaration has no type, and each evaluation parses its own). An
// evaluation starts each such option from a copy of the kept one, which it
// may then change (a merged submodule type, the constant default). In the
// syntax, not in a map of the process: a look-up is one atomic load, and
// a process that evaluates once (nodegen eval) pays no map inserts for the
// thousands of options it keeps.
func keptOption(syn *syntax.OptionDecl) (*Option, bool) {
	o, ok := syn.Decoded.Load().(*Option)
	return o, ok
}

// KeepDecoded says to use keptOption; eval's tests turn it off to
// check it against reading every block anew.
var KeepDecoded = true

// decodeOption reads one option block, or copies what keptOption kept
// of it, into an Option from slab (see slabs.Take).
func (dc *declarer) decodeOption(e declEntry, slab *[]Option) (*Option, hcl.Diagnostics) {
	shared := KeepDecoded && e.syn.InFile && e.mod != nil && e.mod.Shared
	if shared {
		if kept, ok := keptOption(e.syn); ok {
			d := slabs.Take(slab)
			*d = *kept
			if d.Type != nil {
				return d, nil
			}
			t, own, diags := dc.parseType(e.mod, e.syn.Attrs["type"].Expr)
			if t == nil || diags.HasErrors() {
				return nil, diags
			}
			d.Type, d.OwnType = t, own
			return d, diags
		}
	}
	d, diags := dc.readOption(e, slab)
	if shared && d != nil && len(diags) == 0 {
		kept := *d
		if d.OwnType {
			kept.Type, kept.OwnType = nil, false
		}
		if d.DefaultExpr != nil {
			if def, ok := constantDefault(d.DefaultExpr); ok {
				kept.ConstDefault = &def
			}
		}
		e.syn.Decoded.Store(&kept)
	}
	return d, diags
}

// readOption is decodeOption reading the block.
func (dc *declarer) readOption(e declEntry, slab *[]Option) (d *Option, diags hcl.Diagnostics) {
	b := e.syn.Block
	d = slabs.Take(slab)
	*d = Option{Path: options.Path(e.syn.Path), Block: b, Mod: e.mod, Body: e.body, Vars: e.syn.Vars}
	// Room for the eight arguments an option takes, on the stack.
	var sorted [8]*hclsyntax.Attribute
	for _, attr := range syntax.AppendSortedAttrs(sorted[:0], e.syn.Attrs) {
		switch attr.Name {
		case "type", "default", "apply", "example":
		case "description", "default_text":
			var text string
			if e.body != nil && readsName(attr.Expr, d.Vars) {
				// NixOS's "the prometheus ${name} exporter": the text
				// for the documentation names the instance <name>.
				t, dd := nameText(attr, DocName, d.Vars)
				diags = append(diags, dd...)
				if dd.HasErrors() {
					continue
				}
				text = t
				d.NameTexts = append(d.NameTexts, attr)
			} else {
				v, dd := constAttr(attr, d.Vars, cty.String, optionText(d.Vars))
				diags = append(diags, dd...)
				if dd.HasErrors() {
					continue
				}
				text = v.AsString()
			}
			if attr.Name == "description" {
				d.Description = text
			} else {
				d.DefaultText = text
			}
		case "read_only", "internal":
			v, dd := constAttr(attr, d.Vars, cty.Bool, "true or false")
			diags = append(diags, dd...)
			if dd.HasErrors() {
				continue
			}
			if attr.Name == "read_only" {
				d.ReadOnly = v.True()
			} else {
				d.Internal = v.True()
			}
		default:
			diags = append(diags, syntax.UnsupportedArg(attr, "An option declaration takes "+strings.Join(optionArgs, ", "), optionArgs))
		}
	}
	if a := e.syn.Attrs["default"]; a != nil {
		d.DefaultExpr = a.Expr
	}
	if a := e.syn.Attrs["apply"]; a != nil {
		d.Apply = a.Expr
	}
	if a := e.syn.Attrs["example"]; a != nil {
		d.Example = a.Expr
	}
	ta := e.syn.Attrs["type"]
	if ta == nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing option type",
			Detail:   fmt.Sprintf("The option %q needs a type, for example type = str.", d.Path.String()),
			Subject:  b.DefRange().Ptr(),
		})
		return nil, diags
	}
	t, own, dd := dc.parseType(e.mod, ta.Expr)
	diags = append(diags, dd...)
	if t == nil || dd.HasErrors() {
		return nil, diags
	}
	d.Type, d.OwnType = t, own
	return d, diags
}

// DocName is what `name` is in the description of an option inside a
// submodule, in the documentation of every instance, as in NixOS's.
const DocName = "<name>"

// optionText says what a description or default_text may be, in a
// declaration made by dynamic blocks when vars binds their iterators.
func optionText(vars *syntax.Binding) string {
	const text = "a constant string (inside a submodule, a template that reads name, as \"the ${name} exporter\")"
	if vars == nil {
		return text
	}
	return text + " or a template that reads the iterators of the dynamic blocks that make it"
}

// readsName reports whether expr reads name alone, and the iterators vars
// binds: a template such as "the prometheus ${name} exporter".
func readsName(expr hclsyntax.Expression, vars *syntax.Binding) bool {
	name := false
	for _, tr := range hclsyntax.Variables(expr) {
		switch {
		case tr.RootName() == "name" && len(tr) == 1:
			name = true
		case vars.Lookup(tr.RootName()) == cty.NilVal:
			return false
		}
	}
	return name
}

// nameText evaluates a description or default_text that reads name (see
// readsName) for the instance called name, with the iterators vars binds.
func nameText(attr *hclsyntax.Attribute, name string, vars *syntax.Binding) (string, hcl.Diagnostics) {
	ctx := vars.Values()
	if ctx == nil {
		ctx = map[string]cty.Value{}
	}
	ctx["name"] = cty.StringVal(name)
	v, diags := attr.Expr.Value(&hcl.EvalContext{Variables: ctx})
	if diags.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid " + attr.Name,
			Detail:   fmt.Sprintf("The %s of an option must be %s.", attr.Name, optionText(vars)),
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	return v.AsString(), nil
}

// TextsFor returns the option's description and default_text for the
// instance named name: the texts that read name read this one (NilVal, or
// an option that reads no name, gives the texts of the declaration).
func (o *Option) TextsFor(name cty.Value) (description, defaultText string) {
	description, defaultText = o.Description, o.DefaultText
	if name == cty.NilVal {
		return description, defaultText
	}
	for _, attr := range o.NameTexts {
		t, diags := nameText(attr, name.AsString(), o.Vars)
		if diags.HasErrors() {
			continue
		}
		if attr.Name == "description" {
			description = t
		} else {
			defaultText = t
		}
	}
	return description, defaultText
}

// constAttr reads an option argument that must be a constant of type ty,
// described in words as what; it may read the iterators vars binds (nil:
// none), constants of the declaration.
func constAttr(attr *hclsyntax.Attribute, vars *syntax.Binding, ty cty.Type, what string) (cty.Value, hcl.Diagnostics) {
	var v cty.Value
	var diags hcl.Diagnostics
	if vars == nil {
		v, diags = syntax.ConstValue(attr.Expr)
	} else {
		v, diags = attr.Expr.Value(&hcl.EvalContext{Variables: vars.Values()})
	}
	if diags.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type() != ty {
		return cty.NilVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid " + attr.Name,
			Detail:   fmt.Sprintf("The %s of an option must be %s.", attr.Name, what),
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	return v, nil
}

// subTypeKey is the key of the submodules names merged in
// Declared.subTypes.
func subTypeKey(names []string) string { return strings.Join(names, "\x00") }

// subTypeAt builds (once) the option tree for the named submodules, for
// the option at prefix, which names the options in its declaration
// errors.
func (dc *declarer) subTypeAt(names []string, prefix options.Path) *SubType {
	key := subTypeKey(names)
	if st := dc.d.subTypes[key]; st != nil {
		return st
	}
	st := &SubType{}
	if !dc.private {
		dc.d.subTypes[key] = st
	}
	dc.buildSubType(st, names, prefix)
	return st
}

// SubTypeOf is the option tree of the named submodules merged: d's,
// which holds every one its options can instantiate. Should one be
// missing, it is built for the asker alone, from its modules mods and
// with its consts, leaving d, which evaluations share, as it is.
func (d *Declared) SubTypeOf(mods *syntax.Modules, consts Consts, names []string) *SubType {
	if st := d.subTypes[subTypeKey(names)]; st != nil {
		return st
	}
	dc := &declarer{Modules: mods, d: d, consts: consts, private: true}
	return dc.subTypeAt(names, nil)
}

// buildSubType builds the option tree of st, the submodules names merged.
func (dc *declarer) buildSubType(st *SubType, names []string, prefix options.Path) {
	var entries []declEntry
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		body := dc.d.submodules[name]
		st.Bodies = append(st.Bodies, body)
		st.Diags = append(st.Diags, dc.freeformType(st, body)...)
		decls, diags := dc.expandDecls(body.Mod, body.Options, nil, nil)
		st.Diags = append(st.Diags, diags...)
		for _, o := range decls {
			entries = append(entries, declEntry{syn: o, mod: body.Mod, body: body})
		}
	}
	root, diags := dc.buildTrie(entries, prefix)
	st.Root, st.Diags = root, append(st.Diags, diags...)
}

// addRenames puts renamed_option and removed_option paths into the
// top-level tree.
func addRenames(root *Node, mods []*syntax.Module) hcl.Diagnostics {
	var diags hcl.Diagnostics
	place := func(p []string, rng hcl.Range) *Node {
		n := root
		for i, seg := range p {
			if n.Opt != nil || n.Rename != nil || n.Removed != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("%q is inside the option %q", options.Path(p).String(), n.Path.String()),
					Detail:   "A renamed or removed option path cannot lie inside another option.",
					Subject:  rng.Ptr(),
				})
				return nil
			}
			c, added := n.child(seg, options.Path(p[:i+1]), nil)
			if added {
				n.Names = slices.Sorted(maps.Keys(n.Children))
			}
			n = c
		}
		if !n.IsNamespace() || len(n.Children) > 0 {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Option %q is already declared", options.Path(p).String()),
				Detail:   "A renamed or removed option path must not be declared as an option or hold options.",
				Subject:  rng.Ptr(),
			})
			return nil
		}
		return n
	}
	for _, m := range mods {
		for _, r := range m.Renamed {
			if n := place(r.From, r.Block.DefRange()); n != nil {
				n.Rename, n.RenMod = r, m
			}
		}
		for _, r := range m.Removed {
			if n := place(r.Path, r.Block.DefRange()); n != nil {
				n.Removed, n.RemMod = r, m
			}
		}
	}
	for _, m := range mods {
		for _, r := range m.Renamed {
			from := LookupDecl(root, r.From)
			to, _ := RenameTarget(root, r.To)
			if from == nil || from.Rename != r {
				continue
			}
			if to == nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("Option %q does not exist", options.Path(r.To).String()),
					Detail:   fmt.Sprintf("The option %q is renamed to %q, which is not a declared option.", options.Path(r.From).String(), options.Path(r.To).String()),
					Subject:  r.ToRange.Ptr(),
				})
				from.RenameBad = true
				continue
			}
			to.RenamedFrom = append(to.RenamedFrom, from)
		}
	}
	return diags
}

// checkRenameKeys checks the renames that lead into the value of an option
// (RenameTarget's rest): each key on the way must be one the option's
// type holds, a declared option of a submodule, a name of a freeform
// submodule or a key of an attribute set, so that a bad target is an
// error at the rename rather than at each definition of the old name.
func (dc *declarer) checkRenameKeys(root *Node) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, m := range dc.Mods {
		for _, r := range m.Renamed {
			from := LookupDecl(root, r.From)
			if from == nil || from.Rename != r || from.RenameBad {
				continue
			}
			to, rest := RenameTarget(root, r.To)
			if to == nil || len(rest) == 0 {
				continue
			}
			if d := dc.checkKeys(to.Opt.Type, to.Path, rest); d != "" {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("Option %q does not exist", options.Path(r.To).String()),
					Detail:   fmt.Sprintf("The option %q is renamed to %q, but %s.", options.Path(r.From).String(), options.Path(r.To).String(), d),
					Subject:  r.ToRange.Ptr(),
				})
				from.RenameBad = true
			}
		}
	}
	return diags
}

// checkKeys says why the value of type t at path at has no place for the
// keys rest, or "" when it has.
func (dc *declarer) checkKeys(t options.Type, at options.Path, rest []string) string {
	for len(rest) > 0 {
		switch tt := t.(type) {
		case options.NullOr:
			t = tt.Elem
			continue
		case options.Uniq:
			t = tt.Elem
			continue
		case options.AttrsOf:
			t, at, rest = tt.Elem, at.Child(rest[0]), rest[1:]
			continue
		case options.Submodule:
			st := dc.subTypeAt(tt.Names, nil)
			if st.Root == nil {
				return ""
			}
			n := st.Root
			for len(rest) > 0 && n.Opt == nil {
				c := n.Children[rest[0]]
				if c == nil {
					if st.Freeform != nil {
						return ""
					}
					why := fmt.Sprintf("the submodule of %q declares no option %q", at.String(), at.Join(n.Path).Child(rest[0]).String())
					if s := options.DidYouMean(rest[0], n.Names); s != "" {
						why += fmt.Sprintf(" (did you mean %q?)", at.Join(n.Path).Child(s).String())
					}
					return why
				}
				n, rest = c, rest[1:]
			}
			if n.Opt == nil {
				return fmt.Sprintf("%q is a namespace of the submodule of %q, not an option", at.Join(n.Path).String(), at.String())
			}
			t, at = n.Opt.Type, at.Join(n.Path)
			continue
		}
		if options.HoldsKeys(t) {
			return "" // anything, either(...): its merge checks the keys
		}
		return fmt.Sprintf("the option %q is of type %s, whose values have no keys", at.String(), t.Description())
	}
	return ""
}

// RenameTarget finds the option a rename leads to: the option at path to,
// or the option on the way whose value holds it (a submodule option, as
// `to = "web.listen.port"` where web.listen is one), with the rest of the
// path inside its value. It is nil when no option is on the path.
func RenameTarget(root *Node, to []string) (*Node, []string) {
	n := root
	for i, seg := range to {
		n = n.Children[seg]
		switch {
		case n == nil || n.Rename != nil || n.Removed != nil:
			return nil, nil
		case n.Opt != nil:
			return n, to[i+1:]
		}
	}
	return nil, nil
}

// NestIn wraps a definition's value in objects along path: the definition
// of web.listen that defines web.listen.port.
func NestIn(v cty.Value, path []string) cty.Value {
	for i := len(path) - 1; i >= 0; i-- {
		v = ctyelems.ObjectVal(map[string]cty.Value{path[i]: v})
	}
	return v
}

// LookupDecl is the node at path p of the tree at root, or nil.
func LookupDecl(root *Node, p []string) *Node {
	n := root
	for _, seg := range p {
		n = n.Children[seg]
		if n == nil {
			return nil
		}
	}
	return n
}

// constantDefault is the definition a default makes when it is a constant
// (see syntax.ConstantValue); it reads nothing of an evaluation.
func constantDefault(expr hclsyntax.Expression) (options.Def, bool) {
	v, constant := syntax.ConstantValue(expr)
	if !constant {
		return options.Def{}, false
	}
	return DefaultAt(expr, property.ForcedVal(v, expr.Range())), true
}

// DefaultAt is the definition of the default expr whose value is
// content, at mkOptionDefault's priority.
func DefaultAt(expr hclsyntax.Expression, content cty.Value) options.Def {
	rng := expr.Range()
	return options.Def{
		Value: property.PropertyVal(property.Property{Kind: property.KindOverride, Priority: property.PriorityOptionDefault, Content: content, Range: rng}),
		Range: rng,
	}
}
