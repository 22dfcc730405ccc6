package eval

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/nodegen/nodegen/eval/internal/slabs"
	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// declNode is a node of an option tree: a namespace, an option, or the old
// path of a renamed or removed option.
type declNode struct {
	path     options.Path
	children map[string]*declNode
	names    []string // sorted child names

	opt     *optionDecl
	rename  *syntax.Rename
	renMod  *syntax.Module
	removed *syntax.Remove
	remMod  *syntax.Module
	// renameBad is set when the rename's target is wrong (an error of the
	// declaration): the definitions of the old path then stay there.
	renameBad bool
	// renamedFrom lists the renamed paths whose definitions land here.
	renamedFrom []*declNode
	// id numbers a node of the top-level tree from 1 (see declared.nodes):
	// the top-level instance keeps the node's state at that index (see
	// instance.state); submodule instances keep theirs in a map.
	id int32
}

// child is the child node named seg, added (with the path p, from slab)
// when there is none yet. A node's children map is made with its first
// child: most nodes are options, which have none.
func (n *declNode) child(seg string, p options.Path, slab *[]declNode) (c *declNode, added bool) {
	if c = n.children[seg]; c != nil {
		return c, false
	}
	if n.children == nil {
		n.children = map[string]*declNode{}
	}
	c = slabs.Take(slab)
	c.path = p
	n.children[seg] = c
	return c, true
}

// rangeOrZero is the declaration range of an option node, or a zero range.
func (n *declNode) rangeOrZero() hcl.Range {
	if n.opt != nil {
		return n.opt.block.DefRange()
	}
	return hcl.Range{}
}

func (n *declNode) isNamespace() bool { return n.opt == nil && n.rename == nil && n.removed == nil }

// optionDecl is one declared option.
type optionDecl struct {
	path  options.Path
	typ   options.Type
	block *hclsyntax.Block
	mod   *syntax.Module
	body  *syntax.Submodule // the submodule body it is declared in, if any

	defaultExpr hclsyntax.Expression
	apply       hclsyntax.Expression
	example     hclsyntax.Expression
	description string
	defaultText string
	// nameTexts are the description and default_text when they read
	// name, the instance's attribute name; description and defaultText
	// then hold the text for <name> (see textsFor).
	nameTexts []*hclsyntax.Attribute
	readOnly  bool
	internal  bool
	// vars binds the iterators of the dynamic blocks that made the
	// declaration (see dynamic.go) in all its expressions.
	vars *syntax.Binding
	// more declarations of the same (submodule) option
	also []*hclsyntax.Block

	// constDefault is the default's definition when the default is a
	// constant (see syntax.ConstantValue), made when the option is declared, for
	// every instance (for an option of a shared library module, once for
	// the process: see decodedOptions).
	constDefault *options.Def
	// ownType is set when typ names a submodule or the type path, which
	// each evaluation binds to itself (see Evaluator.typeOf).
	ownType bool
}

// Declaration describes one option for documentation and tooling.
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

// declared is what declaring makes (phase 3), which define and force take:
// the option tree of the top level, with the renamed and removed paths,
// and the trees of every submodule type its options can hold. It depends
// on the declaring modules alone (see syntax.Module.Declares), and it is a value:
// declare makes it whole and nothing changes it after, so that the
// evaluations of a Fleet whose declaring modules are the same share one,
// in parallel goroutines, without a lock.
type declared struct {
	root *declNode
	// nodes is the number of nodes of the top-level tree, numbered 1 to
	// nodes (declNode.id).
	nodes int
	// submodules and formats are the registries the tree was declared
	// with: those of the loaded modules.
	submodules map[string]*syntax.Submodule
	formats    map[string]*syntax.Format
	// modDiags are the diagnostics of each module's declarations, diags
	// those of the tree and of the submodule types, reported by every
	// evaluation of the tree (see Evaluator.declarationDiags).
	modDiags map[*syntax.Module]hcl.Diagnostics
	diags    hcl.Diagnostics

	// subTypes are the trees of the submodule types, by their names (see
	// declarer.subTypeAt): every one that a type of the declared options
	// (or of their submodules, or a freeform type) holds.
	subTypes map[string]*subType
	// typeCache holds the types of the tree that name a submodule, a
	// format, a named type or path, by source text (see parseType).
	typeCache map[string]options.Type
}

