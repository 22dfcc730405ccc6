package eval

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/internal/hclsyntax"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// instance is one evaluation of an option tree: the top-level
// configuration, or one submodule instance.
type instance struct {
	ev   *Evaluator
	root *declNode
	st   *subType // nil for the top level
	loc  options.Path
	name cty.Value // the attribute name of a submodule instance; NilVal at the top

	states     map[*declNode]*nodeState
	bodyLocals map[*submoduleSyntax]*localSet
	// pending counts the definitions waiting at namespaces (see drain).
	pending int
	// config is the reference to the instance's root, made once.
	config cty.Value
}

// configRef is what `config` is in the instance's expressions: a reference
// to its root namespace.
func (inst *instance) configRef() cty.Value {
	if inst.config == cty.NilVal {
		inst.config = property.RefVal(&nsRef{inst: inst, n: inst.root})
	}
	return inst.config
}

// status of a memoised computation.
type status uint8

const (
	unforced status = iota
	forcing
	done
)

// nodeState is what an instance knows about one node of its option tree.
type nodeState struct {
	defs     []defn // definitions of an option (or of a renamed/removed path)
	pending  []defn // definitions of a namespace not yet split
	draining bool

	status  status
	value   cty.Value
	defined bool
	merged  options.Merged
	diags   hcl.Diagnostics

	// the materialized value of a namespace (see nsRef.Materialize)
	matStatus status
	matValue  cty.Value
	matDiags  hcl.Diagnostics
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

func (inst *instance) state(n *declNode) *nodeState {
	if inst.st == nil {
		// The top level is the only instance of its tree: its state
		// lives in the node, saving a map lookup per access.
		if n.topState == nil {
			n.topState = &nodeState{}
		}
		return n.topState
	}
	s := inst.states[n]
	if s == nil {
		s = &nodeState{}
		inst.states[n] = s
	}
	return s
}

// peekState is n's state if it has one.
func (inst *instance) peekState(n *declNode) *nodeState {
	if inst.st == nil {
		return n.topState
	}
	return inst.states[n]
}

// fullPath is an option path as the user sees it: with the instance's
// location in front.
func (inst *instance) fullPath(p options.Path) options.Path {
	if len(inst.loc) == 0 {
		return p
	}
	out := make(options.Path, 0, len(inst.loc)+len(p))
	return append(append(out, inst.loc...), p...)
}

// split distributes a definition made at node n over the options below it,
// pushing mkIf, mkOverride and mkMerge down through namespaces as NixOS
// does. With force false it evaluates nothing: a definition whose shape is
// not written out in the source waits at its namespace until an option
// below is needed (see drain).
func (inst *instance) split(n *declNode, d defn, force bool) hcl.Diagnostics {
	switch {
	case n.opt != nil, n.removed != nil:
		s := inst.state(n)
		s.defs = append(s.defs, d)
		return nil
	case n.rename != nil:
		s := inst.state(n)
		s.defs = append(s.defs, d)
		if to := lookupDecl(inst.root, n.rename.to); to != nil {
			return inst.split(to, d, force)
		}
		return nil
	}
	return inst.splitNamespace(n, d, force)
}

// splitNamespace splits d at namespace n: its properties are pushed down
// (property.PushDown) and each part, an object, is distributed over the
// children of n.
func (inst *instance) splitNamespace(n *declNode, d defn, force bool) hcl.Diagnostics {
	dis := property.Discharger{Mode: property.PushDown, Force: inst.ev.staticForcer(force), Indexed: true}
	dis.Add(d.Value, d.Range)
	diags := dis.Diags
	if len(dis.Problems) > 0 {
		diags = options.PropertyErrors(inst.fullPath(n.path), &dis)
	}
	for _, part := range dis.Parts {
		seq := d.seq
		if part.Index != nil {
			seq = append(append(make([]int, 0, len(seq)+len(part.Index)), seq...), part.Index...)
		}
		v := part.Value
		if part.Fate == property.Waiting {
			inst.addPending(n, defn{Def: options.Def{Value: wrapProps(v, part.Wrap), Range: part.Range}, seq: seq})
			continue
		}
		if !v.IsKnown() {
			continue
		}
		if r, ok := property.AsRef(v); ok {
			if !force {
				inst.addPending(n, defn{Def: options.Def{Value: wrapProps(v, part.Wrap), Range: part.Range}, seq: seq})
				continue
			}
			m, dd := r.Materialize()
			diags = append(diags, dd...)
			v = m
		}
		ty := v.Type()
		if v.IsNull() || !(ty.IsObjectType() || ty.IsMapType()) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("%q is a namespace, not an option", inst.fullPath(n.path).String()),
				Detail:   fmt.Sprintf("%s holds the options %s; define them with an object, not with %s.", capitalize(displayNamespace(inst.fullPath(n.path))), listNames(n.names), options.ShowValue(v)),
				Subject:  part.Range.Ptr(),
			})
			continue
		}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			name := k.AsString()
			c := n.children[name]
			rng := property.RangeOf(e, part.Range)
			if c == nil {
				diags = append(diags, inst.ev.notExist(inst.fullPath(n.path).Child(name), n, name, rng, true))
				continue
			}
			sub := defn{Def: options.Def{Value: wrapProps(e, part.Wrap), Range: rng}, seq: seq}
			diags = append(diags, inst.split(c, sub, force)...)
		}
	}
	return diags
}

