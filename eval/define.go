package eval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval/internal/declare"
	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// instance is one evaluation of an option tree: the top-level
// configuration, or one submodule instance.
type instance struct {
	ev   *Evaluator
	root *declare.Node
	st   *declare.SubType // nil for the top level
	loc  options.Path
	name cty.Value // the attribute name of a submodule instance; NilVal at the top

	// states are the states of the nodes of a submodule instance;
	// topStates those of the top level, by declare.Node.ID.
	states     map[*declare.Node]*nodeState
	topStates  []*nodeState
	bodyLocals map[*syntax.Submodule]*localSet
	// pending counts the definitions waiting at namespaces (see drain).
	pending int
	// config is the reference to the instance's root (rootRef, see
	// rootNamespace) as a value, made once.
	config  cty.Value
	rootRef nsRef
	// free holds the names of a freeform submodule that no option declares.
	free freeform
	// defRanges are the definitions that made a submodule instance, the
	// user's first (see origin).
	defRanges []hcl.Range
}

// configRef is what `config` is in the instance's expressions: a reference
// to its root namespace.
func (inst *instance) configRef() cty.Value {
	if inst.config == cty.NilVal {
		inst.config = property.RefVal(inst.rootNamespace())
	}
	return inst.config
}

// rootNamespace is the reference to inst's root namespace, a part of inst
// rather than an allocation of its own.
func (inst *instance) rootNamespace() *nsRef {
	if inst.rootRef.inst == nil {
		inst.rootRef = nsRef{inst: inst, n: inst.root}
	}
	return &inst.rootRef
}

// defn is a definition with its place in definition order.
type defn struct {
	options.Def
	seq []int
}

// seqCompare orders definitions by their seq (see seqLess).
func seqCompare(a, b defn) int {
	switch {
	case seqLess(a.seq, b.seq):
		return -1
	case seqLess(b.seq, a.seq):
		return 1
	}
	return 0
}

func seqLess(a, b []int) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return len(a) < len(b)
}

func (inst *instance) state(n *declare.Node) *nodeState {
	if inst.st == nil {
		// The top level is the only instance of its tree in the
		// evaluation: its states are by the nodes' numbers, saving a map
		// lookup per access.
		s := inst.topStates[n.ID]
		if s == nil {
			s = inst.ev.arena.newState()
			inst.topStates[n.ID] = s
		}
		return s
	}
	s := inst.states[n]
	if s == nil {
		s = inst.ev.arena.newState()
		inst.states[n] = s
	}
	return s
}

// peekState is n's state if it has one.
func (inst *instance) peekState(n *declare.Node) *nodeState {
	if inst.st == nil {
		return inst.topStates[n.ID]
	}
	return inst.states[n]
}

// fullPath is an option path as the user sees it: with the instance's
// location in front.
func (inst *instance) fullPath(p options.Path) options.Path {
	if len(inst.loc) == 0 {
		return p
	}
	return inst.ev.arena.join(inst.loc, p)
}

// split distributes a definition made at node n over the options below it,
// pushing mkIf, mkOverride and mkMerge down through namespaces as NixOS
// does. With force false it evaluates nothing: a definition whose shape is
// not written out in the source waits at its namespace until an option
// below is needed (see drain).
func (inst *instance) split(n *declare.Node, d defn, force bool) hcl.Diagnostics {
	switch {
	case n.Opt != nil, n.Removed != nil:
		s := inst.state(n)
		if s.defs == nil {
			// most options have one definition: its room comes from a slab
			s.defs = inst.ev.arena.oneDefn()
		}
		s.defs = append(s.defs, d)
		return nil
	case n.Rename != nil:
		s := inst.state(n)
		s.defs = append(s.defs, d)
		if to, rest := declare.RenameTarget(inst.root, n.Rename.To); to != nil && !n.RenameBad {
			d.Value = declare.NestIn(d.Value, rest)
			return inst.split(to, d, force)
		}
		return nil
	}
	return inst.splitNamespace(n, d, force)
}