// declarer declares the options of loaded modules: what declaring reads
// (the loaded value, and expressions through consts) and the declared
// value it fills, which nothing else sees until declare returns it. It
// knows nothing of the evaluation that the runtime makes (instances,
// thunks, the state of options): see TestDeclaringDoesNotEvaluate.
type declarer struct {
	*syntax.Modules
	d      *declared
	consts declConsts
	// typeByName holds the named types parsed (see lookupNamedType).
	typeByName map[*syntax.NamedType]options.Type
	// private is set for a declarer that reads a declared value made
	// already (see Evaluator.submoduleType): it adds nothing to it.
	private bool
}

// declConsts is the narrow evaluator declaring reads expressions with:
// the for_each and labels of dynamic blocks, and a default made by one
// from its iterators alone.
type declConsts interface {
	// declValue is the value of expr, an expression of module m read
	// when the options are declared: over constants, functions, the
	// module's locals and the iterators vars binds, never config (which
	// checkDynamics checked when m was parsed).
	declValue(m *syntax.Module, vars *syntax.Binding, expr hclsyntax.Expression) (cty.Value, hcl.Diagnostics)
	// checkElements is the error of a collection of n elements at rng
	// beyond the limits.
	checkElements(n int, rng hcl.Range) *hcl.Diagnostic
}

// declare makes the declared value of the loaded modules l: the option
// tree of the top level from every module's option declarations and
// renames, and the trees of the submodule types. It reports the
// declaration errors of the submodule types now rather than when the
// first instance is made: those of the types options use (merged ones
// too), named by the option's path, then the rest.
func declare(l *syntax.Modules, consts declConsts) *declared {
	d := &declared{
		submodules: l.Submodules,
		formats:    l.Formats,
		modDiags:   map[*syntax.Module]hcl.Diagnostics{},
		subTypes:   map[string]*subType{},
	}
	dc := &declarer{Modules: l, d: d, consts: consts}
	var entries []declEntry
	for _, m := range l.Mods {
		if !m.Declares() {
			continue
		}
		decls, dd := dc.expandDecls(m, m.Options, nil, nil)
		if len(dd) > 0 {
			d.modDiags[m] = dd
		}
		for _, o := range decls {
			entries = append(entries, declEntry{syn: o, mod: m})
		}
	}
	root, diags := dc.buildTrie(entries, nil)
	diags = append(diags, addRenames(root, l.Mods)...)
	diags = append(diags, dc.checkRenameKeys(root)...)
	reported := map[*subType]bool{}
	report := func(st *subType) {
		if !reported[st] {
			reported[st] = true
			diags = append(diags, st.diags...)
		}
	}
	dc.walkSubTypes(root, nil, map[string]bool{}, report)
	for _, name := range slices.Sorted(maps.Keys(d.submodules)) {
		report(dc.subTypeAt([]string{name}, nil))
	}
	dc.completeSubTypes(root)
	d.root, d.diags = root, diags
	d.nodes = numberNodes(root, 0)
	return d
}

// walkSubTypes builds the trees of the submodule types that the options
// below n hold through attrsOf, listOf, nullOr and uniq, prefix in front
// of their paths (which name them in the trees' errors), and calls built
// with each, as Evaluator.walkOptions walks them.
func (dc *declarer) walkSubTypes(n *declNode, prefix options.Path, seen map[string]bool, built func(*subType)) {
	if o := n.opt; o != nil {
		if holdsSubmodule(o.typ) {
			dc.walkSubType(o.typ, prefix.Join(n.path), seen, built)
		}
		return
	}
	for _, name := range n.names {
		dc.walkSubTypes(n.children[name], prefix, seen, built)
	}
}

func (dc *declarer) walkSubType(t options.Type, p options.Path, seen map[string]bool, built func(*subType)) {
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
		if st.root != nil {
			dc.walkSubTypes(st.root, p, seen, built)
		}
	}
}

// completeSubTypes builds the trees of the submodule types left that an
// evaluation can instantiate: those inside either and oneOf, and those of
// the freeform types, which walkSubTypes does not reach, so that the
// declared value holds every tree its evaluations ask for. Their errors
// are reported when an instance is made, as when they were built then.
func (dc *declarer) completeSubTypes(root *declNode) {
	var fromTree func(n *declNode)
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
			fromTree(st.root)
			fromType(st.freeform)
		}
	}
	fromTree = func(n *declNode) {
		if n == nil {
			return
		}
		if n.opt != nil {
			fromType(n.opt.typ)
			return
		}
		for _, name := range n.names {
			fromTree(n.children[name])
		}
	}
	fromTree(root)
	// The trees built so far, in the order of their names, so that what
	// is built is the same whatever the order of the map.
	for _, key := range slices.Sorted(maps.Keys(dc.d.subTypes)) {
		st := dc.d.subTypes[key]
		fromTree(st.root)
		fromType(st.freeform)
	}
}

