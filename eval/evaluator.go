package eval

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/nodegen/nodegen/internal/hclsyntax"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// Evaluator holds one evaluation: the modules, their option tree and the
// memoised state of every option. It is not safe for concurrent use.
type Evaluator struct {
	cfg         Config
	loader      *loader
	mods        []*module
	submodules  map[string]*submoduleSyntax
	subTypes    map[string]*subType
	top         *instance
	instances   []*instance
	modLocals   map[*module]*localSet
	funcs       map[string]function.Function
	fileFuncs   map[string]function.Function // by module directory key
	removedMsgs map[*declNode]*thunk
	typeCache   map[string]options.Type // see parseType

	stack []frame
	// defStack holds the definitions of the options being forced (see
	// instance.force).
	defStack []options.Def
	stats    Stats
	late     hcl.Diagnostics // found while splitting definitions lazily
	traced   map[*hcl.Diagnostic]bool
}

// Stats counts the work an evaluation did so far.
type Stats struct {
	// Options is the number of options evaluated (each at most once).
	Options int
	// Thunks is the number of expressions evaluated lazily.
	Thunks int
	// Instances is the number of submodule instances made.
	Instances int
}

// Stats returns what the evaluation did so far.
func (ev *Evaluator) Stats() Stats { return ev.stats }

// frame is one step of the evaluation chain: an option or a local being
// evaluated, and where it was referenced from.
type frame struct {
	state any
	what  string
	// an option's frame names it by instance and node; the name is only
	// built when a message needs it
	inst *instance
	opt  *declNode
	ref  hcl.Range
}

// name is what the frame evaluates, as messages show it; "" for an
// anonymous expression.
func (f frame) name() string {
	if f.opt != nil {
		return "option " + f.inst.fullPath(f.opt.path).String()
	}
	return f.what
}

func (ev *Evaluator) push(f frame) { ev.stack = append(ev.stack, f) }
func (ev *Evaluator) pop()         { ev.stack = ev.stack[:len(ev.stack)-1] }

// maxDepth bounds the evaluation chain, so that a runaway evaluation is an
// error and not a Go stack overflow.
const maxDepth = 10000

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
		Summary:  "infinite recursion",
		Detail:   b.String(),
		Subject:  ref.Ptr(),
	}
}

// commandLine is the file name of ranges that stand for the command line.
const commandLine = "<command line>"

func refNote(r hcl.Range) string {
	switch r.Filename {
	case "":
		return ""
	case commandLine:
		return " (requested on the command line)"
	}
	return fmt.Sprintf(" (referenced at %s)", rangeString(r))
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
	if lit, ok := expr.(*hclsyntax.LiteralValueExpr); ok {
		return property.ForcedVal(lit.Val, lit.SrcRange)
	}
	t := &thunk{expr: expr, sc: sc}
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
	if len(ev.stack) > maxDepth {
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "evaluation too deep",
			Detail:   fmt.Sprintf("The evaluation chain is more than %d steps long.", maxDepth),
			Subject:  t.expr.Range().Ptr(),
		}}
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
	}
	t.val, t.diags, t.status = v2, diags, done
	return t.val, t.diags
}

