package eval

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/nodegen/nodegen/eval/internal/declare"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// status of a memoised computation.
type status uint8

const (
	unforced status = iota
	forcing
	done
)

// nodeState is what an instance knows about one node of its option tree.
type nodeState struct {
	defs    []defn // definitions of an option (or of a renamed/removed path)
	pending []defn // definitions of a namespace not yet split

	value cty.Value
	// parts are the definitions of an option once forced, with what became
	// of each (options.Merged.Defs)
	parts []property.Part
	diags hcl.Diagnostics

	// the flags are together, not each padded to a word: there are
	// thousands of states in an evaluation
	status   status
	defined  bool
	draining bool

	// the materialized values of a namespace, made when it is first
	// materialized: most nodes are options, which have none
	mats *namespaceValues
}

// namespaceValues are the memoised values of a namespace as a whole: the
// materialized one (see nsRef.Materialize) and the partial one, and the
// reference to it that reading it gives (see instance.value).
type namespaceValues struct {
	mat, part materialized
	ref       nsRef
	refVal    cty.Value
}

// namespaceValues returns the materialized values of n, made on first use.
func (inst *instance) namespaceValues(n *declare.Node) *namespaceValues {
	s := inst.state(n)
	if s.mats == nil {
		s.mats = &namespaceValues{}
	}
	return s.mats
}

// materialized is the memoised value of a namespace as a whole.
type materialized struct {
	status status
	value  cty.Value
	diags  hcl.Diagnostics
}

// force evaluates option n: merges its definitions with its default, checks
// them against its type and applies apply. ref is where it is needed from.
func (inst *instance) force(n *declare.Node, ref hcl.Range) *nodeState {
	s := inst.state(n)
	switch s.status {
	case done:
		return s
	case forcing:
		return &nodeState{status: done, value: cty.DynamicVal, diags: hcl.Diagnostics{inst.ev.cycleDiag(s, "option "+inst.fullPath(n.Path).String(), ref)}}
	}
	ev := inst.ev
	ev.push(frame{state: s, inst: inst, opt: n, ref: ref})
	defer ev.pop()
	s.status = forcing
	ev.stats.Options++
	o := n.Opt
	full := inst.fullPath(n.Path)
	defs, diags := inst.definitions(n)
	if len(defs) == 0 && len(diags) == 0 && ev.defaults != nil && sharedDefault(inst, o) {
		if m, ok := ev.defaults.Load(o); ok {
			merged := m.(*options.Merged)
			s.parts, s.value, s.defined = merged.Defs, merged.Value, merged.Defined
			s.status = done
			return s
		}
	}
	// The definitions are gathered on a stack shared by nested forces
	// (MergeDefinitions copies what it keeps), not in a new slice each.
	base := len(ev.defStack)
	defer func() { ev.defStack = ev.defStack[:base] }()
	if o.DefaultExpr != nil {
		ev.defStack = append(ev.defStack, inst.defaultDef(o))
	}
	for _, d := range defs {
		ev.defStack = append(ev.defStack, d.Def)
	}
	top := len(ev.defStack)
	all := ev.defStack[base:top:top]
	merged, dd := ev.merger.MergeDefinitions(full, ev.optionType(o), all)
	diags = append(diags, dd...)
	s.parts = merged.Defs
	s.value, s.defined = merged.Value, merged.Defined
	// A read-only option has one definition, its default included,
	// counted as NixOS's evalOptionValue does: before priorities and
	// before conditions, so that one under a false mkIf counts too.
	if !diags.HasErrors() && s.value.IsKnown() && holdsFunc(s.value.Type()) {
		rng := o.Block.DefRange()
		for _, d := range merged.Defs {
			if dv, _ := property.Deep(d.Value); dv.IsKnown() && holdsFunc(dv.Type()) {
				rng = d.Range
				break
			}
		}
		diags = append(diags, funcValueDiag(rng, fmt.Sprintf("a value of the option %s", full)))
	}
	if o.ReadOnly && len(merged.Defs) > 1 {
		diags = append(diags, readOnlyDiag(full, merged.Defs))
	}
	if s.defined && o.Apply != nil && !diags.HasErrors() {
		sc := inst.declScope(o).with("value", s.value)
		v, dd := sc.eval(o.Apply)
		diags = append(diags, dd...)
		v, dd = property.Shallow(v)
		diags = append(diags, dd...)
		s.value = v
	}
	if diags.HasErrors() {
		s.value = cty.DynamicVal
		inst.noteOrigin(diags)
	}
	if len(defs) == 0 && len(diags) == 0 && ev.defaults != nil && sharedDefault(inst, o) {
		kept := merged // a copy, so that merged stays on the stack
		ev.defaults.Store(o, &kept)
	}
	ev.addTrace(diags)
	s.diags = diags
	s.status = done
	return s
}