// addPending leaves definition d waiting at namespace n.
func (inst *instance) addPending(n *declNode, d defn) {
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
func (ev *Evaluator) notExist(full options.Path, n *declNode, name string, rng hcl.Range, definition bool) *hcl.Diagnostic {
	var detail string
	if definition {
		detail = fmt.Sprintf("A definition of %q is here, but no module declares that option.", full.String())
	} else {
		detail = fmt.Sprintf("No module declares an option %q.", full.String())
	}
	if s := didYouMean(name, n.names); s != "" {
		detail += fmt.Sprintf(" Did you mean %q?", full[:len(full)-1].Child(s).String())
	} else if len(n.names) > 0 && len(n.names) <= 12 {
		detail += fmt.Sprintf(" Below %s there are: %s.", displayNamespace(full[:len(full)-1]), strings.Join(n.names, ", "))
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("option %q does not exist", full.String()),
		Detail:   detail,
		Subject:  rng.Ptr(),
	}
}

// drain splits the definitions waiting at namespace n, forcing them.
func (inst *instance) drain(n *declNode) hcl.Diagnostics {
	s := inst.peekState(n)
	if s == nil || len(s.pending) == 0 {
		return nil
	}
	if s.draining {
		return hcl.Diagnostics{inst.ev.cycleDiag(nil, fmt.Sprintf("namespace %s", inst.fullPath(n.path).String()), s.pending[0].Range)}
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
		n = n.children[seg]
		if n == nil || !n.isNamespace() {
			break
		}
		diags = append(diags, inst.drain(n)...)
	}
	return diags
}

// definitions returns the complete, ordered definitions of option node n.
func (inst *instance) definitions(n *declNode) ([]defn, hcl.Diagnostics) {
	diags := inst.drainTo(n.path[:len(n.path)-1])
	for _, from := range n.renamedFrom {
		diags = append(diags, inst.drainTo(from.path[:len(from.path)-1])...)
	}
	s := inst.state(n)
	// Sorted in place: the order is canonical, so sorting again later
	// (isDefined, then force) keeps it.
	if len(s.defs) > 1 && !slices.IsSortedFunc(s.defs, seqCompare) {
		slices.SortStableFunc(s.defs, seqCompare)
	}
	return s.defs, diags
}

// force evaluates option n: merges its definitions with its default, checks
// them against its type and applies apply. ref is where it is needed from.
func (inst *instance) force(n *declNode, ref hcl.Range) *nodeState {
	s := inst.state(n)
	switch s.status {
	case done:
		return s
	case forcing:
		return &nodeState{status: done, value: cty.DynamicVal, diags: hcl.Diagnostics{inst.ev.cycleDiag(s, "option "+inst.fullPath(n.path).String(), ref)}}
	}
	ev := inst.ev
	ev.push(frame{state: s, inst: inst, opt: n, ref: ref})
	defer ev.pop()
	s.status = forcing
	ev.stats.Options++
	o := n.opt
	full := inst.fullPath(n.path)
	defs, diags := inst.definitions(n)
	// The definitions are gathered on a stack shared by nested forces
	// (MergeDefinitions copies what it keeps), not in a new slice each.
	base := len(ev.defStack)
	defer func() { ev.defStack = ev.defStack[:base] }()
	if o.defaultExpr != nil {
		ev.defStack = append(ev.defStack, inst.defaultDef(o))
	}
	for _, d := range defs {
		ev.defStack = append(ev.defStack, d.Def)
	}
	top := len(ev.defStack)
	all := ev.defStack[base:top:top]
	merged, dd := options.MergeDefinitions(full, o.typ, all)
	diags = append(diags, dd...)
	s.merged = merged
	s.value, s.defined = merged.Value, merged.Defined
	if o.readOnly {
		var live []options.DefResult
		for _, r := range merged.Defs {
			if r.State != options.Disabled {
				live = append(live, r)
			}
		}
		if len(live) > 1 {
			diags = append(diags, readOnlyDiag(full, live))
		}
	}
	if s.defined && o.apply != nil && !diags.HasErrors() {
		sc := inst.declScope(o).with(map[string]cty.Value{"value": s.value})
		v, dd := sc.eval(o.apply)
		diags = append(diags, dd...)
		v, dd = property.Shallow(v)
		diags = append(diags, dd...)
		s.value = v
	}
	if diags.HasErrors() {
		s.value = cty.DynamicVal
	}
	ev.addTrace(diags)
	s.diags = diags
	s.status = done
	return s
}

// defaultDef is the definition an option's default makes: its value at
// mkOptionDefault's priority. A constant default's is made once and shared
// by every instance.
func (inst *instance) defaultDef(o *optionDecl) options.Def {
	if o.constDefault != nil {
		return *o.constDefault
	}
	rng := o.defaultExpr.Range()
	var content cty.Value
	v, constant := constantValue(o.defaultExpr)
	if constant {
		content = property.ForcedVal(v, rng)
	} else {
		content = inst.ev.thunk(o.defaultExpr, inst.declScope(o))
	}
	d := options.Def{
		Value: property.PropertyVal(property.Property{Kind: property.KindOverride, Priority: property.PriorityOptionDefault, Content: content, Range: rng}),
		Range: rng,
	}
	if constant {
		o.constDefault = &d
	}
	return d
}

// constantValue is the value of an expression that is a constant, read
// off the syntax tree: a literal, a quoted string with nothing
// interpolated, or an empty list or object.
func constantValue(e hclsyntax.Expression) (cty.Value, bool) {
	switch e := e.(type) {
	case *hclsyntax.LiteralValueExpr:
		return e.Val, true
	case *hclsyntax.TemplateExpr:
		if len(e.Parts) == 1 {
			if lit, ok := e.Parts[0].(*hclsyntax.LiteralValueExpr); ok && lit.Val.Type() == cty.String {
				return lit.Val, true
			}
		}
	case *hclsyntax.TupleConsExpr:
		if len(e.Exprs) == 0 {
			return cty.EmptyTupleVal, true
		}
	case *hclsyntax.ObjectConsExpr:
		if len(e.Items) == 0 {
			return cty.EmptyObjectVal, true
		}
	}
	return cty.NilVal, false
}

func readOnlyDiag(full options.Path, defs []options.DefResult) *hcl.Diagnostic {
	var b strings.Builder
	fmt.Fprintf(&b, "The option %q is read-only, but it is set %d times:", full.String(), len(defs))
	for _, d := range defs {
		fmt.Fprintf(&b, "\n  - %s: %s", rangeString(d.Range), showDef(d.Value))
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("option %q is read-only", full.String()),
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
			if t, ok := (*f).(*thunk); ok && t.status == done {
				return options.ShowValue(t.val)
			}
		}
	}
	return options.ShowValue(v)
}