// numberNodes numbers the nodes of the tree at n after last, in the order
// of their names, and returns the last number given.
func numberNodes(n *declNode, last int) int {
	last++
	n.id = int32(last)
	for _, name := range n.names {
		last = numberNodes(n.children[name], last)
	}
	return last
}

// declarationDiags are the diagnostics of declaring for this evaluation,
// in the order of its modules: the duplicate locals of each module, the
// errors of its declarations, then those of the tree decl. The
// diagnostics of decl are copied, since evaluations sharing it may change
// theirs (see withoutCommandLine).
func (ev *Evaluator) declarationDiags(decl *declared) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, m := range ev.Mods {
		diags = append(diags, checkLocals(m.Locals)...)
		for _, s := range m.Submodules {
			diags = append(diags, checkLocals(s.Locals)...)
		}
		diags = appendCopies(diags, decl.modDiags[m])
	}
	return appendCopies(diags, decl.diags)
}

// appendCopies appends a copy of each diagnostic of from to diags.
func appendCopies(diags, from hcl.Diagnostics) hcl.Diagnostics {
	for _, d := range from {
		c := *d
		diags = append(diags, &c)
	}
	return diags
}

// declEntry is an option declaration with where it is written.
type declEntry struct {
	syn  *syntax.OptionDecl
	mod  *syntax.Module
	body *syntax.Submodule
}

// buildTrie builds an option tree from declarations. prefix is where the
// tree sits (the option holding a submodule), for messages only.
func (dc *declarer) buildTrie(entries []declEntry, prefix options.Path) (*declNode, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	full := func(p options.Path) string { return prefix.Join(p).String() }
	root := &declNode{}
	// defaultAt is, for an option declared several times, a later
	// declaration that gives a default when the first does not.
	var defaultAt map[*optionDecl]*hclsyntax.Block
	// An option and its node for each entry, in two allocations; the
	// namespaces above them take nodes from the slab too.
	decls := make([]optionDecl, 0, len(entries))
	nodes := make([]declNode, 0, len(entries))
	for _, e := range entries {
		d, dd := dc.decodeOption(e, &decls)
		diags = append(diags, dd...)
		if d == nil {
			continue
		}
		dc.settleDefault(d)
		n := root
		ok := true
		for i, seg := range d.path {
			if n.opt != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("Option %q would be a parent of option %q", full(n.path), full(d.path)),
					Detail:   fmt.Sprintf("The option %q declared at %s has a type (%s) that does not hold declared options.", full(n.path), options.ShowPos(n.opt.block.DefRange()), n.opt.typ.Description()),
					Subject:  e.syn.Block.DefRange().Ptr(),
				})
				ok = false
				break
			}
			n, _ = n.child(seg, d.path[:i+1], &nodes)
		}
		if !ok {
			continue
		}
		switch {
		case n.opt != nil:
			if t, merged := options.MergeTypes(n.opt.typ, d.typ); merged {
				first := defaultAt[n.opt]
				if first == nil && n.opt.defaultExpr != nil {
					first = n.opt.block
				}
				if first != nil && d.defaultExpr != nil {
					// As NixOS's mergeOptionDecls: one declaration
					// gives the default.
					diags = append(diags, &hcl.Diagnostic{
						Severity: hcl.DiagError,
						Summary:  fmt.Sprintf("Option %q has two defaults", full(d.path)),
						Detail: fmt.Sprintf("The option %q is declared with a default at %s and at %s. Its declarations merge (their submodules do), but only one of them may give a default, as in NixOS.",
							full(d.path), options.ShowPos(first.DefRange()), options.ShowPos(d.block.DefRange())),
						Subject: d.defaultExpr.Range().Ptr(),
					})
					continue
				}
				if first == nil && d.defaultExpr != nil {
					if defaultAt == nil {
						defaultAt = map[*optionDecl]*hclsyntax.Block{}
					}
					defaultAt[n.opt] = d.block
				}
				n.opt.typ, n.opt.ownType = t, n.opt.ownType || d.ownType
				n.opt.also = append(n.opt.also, d.block)
				continue
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Option %q is already declared", full(d.path)),
				Detail:   fmt.Sprintf("The option %q is declared here and at %s. An option is declared once; only submodule options may be declared in several places, and their submodules merge.", full(d.path), options.ShowPos(n.opt.block.DefRange())),
				Subject:  d.block.DefRange().Ptr(),
			})
		case len(n.children) > 0:
			var first *declNode
			for _, name := range slices.Sorted(maps.Keys(n.children)) {
				first = firstOption(n.children[name])
				if first != nil {
					break
				}
			}
			detail := fmt.Sprintf("The option %q has options declared below it", full(d.path))
			if first != nil {
				detail += fmt.Sprintf(", such as %q at %s", full(first.path), options.ShowPos(first.opt.block.DefRange()))
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Option %q would be a parent of other options", full(d.path)),
				Detail:   detail + ". A namespace of options cannot itself be an option.",
				Subject:  d.block.DefRange().Ptr(),
			})
		default:
			n.opt = d
		}
	}
	finishTrie(root)
	return root, diags
}