// sharedDefault says the value of option o of inst, when nothing defines
// it, is the same in every evaluation of the declared tree: o is of the
// top level, its default a constant, with no apply and a type of no
// submodule or path. Evaluations of a tree that others share keep that
// value, merged once, in the tree's Facts (Evaluator.defaults).
func sharedDefault(inst *instance, o *declare.Option) bool {
	return inst.st == nil && o.ConstDefault != nil && o.Apply == nil && !o.OwnType
}

// defaultDef is the definition an option's default makes: its value at
// mkOptionDefault's priority. A constant default's is made when the option
// is declared (see declare's settleDefault) and shared by every instance.
func (inst *instance) defaultDef(o *declare.Option) options.Def {
	if o.ConstDefault != nil {
		return *o.ConstDefault
	}
	return declare.DefaultAt(o.DefaultExpr, inst.ev.thunk(o.DefaultExpr, inst.declScope(o)))
}

// optionType is the type of the declared option o in this evaluation.
func (ev *Evaluator) optionType(o *declare.Option) options.Type {
	if !o.OwnType {
		return o.Type
	}
	return ev.typeOf(o, o.Type)
}

// typeOf is t, the type of a declaration (a *declare.Option or a
// *declare.SubType's freeform type) of the declared tree, bound to this
// evaluation: its submodules are instances of this evaluation and its
// paths resolve through it (options.Bind). Each is bound once.
func (ev *Evaluator) typeOf(of any, t options.Type) options.Type {
	if b, ok := ev.bound[of]; ok {
		return b
	}
	b := options.Bind(t, ev, ev)
	ev.bound[of] = b
	return b
}

func readOnlyDiag(full options.Path, defs []property.Part) *hcl.Diagnostic {
	var b strings.Builder
	fmt.Fprintf(&b, "The option %q is read-only, but it is set %d times:", full.String(), len(defs))
	for _, d := range defs {
		if d.State == property.Disabled {
			at := ""
			if d.Cond != nil {
				at = " at " + options.ShowPos(*d.Cond)
			}
			fmt.Fprintf(&b, "\n  - %s: %s (under a false condition%s)", options.ShowPos(d.Range), showDef(d.Value), at)
			continue
		}
		fmt.Fprintf(&b, "\n  - %s: %s", options.ShowPos(d.Range), showDef(d.Value))
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Option %q is read-only", full.String()),
		Detail:   b.String(),
		Subject:  defs[len(defs)-1].Range.Ptr(),
	}
}

func showDef(v cty.Value) string {
	if _, ok := property.AsLazy(v); ok {
		if f, ok := v.EncapsulatedValue().(*property.Lazy); ok {
			if fv, ok := (*f).(*property.Forced); ok {
				return options.ShowValue(fv.Value)
			}
			if g, ok := (*f).(*guardedThunk); ok {
				gv, _ := g.Force() // structure alone: it reads nothing
				return options.ShowValue(gv)
			}
			if t, ok := (*f).(*thunk); ok && t.status == done {
				return options.ShowValue(t.val)
			}
		}
	}
	return options.ShowValue(v)
}