// ForceDeep implements property.DeepForcer. A value that contains itself (a
// local object holding the local) has no complete form: forcing it deeply
// is an infinite recursion.
func (t *thunk) ForceDeep() (cty.Value, hcl.Diagnostics) {
	if t.deep == nil {
		t.deep = &deepState{}
	}
	switch t.deep.status {
	case done:
		return t.deep.val, t.deep.diags
	case forcing:
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "infinite recursion",
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

// Range implements property.Lazy.
func (t *thunk) Range() hcl.Range { return t.expr.Range() }

// isStatic reports whether forcing a thunk only builds structure
// (objects, lists, properties) without reading any option: such thunks may
// be forced while definitions are being split.
func isStatic(l property.Lazy) bool {
	switch t := l.(type) {
	case *property.Forced:
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

// localSet is the locals of one module (or one submodule body in one
// instance).
type localSet struct {
	attrs  map[string]*hclsyntax.Attribute
	thunks map[string]*thunk
	sc     *scope
	parent *localSet
}

func newLocalSet(attrs []*hclsyntax.Attribute, sc *scope, parent *localSet) *localSet {
	ls := &localSet{attrs: map[string]*hclsyntax.Attribute{}, thunks: map[string]*thunk{}, sc: sc, parent: parent}
	for _, a := range attrs {
		ls.attrs[a.Name] = a
	}
	sc.locals = ls
	return ls
}

func (ls *localSet) get(name string) (*thunk, bool) {
	for s := ls; s != nil; s = s.parent {
		if t, ok := s.thunks[name]; ok {
			return t, true
		}
		if a, ok := s.attrs[name]; ok {
			t := &thunk{expr: a.Expr, sc: s.sc, what: "local." + name}
			s.thunks[name] = t
			return t, true
		}
	}
	return nil, false
}

func (ls *localSet) names() []string {
	seen := map[string]bool{}
	var out []string
	for s := ls; s != nil; s = s.parent {
		for n := range s.attrs {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// topScope is the scope of a top-level module's expressions.
func (ev *Evaluator) topScope(m *module) *scope {
	if ls, ok := ev.modLocals[m]; ok {
		return ls.sc
	}
	sc := &scope{inst: ev.top, mod: m}
	ev.modLocals[m] = newLocalSet(m.locals, sc, nil)
	return sc
}

// bodyScope is the scope of a submodule body's expressions in inst.
func (inst *instance) bodyScope(body *submoduleSyntax) *scope {
	if ls, ok := inst.bodyLocals[body]; ok {
		return ls.sc
	}
	sc := &scope{inst: inst, mod: body.mod}
	parent := inst.ev.topScope(body.mod).locals
	inst.bodyLocals[body] = newLocalSet(body.locals, sc, parent)
	return sc
}

// declScope is the scope of an option declaration's default and apply.
func (inst *instance) declScope(o *optionDecl) *scope {
	if o.body != nil && inst.st != nil {
		return inst.bodyScope(o.body)
	}
	return inst.ev.topScope(o.mod)
}

// configValue builds the definition a config block makes: an object of
// thunks below its prefix, under an mkIf when it has a `when`.
func (ev *Evaluator) configValue(c *configSyntax, sc *scope) cty.Value {
	attrs := make(map[string]cty.Value, len(c.attrs))
	for _, a := range c.attrs {
		attrs[a.Name] = ev.thunk(a.Expr, sc)
	}
	var v cty.Value
	if len(attrs) == 0 {
		v = cty.EmptyObjectVal
	} else {
		v = cty.ObjectVal(attrs)
	}
	v = property.ForcedVal(v, c.block.DefRange())
	if c.when != nil {
		v = property.PropertyVal(property.Property{
			Kind:      property.KindIf,
			Cond:      ev.thunk(c.when.Expr, sc),
			CondRange: c.when.Expr.Range(),
			Content:   v,
			Range:     c.when.SrcRange,
		})
	}
	for i := len(c.prefix) - 1; i >= 0; i-- {
		v = cty.ObjectVal(map[string]cty.Value{c.prefix[i]: v})
	}
	return v
}

// Instantiate implements options.Instantiator: it creates a submodule
// instance whose definitions are defs (in definition order) followed by
// the submodule bodies' own config blocks.
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
	r, diags := p.get()
	if r == nil {
		return cty.DynamicVal, diags
	}
	v, d := r.Materialize()
	return v, append(diags, d...)
}

func (ev *Evaluator) instantiate(names []string, loc options.Path, defs []options.Def) (*nsRef, hcl.Diagnostics) {
	st := ev.submoduleType(names)
	var diags hcl.Diagnostics
	if st.root == nil {
		return nil, st.diags
	}
	inst := &instance{
		ev:         ev,
		root:       st.root,
		st:         st,
		loc:        loc,
		states:     map[*declNode]*nodeState{},
		bodyLocals: map[*submoduleSyntax]*localSet{},
	}
	if len(loc) > 0 {
		inst.name = cty.StringVal(loc[len(loc)-1])
	}
	ev.instances = append(ev.instances, inst)
	ev.stats.Instances++
	// Inside an instance the definitions come in reverse: the instance is
	// an evaluation whose module list is its definitions.
	n := len(defs)
	for i, d := range defs {
		diags = append(diags, inst.split(inst.root, defn{Def: d, seq: []int{n - 1 - i}}, false)...)
	}
	for j, body := range st.bodies {
		sc := inst.bodyScope(body)
		for k, c := range body.configs {
			v := ev.configValue(c, sc)
			diags = append(diags, inst.split(inst.root, defn{Def: options.Def{Value: v, Range: c.block.DefRange()}, seq: []int{n + j, k}}, false)...)
		}
	}
	return &nsRef{inst: inst, n: inst.root}, diags
}