func firstOption(n *declNode) *declNode {
	if n.opt != nil {
		return n
	}
	for _, name := range slices.Sorted(maps.Keys(n.children)) {
		if f := firstOption(n.children[name]); f != nil {
			return f
		}
	}
	return nil
}

func finishTrie(n *declNode) {
	n.names = slices.Sorted(maps.Keys(n.children))
	for _, c := range n.children {
		finishTrie(c)
	}
}

// settleDefault makes the definition of o's default when it is a constant,
// or made by a dynamic block from its iterators alone, once for the
// declared tree, which evaluations then only read.
func (dc *declarer) settleDefault(o *optionDecl) {
	if o.constDefault != nil || o.defaultExpr == nil {
		return
	}
	d, constant := constantDefault(o.defaultExpr)
	if !constant {
		// A default made by a dynamic block may read its iterators alone.
		var v cty.Value
		if v, constant = iteratorValue(dc.consts, o, o.defaultExpr); constant {
			d = defaultAt(o.defaultExpr, property.ForcedVal(v, o.defaultExpr.Range()))
		}
	}
	if constant {
		o.constDefault = &d
	}
}

var optionArgs = []string{"type", "default", "default_text", "example", "description", "apply", "read_only", "internal"}

// decodedOptions keeps, by their syntax, the options declared in the files
// of the library modules the process shares (syntax.Module.Shared and
// syntax.OptionDecl.InFile: a declaration an evaluation makes is never
// kept, so that nothing grows with the evaluations) as decodeOption read
// them, when it found nothing wrong: what it reads depends on the syntax
// alone, and so does the type when it is one of sharedTypes (else the
// kept declaration has no type, and each evaluation parses its own). An
// evaluation starts each such option from a copy of the kept one, which it
// may then change (a merged submodule type, the constant default).
var decodedOptions sync.Map // *syntax.OptionDecl -> *optionDecl

// keepDecodedOptions says to use decodedOptions; the tests turn it off to
// check it against reading every block anew.
var keepDecodedOptions = true

// decodeOption reads one option block, or copies what decodedOptions kept
// of it, into an optionDecl from slab (see slabs.Take).
func (dc *declarer) decodeOption(e declEntry, slab *[]optionDecl) (*optionDecl, hcl.Diagnostics) {
	shared := keepDecodedOptions && e.syn.InFile && e.mod != nil && e.mod.Shared
	if shared {
		if kept, ok := decodedOptions.Load(e.syn); ok {
			d := slabs.Take(slab)
			*d = *kept.(*optionDecl)
			if d.typ != nil {
				return d, nil
			}
			t, own, diags := dc.parseType(e.mod, e.syn.Attrs["type"].Expr)
			if t == nil || diags.HasErrors() {
				return nil, diags
			}
			d.typ, d.ownType = t, own
			return d, diags
		}
	}
	d, diags := dc.readOption(e, slab)
	if shared && d != nil && len(diags) == 0 {
		kept := *d
		if d.ownType {
			kept.typ, kept.ownType = nil, false
		}
		if d.defaultExpr != nil {
			if def, ok := constantDefault(d.defaultExpr); ok {
				kept.constDefault = &def
			}
		}
		decodedOptions.Store(e.syn, &kept)
	}
	return d, diags
}