// value returns the value of node c for a reader at rng: an option's value,
// a namespace reference, or the target of a renamed option.
func (inst *instance) value(c *declare.Node, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch {
	case c.Opt != nil:
		inst.ev.record(inst, c)
		s := inst.force(c, rng)
		if !s.defined && !s.diags.HasErrors() {
			d := inst.undefinedDiag(c, rng)
			// traced here, where the chain still holds the locals that
			// read the option
			inst.ev.addTrace(hcl.Diagnostics{d})
			return cty.DynamicVal, append(s.diags, d)
		}
		return s.value, s.diags
	case c.Rename != nil:
		to, rest := declare.RenameTarget(inst.root, c.Rename.To)
		if to == nil {
			return cty.DynamicVal, nil
		}
		v, diags := inst.value(to, rng)
		for _, name := range rest {
			if diags.HasErrors() {
				break
			}
			var d hcl.Diagnostics
			v, d = getAttr(v, name, rng)
			diags = append(diags, d...)
		}
		return v, diags
	case c.Removed != nil:
		msg, _ := inst.ev.removedMessage(c)
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Option %q was removed", inst.fullPath(c.Path).String()),
			Detail:   msg,
			Subject:  rng.Ptr(),
		}}
	}
	// The reference is made once: expressions read a namespace again and
	// again (config.services in every service's condition).
	nv := inst.namespaceValues(c)
	if nv.refVal == cty.NilVal {
		nv.ref = nsRef{inst: inst, n: c}
		nv.refVal = property.RefVal(&nv.ref)
	}
	return nv.refVal, nil
}

// undefinedDiag is the error for reading option c of inst, which has no
// value, at rng. Inside a submodule instance that the user defined, read
// from the library, it points at the user's definition of the instance,
// the line to fix.
func (inst *instance) undefinedDiag(c *declare.Node, rng hcl.Range) *hcl.Diagnostic {
	full := inst.fullPath(c.Path)
	detail := fmt.Sprintf("The option %q (declared at %s) has no default and no definition, and its value is needed here. Define it in a config block.", full.String(), options.ShowPos(c.Opt.Block.DefRange()))
	if user, ok := userRange(inst.defRanges); ok && len(inst.loc) > 0 && (inLibrary(rng) || rng.Filename == commandLine) {
		where := "at " + options.ShowPos(rng)
		if rng.Filename == commandLine {
			where = "on the command line"
		}
		detail = fmt.Sprintf("The option %q (declared at %s) has no default, and this definition of the submodule instance %q does not set it; its value is needed %s. Add %s to this definition.",
			full.String(), options.ShowPos(c.Opt.Block.DefRange()), inst.loc.String(), where, c.Path.String()+" = ...")
		rng = user
	} else if o := inst.origin(); o != "" {
		detail += " " + o
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Option %q is used but not defined", full.String()),
		Detail:   detail,
		Subject:  rng.Ptr(),
		Extra:    undefinedOption(full.String()),
	}
}

// undefinedOption marks the diagnostic of reading an option that has no
// value (see dedupe).
type undefinedOption string

// nsRef is a lazy reference to a namespace of an instance.
type nsRef struct {
	inst *instance
	n    *declare.Node
}

// Attr implements property.Ref.
func (r *nsRef) Attr(name string, rng hcl.Range) (cty.Value, bool, hcl.Diagnostics) {
	diags := r.inst.drainTo(r.n.Path)
	c := r.n.Children[name]
	if c == nil && r.inst.hasFreeform() {
		v, ok, d := r.inst.freeformAttr(r.n, name)
		if ok || d.HasErrors() {
			return v, ok, append(diags, d...)
		}
	}
	if c == nil {
		return cty.DynamicVal, false, append(diags, r.inst.ev.notExist(r.inst.fullPath(r.n.Path).Child(name), r.n, name, rng, false))
	}
	v, d := r.inst.value(c, rng)
	return v, true, append(diags, d...)
}