// value returns the value of node c for a reader at rng: an option's value,
// a namespace reference, or the target of a renamed option.
func (inst *instance) value(c *declNode, rng hcl.Range) (cty.Value, hcl.Diagnostics) {
	switch {
	case c.opt != nil:
		s := inst.force(c, rng)
		if !s.defined && !s.diags.HasErrors() {
			return cty.DynamicVal, append(s.diags, inst.ev.undefinedDiag(inst.fullPath(c.path), c.opt, rng))
		}
		return s.value, s.diags
	case c.rename != nil:
		to := lookupDecl(inst.root, c.rename.to)
		if to == nil {
			return cty.DynamicVal, nil
		}
		return inst.value(to, rng)
	case c.removed != nil:
		msg, _ := inst.ev.removedMessage(c)
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("option %q was removed", inst.fullPath(c.path).String()),
			Detail:   msg,
			Subject:  rng.Ptr(),
		}}
	}
	return property.RefVal(&nsRef{inst: inst, n: c}), nil
}

func (ev *Evaluator) undefinedDiag(full options.Path, o *optionDecl, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("option %q is used but not defined", full.String()),
		Detail:   fmt.Sprintf("The option %q (declared at %s) has no default and no definition, and its value is needed here. Define it in a config block.", full.String(), rangeString(o.block.DefRange())),
		Subject:  rng.Ptr(),
	}
}