// readOption is decodeOption reading the block.
func (dc *declarer) readOption(e declEntry, slab *[]optionDecl) (d *optionDecl, diags hcl.Diagnostics) {
	b := e.syn.Block
	d = slabs.Take(slab)
	*d = optionDecl{path: options.Path(e.syn.Path), block: b, mod: e.mod, body: e.body, vars: e.syn.Vars}
	// Room for the eight arguments an option takes, on the stack.
	var sorted [8]*hclsyntax.Attribute
	for _, attr := range syntax.AppendSortedAttrs(sorted[:0], e.syn.Attrs) {
		switch attr.Name {
		case "type", "default", "apply", "example":
		case "description", "default_text":
			var text string
			if e.body != nil && readsName(attr.Expr, d.vars) {
				// NixOS's "the prometheus ${name} exporter": the text
				// for the documentation names the instance <name>.
				t, dd := nameText(attr, docName, d.vars)
				diags = append(diags, dd...)
				if dd.HasErrors() {
					continue
				}
				text = t
				d.nameTexts = append(d.nameTexts, attr)
			} else {
				v, dd := constAttr(attr, d.vars, cty.String, optionText(d.vars))
				diags = append(diags, dd...)
				if dd.HasErrors() {
					continue
				}
				text = v.AsString()
			}
			if attr.Name == "description" {
				d.description = text
			} else {
				d.defaultText = text
			}
		case "read_only", "internal":
			v, dd := constAttr(attr, d.vars, cty.Bool, "true or false")
			diags = append(diags, dd...)
			if dd.HasErrors() {
				continue
			}
			if attr.Name == "read_only" {
				d.readOnly = v.True()
			} else {
				d.internal = v.True()
			}
		default:
			diags = append(diags, syntax.UnsupportedArg(attr, "An option declaration takes "+strings.Join(optionArgs, ", "), optionArgs))
		}
	}
	if a := e.syn.Attrs["default"]; a != nil {
		d.defaultExpr = a.Expr
	}
	if a := e.syn.Attrs["apply"]; a != nil {
		d.apply = a.Expr
	}
	if a := e.syn.Attrs["example"]; a != nil {
		d.example = a.Expr
	}
	ta := e.syn.Attrs["type"]
	if ta == nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing option type",
			Detail:   fmt.Sprintf("The option %q needs a type, for example type = str.", d.path.String()),
			Subject:  b.DefRange().Ptr(),
		})
		return nil, diags
	}
	t, own, dd := dc.parseType(e.mod, ta.Expr)
	diags = append(diags, dd...)
	if t == nil || dd.HasErrors() {
		return nil, diags
	}
	d.typ, d.ownType = t, own
	return d, diags
}

// sharedTypes holds, by source text, the types parsed so far by this
// process that name no submodule, no format and not path: such a type
// depends on its text alone (submodule and format types are the
// evaluation's own, and path resolves through the evaluation), and types
// are values that nothing changes, so every evaluation of the process (the
// hosts of nodegen build) shares them.
var sharedTypes sync.Map // source text -> options.Type

// parseType parses an option's type expression. Modules repeat the same
// few types (str, listOf(str), an enum), so a type that parsed without
// diagnostics is kept by its source text: for the process when it names
// no submodule, no format and not path (sharedTypes), else in the
// declared tree. own tells whether it names a submodule or path, which
// each evaluation binds to itself (see Evaluator.typeOf).
func (dc *declarer) parseType(m *syntax.Module, expr hclsyntax.Expression) (t options.Type, own bool, diags hcl.Diagnostics) {
	var key string
	if m != nil && m.File != nil {
		r := expr.Range()
		if r.Start.Byte >= 0 && r.End.Byte <= len(m.File.Bytes) && r.Start.Byte <= r.End.Byte {
			key = string(m.File.Bytes[r.Start.Byte:r.End.Byte])
		}
	}
	decl := dc.d
	if key != "" {
		if t, ok := decl.typeCache[key]; ok {
			return t, true, nil
		}
		if t, ok := sharedTypes.Load(key); ok {
			return t.(options.Type), false, nil
		}
	}
	// A type naming a submodule or a format is the evaluation's own, and so
	// is path, which resolves relative paths through this evaluation.
	evaluationOwn := usesPathType(expr)
	t, diags = options.ParseTypeResolving(expr, func(namespace, name string, rng hcl.Range) (options.Type, hcl.Diagnostics) {
		evaluationOwn = true
		return dc.lookupType(namespace, name, rng)
	}, nil)
	if key != "" && t != nil && len(diags) == 0 {
		if !evaluationOwn {
			sharedTypes.Store(key, t)
			return t, false, diags
		}
		if !dc.private {
			if decl.typeCache == nil {
				decl.typeCache = map[string]options.Type{}
			}
			decl.typeCache[key] = t
		}
	}
	return t, evaluationOwn, diags
}