// Keys implements property.Ref: every namespace and every option with a value.
func (r *nsRef) Keys() ([]string, hcl.Diagnostics) {
	diags := r.inst.drainTo(r.n.Path)
	var out []string
	for _, name := range r.n.Names {
		c := r.n.Children[name]
		switch {
		case c.Opt != nil:
			s := r.inst.force(c, c.Opt.Block.DefRange())
			diags = append(diags, s.diags...)
			if s.defined {
				out = append(out, name)
			}
		case c.IsNamespace():
			out = append(out, name)
		}
	}
	if r.inst.hasFreeform() {
		free, d := r.inst.freeformAttrs(r.n)
		diags = append(diags, d...)
		for k := range free {
			out = append(out, k)
		}
		sort.Strings(out)
	}
	return out, diags
}

// Materialize implements property.Ref: every option, forced; an option
// without a value is an error, as in Nix, where reading a set deeply reads
// each of its options. The result is memoised.
func (r *nsRef) Materialize() (cty.Value, hcl.Diagnostics) {
	return r.memo(&r.inst.namespaceValues(r.n).mat, false)
}

// MaterializePartial implements property.PartialRef: every option that
// has a value, forced (for --json).
func (r *nsRef) MaterializePartial() (cty.Value, hcl.Diagnostics) {
	return r.memo(&r.inst.namespaceValues(r.n).part, true)
}

func (r *nsRef) memo(m *materialized, partial bool) (cty.Value, hcl.Diagnostics) {
	switch m.status {
	case done:
		return m.value, m.diags
	case forcing:
		return cty.DynamicVal, hcl.Diagnostics{r.inst.ev.cycleDiag(r.inst.state(r.n), "namespace "+r.inst.fullPath(r.n.Path).String(), r.n.RangeOrZero())}
	}
	m.status = forcing
	m.value, m.diags = r.materialize(partial)
	m.status = done
	return m.value, m.diags
}

func (r *nsRef) materialize(partial bool) (cty.Value, hcl.Diagnostics) {
	diags := r.inst.drainTo(r.n.Path)
	attrs := make(map[string]cty.Value, len(r.n.Names))
	for _, name := range r.n.Names {
		c := r.n.Children[name]
		switch {
		case c.Opt != nil:
			s := r.inst.force(c, c.Opt.Block.DefRange())
			diags = append(diags, s.diags...)
			if !s.defined {
				if !partial && !s.diags.HasErrors() {
					d := r.inst.undefinedDiag(c, hcl.Range{})
					if *d.Subject == (hcl.Range{}) {
						d.Subject = nil // where the namespace is read (see scope.deep)
					}
					diags = append(diags, d)
				}
				continue
			}
			deep := property.Deep
			if partial {
				deep = property.DeepPartial
			}
			v, d := deep(s.value)
			diags = append(diags, d...)
			attrs[name] = v
		case c.IsNamespace():
			sub := &nsRef{inst: r.inst, n: c}
			materialize := sub.Materialize
			if partial {
				materialize = sub.MaterializePartial
			}
			v, d := materialize()
			diags = append(diags, d...)
			if v.IsKnown() && v.LengthInt() == 0 {
				continue
			}
			attrs[name] = v
		}
	}
	if r.inst.hasFreeform() {
		free, d := r.inst.freeformAttrs(r.n)
		diags = append(diags, d...)
		deep := property.Deep
		if partial {
			deep = property.DeepPartial
		}
		for k, e := range free {
			v, d := deep(e)
			diags = append(diags, d...)
			attrs[k] = v
		}
	}
	if len(attrs) == 0 {
		return cty.EmptyObjectVal, diags
	}
	return ctyelems.ObjectVal(attrs), diags
}

// frame is one step of the evaluation chain: an option or a local being
// evaluated, and where it was referenced from.
type frame struct {
	state any
	what  string
	// an option's frame names it by instance and node; the name is only
	// built when a message needs it. fact is set when the frame reads a
	// fact of the option (options.X.isDefined), not its value.
	inst *instance
	opt  *declare.Node
	fact string
	ref  hcl.Range
}