// splitNamespace splits d at namespace n: its properties are pushed down
// (property.PushDown) and each part, an object, is distributed over the
// children of n.
func (inst *instance) splitNamespace(n *declare.Node, d defn, force bool) hcl.Diagnostics {
	// The parts are gathered on a stack shared by nested splits, not in a
	// new slice each (as instance.force gathers definitions). Only while
	// nothing but static thunks is forced: forcing any other may split
	// definitions (reading an option drains namespaces) before Add returns.
	ev := inst.ev
	base := len(ev.partStack)
	defer func() { ev.partStack = ev.partStack[:base] }()
	dis := property.Discharger{Mode: property.PushDown, Force: ev.staticForcer(force), Indexed: true}
	if !force {
		dis.Parts = ev.partStack // Add appends after the parts of the splits this one is nested in
	}
	dis.Add(d.Value, d.Range)
	if force {
		ev.partStack = append(ev.partStack, dis.Parts...)
	} else {
		ev.partStack = dis.Parts
	}
	diags := dis.Diags
	if len(dis.Problems) > 0 {
		diags = options.PropertyErrors(inst.fullPath(n.Path), &dis)
	}
	for _, part := range ev.partStack[base:] {
		seq := d.seq
		if part.Index != nil {
			seq = append(append(make([]int, 0, len(seq)+len(part.Index)), seq...), part.Index...)
		}
		v := part.Value
		if part.State == property.Waiting {
			inst.addPending(n, defn{Def: options.Def{Value: wrapProps(v, part.Wrap), Range: part.Range}, seq: seq})
			continue
		}
		if !v.IsKnown() {
			continue
		}
		if _, ok := property.AsRef(v); ok {
			if !force {
				inst.addPending(n, defn{Def: options.Def{Value: wrapProps(v, part.Wrap), Range: part.Range}, seq: seq})
				continue
			}
			// As in Nix, where the definition is split key by key, an
			// option without a value in it defines nothing.
			m, dd := property.DeepPartial(v)
			diags = append(diags, dd...)
			v = m
		}
		ty := v.Type()
		if v.IsNull() || !(ty.IsObjectType() || ty.IsMapType()) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("%q is a namespace, not an option", inst.fullPath(n.Path).String()),
				Detail:   fmt.Sprintf("%s holds the options %s; define them with an object, not with %s.", capitalize(displayNamespace(inst.fullPath(n.Path))), listNames(n.Names), options.ShowValue(v)),
				Subject:  part.Range.Ptr(),
			})
			continue
		}
		for name, e := range ctyelems.Attrs(v) {
			c := n.Children[name]
			rng := property.RangeOf(e, part.Range)
			if c == nil && inst.hasFreeform() {
				inst.addFreeform(n.Path.Child(name), defn{Def: options.Def{Value: wrapProps(e, part.Wrap), Range: rng}, seq: seq})
				continue
			}
			if c == nil {
				diags = append(diags, inst.ev.notExist(inst.fullPath(n.Path).Child(name), n, name, rng, true))
				continue
			}
			sub := defn{Def: options.Def{Value: wrapProps(e, part.Wrap), Range: rng}, seq: seq}
			diags = append(diags, inst.split(c, sub, force)...)
		}
	}
	return diags
}

// addPending leaves definition d waiting at namespace n.
func (inst *instance) addPending(n *declare.Node, d defn) {
	s := inst.state(n)
	s.pending = append(s.pending, d)
	inst.pending++
}

// wrapProps puts the properties around v, the first outermost. A property
// pushed down takes v's range, so that a definition under a `when` or an
// mkForce of a whole object is shown where it is written.
func wrapProps(v cty.Value, wrap []*property.Property) cty.Value {
	for i := len(wrap) - 1; i >= 0; i-- {
		p := *wrap[i]
		p.Range = property.RangeOf(v, p.Range)
		p.Content = v
		p.Contents = cty.NilVal
		v = property.PropertyVal(p)
	}
	return v
}