// usesPathType reports whether a type expression names the type path.
func usesPathType(expr hclsyntax.Expression) bool {
	for _, tr := range expr.Variables() {
		if tr.RootName() == "path" {
			return true
		}
	}
	return false
}

// docName is what `name` is in the description of an option inside a
// submodule, in the documentation of every instance, as in NixOS's.
const docName = "<name>"

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

// textsFor returns the option's description and default_text for the
// instance named name: the texts that read name read this one (NilVal, or
// an option that reads no name, gives the texts of the declaration).
func (o *optionDecl) textsFor(name cty.Value) (description, defaultText string) {
	description, defaultText = o.description, o.defaultText
	if name == cty.NilVal {
		return description, defaultText
	}
	for _, attr := range o.nameTexts {
		t, diags := nameText(attr, name.AsString(), o.vars)
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

// lookupSubmoduleType resolves submodule.NAME inside a type expression.
func (dc *declarer) lookupSubmoduleType(name string, rng hcl.Range) (options.Type, hcl.Diagnostics) {
	if _, ok := dc.d.submodules[name]; !ok {
		return nil, syntax.UnknownName(dc.d.submodules, "submodule", name, "", rng)
	}
	// No Instantiator: the type is the declared tree's; each evaluation
	// binds it to itself (see Evaluator.typeOf).
	return options.Submodule{Names: []string{name}}, nil
}

// subType is the option tree of a set of submodules merged together.
type subType struct {
	root   *declNode
	bodies []*syntax.Submodule
	// freeform is the type of the names no option declares (nil: such a
	// name is an error).
	freeform   options.Type
	freeformAt *hcl.Range
	diags      hcl.Diagnostics
}

// subTypeKey is the key of the submodules names merged in
// declared.subTypes.
func subTypeKey(names []string) string { return strings.Join(names, "\x00") }

// subTypeAt builds (once) the option tree for the named submodules, for
// the option at prefix, which names the options in its declaration
// errors.
func (dc *declarer) subTypeAt(names []string, prefix options.Path) *subType {
	key := subTypeKey(names)
	if st := dc.d.subTypes[key]; st != nil {
		return st
	}
	st := &subType{}
	if !dc.private {
		dc.d.subTypes[key] = st
	}
	dc.buildSubType(st, names, prefix)
	return st
}

// submoduleType is the option tree of the named submodules merged: the
// declared value's, which holds every one its options can instantiate.
// Should one be missing, it is built for the asking evaluation alone,
// leaving the declared value, which evaluations share, as it is.
func (ev *Evaluator) submoduleType(names []string) *subType {
	if st := ev.decl.subTypes[subTypeKey(names)]; st != nil {
		return st
	}
	dc := &declarer{Modules: &ev.Modules, d: ev.decl, consts: ev, private: true}
	return dc.subTypeAt(names, nil)
}

// buildSubType builds the option tree of st, the submodules names merged.
func (dc *declarer) buildSubType(st *subType, names []string, prefix options.Path) {
	var entries []declEntry
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		body := dc.d.submodules[name]
		st.bodies = append(st.bodies, body)
		st.diags = append(st.diags, dc.freeformType(st, body)...)
		decls, diags := dc.expandDecls(body.Mod, body.Options, nil, nil)
		st.diags = append(st.diags, diags...)
		for _, o := range decls {
			entries = append(entries, declEntry{syn: o, mod: body.Mod, body: body})
		}
	}
	root, diags := dc.buildTrie(entries, prefix)
	st.root, st.diags = root, append(st.diags, diags...)
}

// addRenames puts renamed_option and removed_option paths into the
// top-level tree.
func addRenames(root *declNode, mods []*syntax.Module) hcl.Diagnostics {
	var diags hcl.Diagnostics
	place := func(p []string, rng hcl.Range) *declNode {
		n := root
		for i, seg := range p {
			if n.opt != nil || n.rename != nil || n.removed != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("%q is inside the option %q", options.Path(p).String(), n.path.String()),
					Detail:   "A renamed or removed option path cannot lie inside another option.",
					Subject:  rng.Ptr(),
				})
				return nil
			}
			c, added := n.child(seg, options.Path(p[:i+1]), nil)
			if added {
				n.names = slices.Sorted(maps.Keys(n.children))
			}
			n = c
		}
		if !n.isNamespace() || len(n.children) > 0 {
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
				n.rename, n.renMod = r, m
			}
		}
		for _, r := range m.Removed {
			if n := place(r.Path, r.Block.DefRange()); n != nil {
				n.removed, n.remMod = r, m
			}
		}
	}
	for _, m := range mods {
		for _, r := range m.Renamed {
			from := lookupDecl(root, r.From)
			to, _ := renameTarget(root, r.To)
			if from == nil || from.rename != r {
				continue
			}
			if to == nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("Option %q does not exist", options.Path(r.To).String()),
					Detail:   fmt.Sprintf("The option %q is renamed to %q, which is not a declared option.", options.Path(r.From).String(), options.Path(r.To).String()),
					Subject:  r.ToRange.Ptr(),
				})
				from.renameBad = true
				continue
			}
			to.renamedFrom = append(to.renamedFrom, from)
		}
	}
	return diags
}