// nsRef is a lazy reference to a namespace of an instance.
type nsRef struct {
	inst *instance
	n    *declNode
}

// Attr implements property.Ref.
func (r *nsRef) Attr(name string, rng hcl.Range) (cty.Value, bool, hcl.Diagnostics) {
	diags := r.inst.drainTo(r.n.path)
	c := r.n.children[name]
	if c == nil {
		return cty.DynamicVal, false, append(diags, r.inst.ev.notExist(r.inst.fullPath(r.n.path).Child(name), r.n, name, rng, false))
	}
	v, d := r.inst.value(c, rng)
	return v, true, append(diags, d...)
}

// Keys implements property.Ref: every namespace and every option with a value.
func (r *nsRef) Keys() ([]string, hcl.Diagnostics) {
	diags := r.inst.drainTo(r.n.path)
	var out []string
	for _, name := range r.n.names {
		c := r.n.children[name]
		switch {
		case c.opt != nil:
			s := r.inst.force(c, c.opt.block.DefRange())
			diags = append(diags, s.diags...)
			if s.defined {
				out = append(out, name)
			}
		case c.isNamespace():
			out = append(out, name)
		}
	}
	return out, diags
}

// Materialize implements property.Ref: every option that has a value, forced.
// The result is memoised.
func (r *nsRef) Materialize() (cty.Value, hcl.Diagnostics) {
	s := r.inst.state(r.n)
	switch s.matStatus {
	case done:
		return s.matValue, s.matDiags
	case forcing:
		return cty.DynamicVal, hcl.Diagnostics{r.inst.ev.cycleDiag(s, "namespace "+r.inst.fullPath(r.n.path).String(), r.n.rangeOrZero())}
	}
	s.matStatus = forcing
	s.matValue, s.matDiags = r.materialize()
	s.matStatus = done
	return s.matValue, s.matDiags
}

func (r *nsRef) materialize() (cty.Value, hcl.Diagnostics) {
	diags := r.inst.drainTo(r.n.path)
	attrs := make(map[string]cty.Value, len(r.n.names))
	for _, name := range r.n.names {
		c := r.n.children[name]
		switch {
		case c.opt != nil:
			s := r.inst.force(c, c.opt.block.DefRange())
			diags = append(diags, s.diags...)
			if !s.defined {
				continue
			}
			v, d := property.Deep(s.value)
			diags = append(diags, d...)
			attrs[name] = v
		case c.isNamespace():
			v, d := (&nsRef{inst: r.inst, n: c}).Materialize()
			diags = append(diags, d...)
			if v.IsKnown() && v.LengthInt() == 0 {
				continue
			}
			attrs[name] = v
		}
	}
	if len(attrs) == 0 {
		return cty.EmptyObjectVal, diags
	}
	return cty.ObjectVal(attrs), diags
}