// isOption reports whether the frame evaluates an option's value.
func (f frame) isOption() bool { return f.opt != nil && f.fact == "" }

// name is what the frame evaluates, as messages show it; "" for an
// anonymous expression.
func (f frame) name() string {
	switch {
	case f.opt != nil && f.fact != "":
		return "options." + f.inst.fullPath(f.opt.Path).String() + "." + f.fact
	case f.opt != nil:
		return "option " + f.inst.fullPath(f.opt.Path).String()
	}
	return f.what
}

func (ev *Evaluator) push(f frame) { ev.stack = append(ev.stack, f) }

func (ev *Evaluator) pop() { ev.stack = ev.stack[:len(ev.stack)-1] }

// cycleDiag is the infinite recursion diagnostic: the chain from where the
// node (state) was first entered to the reference at ref that re-enters it.
func (ev *Evaluator) cycleDiag(state any, what string, ref hcl.Range) *hcl.Diagnostic {
	start := 0
	if state != nil {
		for i := len(ev.stack) - 1; i >= 0; i-- {
			if ev.stack[i].state == state {
				start = i
				break
			}
		}
	}
	// A chain of expressions alone (a `when` that reads options.X.isDefined
	// of an option it defines) starts at the option that needed them, so
	// that the message names an option.
	if !slices.ContainsFunc(ev.stack[start:], frame.isOption) {
		for i := start - 1; i >= 0; i-- {
			if ev.stack[i].isOption() {
				start = i
				break
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The value of %s depends on itself:", strings.TrimPrefix(what, "option "))
	for _, f := range ev.stack[start:] {
		if f.name() == "" {
			continue
		}
		fmt.Fprintf(&b, "\n  %s%s", f.name(), refNote(f.ref))
	}
	fmt.Fprintf(&b, "\n  %s%s", what, refNote(ref))
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Infinite recursion",
		Detail:   b.String(),
		Subject:  ref.Ptr(),
	}
}

func refNote(r hcl.Range) string {
	switch r.Filename {
	case "":
		return ""
	case commandLine:
		return " (requested on the command line)"
	}
	return fmt.Sprintf(" (referenced at %s)", options.ShowPos(r))
}

// addTrace appends the evaluation chain to new error diagnostics when
// --show-trace is on.
func (ev *Evaluator) addTrace(diags hcl.Diagnostics) {
	if !ev.cfg.ShowTrace {
		return
	}
	for _, d := range diags {
		if d.Severity != hcl.DiagError || ev.traced[d] {
			continue
		}
		ev.traced[d] = true
		var b strings.Builder
		b.WriteString(d.Detail)
		b.WriteString("\n\nEvaluation chain:")
		for i := len(ev.stack) - 1; i >= 0; i-- {
			f := ev.stack[i]
			if f.name() == "" {
				continue
			}
			fmt.Fprintf(&b, "\n  while evaluating %s%s", f.name(), refNote(f.ref))
			if f.opt != nil {
				b.WriteString(userDefinitionsNote(f.inst, f.opt))
			}
		}
		d.Detail = b.String()
	}
}

// thunk is an expression evaluated on first use, in a scope.
type thunk struct {
	expr   hclsyntax.Expression
	sc     *scope
	what   string // "local.NAME" for locals: shown in evaluation chains
	status status
	val    cty.Value
	diags  hcl.Diagnostics
	deep   *deepState    // made by ForceDeep
	self   property.Lazy // the thunk itself, which its cty value points to
}

// deepState memoises a thunk's deeply forced value.
type deepState struct {
	status status
	val    cty.Value
	diags  hcl.Diagnostics
}

func (ev *Evaluator) thunk(expr hclsyntax.Expression, sc *scope) cty.Value {
	return ev.namedThunk(expr, sc, "")
}

// namedThunk is thunk for an expression that evaluation chains name (what).
func (ev *Evaluator) namedThunk(expr hclsyntax.Expression, sc *scope, what string) cty.Value {
	if lit, ok := expr.(*hclsyntax.LiteralValueExpr); ok {
		return property.ForcedVal(lit.Val, lit.SrcRange)
	}
	t := ev.arena.newThunk(expr, sc, what)
	t.self = t
	return property.LazyValAt(&t.self)
}

// Force implements property.Lazy.
func (t *thunk) Force() (cty.Value, hcl.Diagnostics) {
	return t.forceAt(t.expr.Range())
}

// forceAt forces the thunk for a reader at ref (shown in evaluation chains).
func (t *thunk) forceAt(ref hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch t.status {
	case done:
		return t.val, t.diags
	case forcing:
		what := t.what
		if what == "" {
			what = "expression"
		}
		return cty.DynamicVal, hcl.Diagnostics{t.sc.inst.ev.cycleDiag(t, what, ref)}
	}
	ev := t.sc.inst.ev
	if d := ev.checkDepth(t.expr.Range()); d != nil {
		return cty.DynamicVal, hcl.Diagnostics{d}
	}
	t.status = forcing
	ev.stats.Thunks++
	ev.push(frame{state: t, what: t.what, ref: ref})
	v, diags := t.sc.eval(t.expr)
	v2, d := property.Shallow(v)
	diags = append(diags, d...)
	ev.pop()
	if diags.HasErrors() {
		v2 = cty.DynamicVal
		diags = ev.noteCall(sameOnce(diags), t.sc.site)
	}
	t.val, t.diags, t.status = v2, diags, done
	return t.val, t.diags
}

// sameOnce drops the repeats of a diagnostic: an expression that reads a
// failed value twice ("${local.a}${local.a}") has its error twice, and
// without this a chain of them would double the list at every step.
func sameOnce(diags hcl.Diagnostics) hcl.Diagnostics {
	if len(diags) < 2 {
		return diags
	}
	seen := make(map[*hcl.Diagnostic]bool, len(diags))
	out := diags[:0:0]
	for _, d := range diags {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// ForceDeep implements property.DeepForcer. A value that contains itself (a
// local object holding the local) has no complete form: forcing it deeply
// is an infinite recursion.
func (t *thunk) ForceDeep() (cty.Value, hcl.Diagnostics) {
	if t.deep == nil {
		// A value with nothing to force inside (a string, a number, a
		// list of them: most values) is its own deep form, with no memo.
		v, diags := t.Force()
		if t.status != done {
			return v, diags
		}
		if deepAlready(t.val) {
			return t.val, t.diags
		}
		t.deep = &deepState{}
	}
	switch t.deep.status {
	case done:
		return t.deep.val, t.deep.diags
	case forcing:
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Infinite recursion",
			Detail:   "This value contains itself (an object or list holding a reference to where it is defined), so it has no complete form.",
			Subject:  t.expr.Range().Ptr(),
		}}
	}
	v, diags := t.Force()
	if t.status != done {
		return v, diags
	}
	t.deep.status = forcing
	ev := t.sc.inst.ev
	ev.push(frame{state: t, what: t.what, ref: t.expr.Range()})
	dv, d := property.Deep(v)
	ev.pop()
	diags = append(append(hcl.Diagnostics(nil), diags...), d...)
	if diags.HasErrors() {
		dv = cty.DynamicVal
	}
	*t.deep = deepState{status: done, val: dv, diags: diags}
	return dv, diags
}

// deepAlready reports whether property.Deep(v) is v, with no diagnostics,
// for v a thunk's shallow value: v holds no thunk and no reference.
func deepAlready(v cty.Value) bool {
	if _, ok := property.AsRef(v); ok {
		return false
	}
	return !v.IsKnown() || v.IsNull() || !property.NeedsDeep(v.Type())
}

// Range implements property.Lazy.
func (t *thunk) Range() hcl.Range { return t.expr.Range() }