// checkRenameKeys checks the renames that lead into the value of an option
// (renameTarget's rest): each key on the way must be one the option's
// type holds, a declared option of a submodule, a name of a freeform
// submodule or a key of an attribute set, so that a bad target is an
// error at the rename rather than at each definition of the old name.
func (dc *declarer) checkRenameKeys(root *declNode) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, m := range dc.Mods {
		for _, r := range m.Renamed {
			from := lookupDecl(root, r.From)
			if from == nil || from.rename != r || from.renameBad {
				continue
			}
			to, rest := renameTarget(root, r.To)
			if to == nil || len(rest) == 0 {
				continue
			}
			if d := dc.checkKeys(to.opt.typ, to.path, rest); d != "" {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("Option %q does not exist", options.Path(r.To).String()),
					Detail:   fmt.Sprintf("The option %q is renamed to %q, but %s.", options.Path(r.From).String(), options.Path(r.To).String(), d),
					Subject:  r.ToRange.Ptr(),
				})
				from.renameBad = true
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
			if st.root == nil {
				return ""
			}
			n := st.root
			for len(rest) > 0 && n.opt == nil {
				c := n.children[rest[0]]
				if c == nil {
					if st.freeform != nil {
						return ""
					}
					why := fmt.Sprintf("the submodule of %q declares no option %q", at.String(), at.Join(n.path).Child(rest[0]).String())
					if s := didYouMean(rest[0], n.names); s != "" {
						why += fmt.Sprintf(" (did you mean %q?)", at.Join(n.path).Child(s).String())
					}
					return why
				}
				n, rest = c, rest[1:]
			}
			if n.opt == nil {
				return fmt.Sprintf("%q is a namespace of the submodule of %q, not an option", at.Join(n.path).String(), at.String())
			}
			t, at = n.opt.typ, at.Join(n.path)
			continue
		}
		if options.HoldsKeys(t) {
			return "" // anything, either(...): its merge checks the keys
		}
		return fmt.Sprintf("the option %q is of type %s, whose values have no keys", at.String(), t.Description())
	}
	return ""
}

// renameTarget finds the option a rename leads to: the option at path to,
// or the option on the way whose value holds it (a submodule option, as
// `to = "web.listen.port"` where web.listen is one), with the rest of the
// path inside its value. It is nil when no option is on the path.
func renameTarget(root *declNode, to []string) (*declNode, []string) {
	n := root
	for i, seg := range to {
		n = n.children[seg]
		switch {
		case n == nil || n.rename != nil || n.removed != nil:
			return nil, nil
		case n.opt != nil:
			return n, to[i+1:]
		}
	}
	return nil, nil
}

// nestIn wraps a definition's value in objects along path: the definition
// of web.listen that defines web.listen.port.
func nestIn(v cty.Value, path []string) cty.Value {
	for i := len(path) - 1; i >= 0; i-- {
		v = cty.ObjectVal(map[string]cty.Value{path[i]: v})
	}
	return v
}

func lookupDecl(root *declNode, p []string) *declNode {
	n := root
	for _, seg := range p {
		n = n.children[seg]
		if n == nil {
			return nil
		}
	}
	return n
}