func displayNamespace(p options.Path) string {
	if len(p) == 0 {
		return "the configuration"
	}
	return fmt.Sprintf("%q", p.String())
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func listNames(names []string) string {
	if len(names) == 0 {
		return "(none)"
	}
	if len(names) > 8 {
		return strings.Join(names[:8], ", ") + ", ..."
	}
	return strings.Join(names, ", ")
}

// notExist is the diagnostic for a definition or a reference of a path that
// is not declared below namespace n.
func (ev *Evaluator) notExist(full options.Path, n *declare.Node, name string, rng hcl.Range, definition bool) *hcl.Diagnostic {
	var detail string
	if definition {
		detail = fmt.Sprintf("A definition of %q is here, but no module declares that option.", full.String())
	} else {
		detail = fmt.Sprintf("No module declares an option %q.", full.String())
	}
	if s := didYouMean(name, n.Names); s != "" {
		detail += fmt.Sprintf(" Did you mean %q?", full[:len(full)-1].Child(s).String())
	} else if len(n.Names) > 0 && len(n.Names) <= 12 {
		detail += fmt.Sprintf(" Below %s there are: %s.", displayNamespace(full[:len(full)-1]), strings.Join(n.Names, ", "))
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Option %q does not exist", full.String()),
		Detail:   detail,
		Subject:  rng.Ptr(),
	}
}

// drain splits the definitions waiting at namespace n, forcing them.
func (inst *instance) drain(n *declare.Node) hcl.Diagnostics {
	s := inst.peekState(n)
	if s == nil || len(s.pending) == 0 {
		return nil
	}
	if s.draining {
		return hcl.Diagnostics{inst.ev.cycleDiag(nil, fmt.Sprintf("namespace %s", inst.fullPath(n.Path).String()), s.pending[0].Range)}
	}
	s.draining = true
	defer func() { s.draining = false }()
	var diags hcl.Diagnostics
	for len(s.pending) > 0 {
		p := s.pending
		s.pending = nil
		for _, d := range p {
			diags = append(diags, inst.splitNamespace(n, d, true)...)
			// counted until split, so that a drain nested in this one
			// still sees it waiting (and reports the cycle)
			inst.pending--
		}
	}
	inst.ev.late = append(inst.ev.late, diags...)
	return diags
}

// drainTo drains every namespace from the root down to and including the
// node at p.
func (inst *instance) drainTo(p options.Path) hcl.Diagnostics {
	if inst.pending == 0 {
		return nil
	}
	diags := inst.drain(inst.root)
	n := inst.root
	for _, seg := range p {
		n = n.Children[seg]
		if n == nil || !n.IsNamespace() {
			break
		}
		diags = append(diags, inst.drain(n)...)
	}
	return diags
}

// definitions returns the complete, ordered definitions of option node n.
func (inst *instance) definitions(n *declare.Node) ([]defn, hcl.Diagnostics) {
	diags := inst.drainTo(n.Path[:len(n.Path)-1])
	for _, from := range n.RenamedFrom {
		diags = append(diags, inst.drainTo(from.Path[:len(from.Path)-1])...)
	}
	s := inst.state(n)
	// Sorted in place: the order is canonical, so sorting again later
	// (isDefined, then force) keeps it.
	if len(s.defs) > 1 && !slices.IsSortedFunc(s.defs, seqCompare) {
		slices.SortStableFunc(s.defs, seqCompare)
	}
	return s.defs, diags
}

// isStatic reports whether forcing a thunk only builds structure
// (objects, lists, properties) without reading any option: such thunks may
// be forced while definitions are being split.
func isStatic(l property.Lazy) bool {
	switch t := l.(type) {
	case *property.Forced, *guardedThunk:
		return true
	case *thunk:
		return staticExpr(t.expr)
	}
	return false
}

func staticExpr(e hclsyntax.Expression) bool {
	switch e := e.(type) {
	case *hclsyntax.ParenthesesExpr:
		return staticExpr(e.Expression)
	case *hclsyntax.ObjectConsExpr:
		for _, item := range e.Items {
			k, ok := item.KeyExpr.(*hclsyntax.ObjectConsKeyExpr)
			if !ok || k.ForceNonLiteral {
				return false
			}
			if hcl.ExprAsKeyword(k.Wrapped) != "" {
				continue
			}
			if _, ok := keyPath(k.Wrapped); !ok {
				return false
			}
		}
		return true
	case *hclsyntax.TupleConsExpr, *hclsyntax.LiteralValueExpr:
		return true
	case *hclsyntax.FunctionCallExpr:
		// A special form only wraps its arguments in thunks; mkOverride and
		// mkOrder evaluate their number, static when written as one.
		if f, ok := property.FormNamed(e.Name); ok {
			if !f.Number {
				return true
			}
			if len(e.Args) == f.Args {
				_, ok := e.Args[0].(*hclsyntax.LiteralValueExpr)
				return ok
			}
		}
	}
	return false
}

// staticForcer forces the thunks that are safe to force while definitions
// are split (isStatic), or every thunk with force.
func (ev *Evaluator) staticForcer(force bool) property.Forcer {
	if force {
		return nil
	}
	return forceStatic
}

// forceStatic forces l if it is static (see isStatic).
func forceStatic(l property.Lazy) (cty.Value, bool, hcl.Diagnostics) {
	if !isStatic(l) {
		return cty.NilVal, false, nil
	}
	v, diags := l.Force()
	return v, true, diags
}

// defineConfig splits the definition config block c makes in inst, its
// expressions in scope sc, over inst's option tree at place seq in
// definition order.
func (inst *instance) defineConfig(c *syntax.Config, sc *scope, seq []int) hcl.Diagnostics {
	if directConfig {
		if diags, ok := inst.splitConfigDirect(c, sc, seq); ok {
			return diags
		}
	}
	v := inst.ev.configValue(c, sc)
	return inst.split(inst.root, defn{Def: options.Def{Value: v, Range: c.Block.DefRange()}, seq: seq}, false)
}

// directConfig says to split config blocks with splitConfigDirect where
// it applies; the tests turn it off to check it against the general
// split.
var directConfig = true

// configAttr is an attribute of a config block by its name as an object
// key (NFC, as cty.ObjectVal makes it).
type configAttr struct {
	name string
	attr *hclsyntax.Attribute
}

// splitConfigDirect does what splitting configValue(c, sc) from inst's
// root does, without building the objects of the block's prefix and
// taking them apart again, for the blocks most are: in an instance that is
// not freeform, a prefix that goes down namespaces, attributes of distinct
// names. If the prefix reaches an option, the option gets the rest of the
// block (configObject) as one definition; else each attribute's thunk goes
// to its option or namespace, in name order as the object's would. A
// `when` is the mkIf that splitting pushes down to each of them: the
// same condition, around each, at the range the split gives it. It
// reports false, having done nothing, for any other block.
func (inst *instance) splitConfigDirect(c *syntax.Config, sc *scope, seq []int) (hcl.Diagnostics, bool) {
	if inst.hasFreeform() {
		return nil, false
	}
	blockRange := c.Block.DefRange()
	n := inst.root
	for i, p := range c.Prefix {
		n = n.Children[cty.NormalizeString(p)]
		switch {
		case n == nil || n.Rename != nil || n.Removed != nil:
			return nil, false
		case n.Opt != nil:
			v := inst.ev.configObject(c, sc, i+1)
			rng := blockRange
			if c.When != nil {
				if i < len(c.Prefix)-1 {
					rng = c.When.SrcRange // the range of the mkIf, as the rest is a plain object
				}
				v = whenProperty(c, inst.ev.whenThunk(c, sc), v, rng)
			}
			return inst.split(n, defn{Def: options.Def{Value: v, Range: rng}, seq: seq}, false), true
		}
	}
	var buf [16]configAttr
	attrs := buf[:0]
	for _, a := range c.Attrs {
		attrs = append(attrs, configAttr{cty.NormalizeString(a.Name), a})
	}
	slices.SortFunc(attrs, func(a, b configAttr) int { return strings.Compare(a.name, b.name) })
	for i := 1; i < len(attrs); i++ {
		if attrs[i].name == attrs[i-1].name {
			return nil, false
		}
	}
	var cond cty.Value
	if c.When != nil {
		cond = inst.ev.whenThunk(c, sc)
	}
	var diags hcl.Diagnostics
	for _, a := range attrs {
		e := inst.ev.thunk(a.attr.Expr, sc)
		rng := property.RangeOf(e, blockRange)
		child := n.Children[a.name]
		if child == nil {
			diags = append(diags, inst.ev.notExist(inst.fullPath(n.Path).Child(a.name), n, a.name, rng, true))
			continue
		}
		v := e
		if c.When != nil {
			v = whenProperty(c, cond, e, rng)
		}
		diags = append(diags, inst.split(child, defn{Def: options.Def{Value: v, Range: rng}, seq: seq}, false)...)
	}
	return diags, true
}

// configValue builds the definition a config block makes: an object of
// thunks below its prefix, under an mkIf when it has a `when`.
func (ev *Evaluator) configValue(c *syntax.Config, sc *scope) cty.Value {
	v := ev.configObject(c, sc, 0)
	// `when` is NixOS's module-level `config = mkIf cond { ... }`: it wraps
	// the block from the module's root, so that splitting pushes it down
	// through namespaces and it stops at the first option on the label
	// path. A false `when` on "systemd.services.foo.serviceConfig" then
	// defines nothing of systemd.services, not even the key foo.
	if c.When != nil {
		v = whenProperty(c, ev.whenThunk(c, sc), v, c.When.SrcRange)
	}
	return v
}

// configObject is the object of a config block's attributes, as thunks,
// below the labels of its prefix from the one at index from. For a block
// under a `when`, the object of its attributes (the most of the work) is
// a static thunk (guardedThunk, see isStatic) made when first forced,
// which it is not under a false condition (a service not enabled); it has
// the block's range, as the ForcedVal of a block without one, so that
// splitting and explaining read the same either way.
func (ev *Evaluator) configObject(c *syntax.Config, sc *scope, from int) cty.Value {
	var v cty.Value
	if c.When != nil {
		g := &guardedThunk{ev: ev, c: c, sc: sc}
		g.self = g
		v = property.LazyValAt(&g.self)
	} else {
		v = property.ForcedVal(ev.blockAttrs(c, sc), c.Block.DefRange())
	}
	for i := len(c.Prefix) - 1; i >= from; i-- {
		v = ctyelems.ObjectVal(map[string]cty.Value{c.Prefix[i]: v})
	}
	return v
}

// blockAttrs is the object of config block c's attributes, as thunks in
// scope sc.
func (ev *Evaluator) blockAttrs(c *syntax.Config, sc *scope) cty.Value {
	if len(c.Attrs) == 0 {
		return cty.EmptyObjectVal
	}
	attrs := make(map[string]cty.Value, len(c.Attrs))
	for _, a := range c.Attrs {
		attrs[a.Name] = ev.thunk(a.Expr, sc)
	}
	return ctyelems.ObjectVal(attrs)
}

// guardedThunk is the object of a guarded block's attributes (see
// configObject): forcing it reads nothing.
type guardedThunk struct {
	ev   *Evaluator
	c    *syntax.Config
	sc   *scope
	val  cty.Value // cty.NilVal until forced
	self property.Lazy
}

// Force implements property.Lazy: it makes the object, once.
func (g *guardedThunk) Force() (cty.Value, hcl.Diagnostics) {
	if g.val == cty.NilVal {
		g.val = g.ev.blockAttrs(g.c, g.sc)
	}
	return g.val, nil
}

// Range implements property.Lazy: the block's.
func (g *guardedThunk) Range() hcl.Range { return g.c.Block.DefRange() }

// whenThunk is the condition of config block c's `when`, in scope sc.
func (ev *Evaluator) whenThunk(c *syntax.Config, sc *scope) cty.Value {
	return ev.namedThunk(c.When.Expr, sc, "the condition `when`")
}

// whenProperty is the mkIf of config block c's `when`, its condition cond,
// around content, at rng.
func whenProperty(c *syntax.Config, cond, content cty.Value, rng hcl.Range) cty.Value {
	return property.PropertyVal(property.Property{
		Kind:      property.KindIf,
		Cond:      cond,
		CondRange: c.When.Expr.Range(),
		Content:   content,
		Range:     rng,
	})
}

// Instantiate implements options.Instantiator: it creates a submodule
// instance whose definitions are the submodule bodies' own config blocks
// followed by defs (see instantiate for the order).
//
// The instance is made when it is first read, so that merging an
// attrsOf(submodule) option costs nothing per entry until the entry is used.
func (ev *Evaluator) Instantiate(names []string, loc options.Path, defs []options.Def) (cty.Value, hcl.Diagnostics) {
	return property.RefVal(&pendingInstance{ev: ev, names: names, loc: loc, defs: defs}), nil
}

// pendingInstance is a submodule instance not made yet.
type pendingInstance struct {
	ev    *Evaluator
	names []string
	loc   options.Path
	defs  []options.Def

	ref   *nsRef
	diags hcl.Diagnostics
}

func (p *pendingInstance) get() (*nsRef, hcl.Diagnostics) {
	if p.ref == nil && p.diags == nil {
		p.ref, p.diags = p.ev.instantiate(p.names, p.loc, p.defs)
		if p.diags == nil {
			p.diags = hcl.Diagnostics{}
		}
	}
	return p.ref, p.diags
}

// Attr implements property.Ref.
func (p *pendingInstance) Attr(name string, rng hcl.Range) (cty.Value, bool, hcl.Diagnostics) {
	r, diags := p.get()
	if r == nil {
		return cty.DynamicVal, false, diags
	}
	v, ok, d := r.Attr(name, rng)
	return v, ok, append(diags, d...)
}

// Keys implements property.Ref.
func (p *pendingInstance) Keys() ([]string, hcl.Diagnostics) {
	r, diags := p.get()
	if r == nil {
		return nil, diags
	}
	k, d := r.Keys()
	return k, append(diags, d...)
}

// Materialize implements property.Ref.
func (p *pendingInstance) Materialize() (cty.Value, hcl.Diagnostics) {
	return p.materialize((*nsRef).Materialize)
}

// MaterializePartial implements property.PartialRef.
func (p *pendingInstance) MaterializePartial() (cty.Value, hcl.Diagnostics) {
	return p.materialize((*nsRef).MaterializePartial)
}

func (p *pendingInstance) materialize(how func(*nsRef) (cty.Value, hcl.Diagnostics)) (cty.Value, hcl.Diagnostics) {
	r, diags := p.get()
	if r == nil {
		return cty.DynamicVal, diags
	}
	v, d := how(r)
	return v, append(diags, d...)
}

func (ev *Evaluator) instantiate(names []string, loc options.Path, defs []options.Def) (*nsRef, hcl.Diagnostics) {
	st := ev.submoduleType(names)
	var diags hcl.Diagnostics
	if st.Root == nil {
		// Copies: the type may be shared, and forcing adds to errors.
		return nil, copyDiags(st.Diags)
	}
	inst := &instance{
		ev:         ev,
		root:       st.Root,
		st:         st,
		loc:        loc,
		states:     map[*declare.Node]*nodeState{},
		bodyLocals: map[*syntax.Submodule]*localSet{},
	}
	if len(loc) > 0 {
		inst.name = cty.StringVal(loc[len(loc)-1])
	}
	// userFirst copies the ranges: they are gathered on the stack
	var buf [4]hcl.Range
	ranges := buf[:0]
	for _, d := range defs {
		ranges = append(ranges, d.Range)
	}
	inst.defRanges = userFirst(ranges)
	ev.instances = append(ev.instances, inst)
	ev.stats.Instances++
	// The instance is an evaluation whose modules are the submodule
	// bodies, wrapped one import level below, then its definitions; so,
	// as in NixOS (types.submoduleWith), the bodies' definitions come
	// first, the last-declared body first, then the definitions in
	// reverse.
	nb := len(st.Bodies)
	for j, body := range st.Bodies {
		sc := inst.bodyScope(body)
		for k, c := range body.Configs {
			diags = append(diags, inst.defineConfig(c, sc, []int{nb - 1 - j, k})...)
		}
	}
	n := len(defs)
	for i, d := range defs {
		diags = append(diags, inst.split(inst.root, defn{Def: d, seq: []int{nb + n - 1 - i}}, false)...)
	}
	return inst.rootNamespace(), diags
}
