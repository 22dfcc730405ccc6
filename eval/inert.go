package eval

import (
	"iter"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval/internal/declare"
	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/options"
)

// Inert modules: what a host does not use costs it (almost) nothing.
//
// Most of a library's modules do nothing for a given host: a service
// module whose every config block is under `when = cfg.enable`, with
// enable false, defines nothing. Splitting its definitions, forcing its
// conditions while merging systemd.services or users.users, and checking
// its assertions and warnings is work every evaluation would repeat for
// the same answer. A library module is inert in an evaluation when
//
//   - every config block it has is under a `when`, and targets declared
//     options, through no renamed or removed option, and no read-only
//     one (which counts a definition under a false condition): its
//     prefix does, or, for a block without one, each attribute's name
//     (`config { when = cfg.enable; assertions = [...] }`); they may be
//     its own options;
//   - in this evaluation no definition of another module reaches an
//     option it declares: no module that is split defines one, and no
//     definition waits at a namespace above one (see touched);
//   - with its options at their defaults, every `when` it has is false,
//     every assertion holds and no warning fires, and these conditions
//     read only options the module declares, each with a constant default,
//     no apply and a type of no submodule, and no other host.
//
// The last point is a fact about the module and the declared tree alone,
// the same in every evaluation in which the second holds: an evaluation of
// a tree several share (a Fleet's, or libraryTrees') learns it once, by
// evaluating the conditions with a read recorder in an evaluation of its
// own (learn, probeInert), and keeps it in the tree's Facts. A candidate
// whose options another candidate not known yet defines (under its false
// `when`) is learned by a later evaluation, which leaves that one out.
// The evaluations after it skip an inert module: its definitions are not
// split and its assertions and warnings are not checked. What they would
// have given is known: nothing, passed, quiet, so that every value,
// assertion and warning is the same. If a module that is split defines
// one of a skipped module's options (a host enables the service), the
// module is split after all, before anything is forced (defineTouched),
// and its checks run. An evaluation whose tree is its own
// (one `nodegen eval`) skips nothing.
//
// Explain lists the definitions under a false condition too, those of
// inert modules among them: for an option such a definition reaches, it
// asks an evaluation that skips nothing (Config.AllDefinitions, made when
// first needed).

// inertState is what is known of a candidate module: not probed yet,
// inert, or not inert.
const (
	inertUnknown int32 = iota
	inertYes
	inertNo
)

// inertFacts are the facts of one shared declared tree about its library
// modules that may be inert (the candidates): made once for the tree
// (treeInertFacts), read by every evaluation of it, their states learned
// by the first evaluations that can tell.
type inertFacts struct {
	mods map[*syntax.Module]*inertModule
}

// inertModule is a candidate module of a tree: the numbers (declare.Node.ID)
// of the option nodes it declares and of the namespaces above them (the
// root among them, each once), and its inertState.
type inertModule struct {
	opts   []int32
	spaces []int32
	state  atomic.Int32
}

// inertFactsKey is the key of a tree's inertFacts in declare.Declared.Facts.
type inertFactsKey struct{}

// treeInertFacts returns the inertFacts of the shared tree decl, made by
// the first evaluation that asks.
func treeInertFacts(decl *declare.Declared) *inertFacts {
	if f, ok := decl.Facts.Load(inertFactsKey{}); ok {
		return f.(*inertFacts)
	}
	f, _ := decl.Facts.LoadOrStore(inertFactsKey{}, newInertFacts(decl))
	return f.(*inertFacts)
}

// newInertFacts finds the candidates of a tree: the library modules that
// declare options of the top level and whose config blocks are all under
// a `when` and target declared options (guarded).
func newInertFacts(decl *declare.Declared) *inertFacts {
	f := &inertFacts{mods: map[*syntax.Module]*inertModule{}}
	var above []*declare.Node
	var walk func(n *declare.Node)
	walk = func(n *declare.Node) {
		if o := n.Opt; o != nil {
			if o.Mod == nil || !o.Mod.Shared || o.Body != nil {
				return
			}
			im := f.mods[o.Mod]
			if im == nil {
				im = &inertModule{}
				f.mods[o.Mod] = im
			}
			im.opts = append(im.opts, n.ID)
			for _, a := range above {
				if !slices.Contains(im.spaces, a.ID) {
					im.spaces = append(im.spaces, a.ID)
				}
			}
			return
		}
		above = append(above, n)
		for _, name := range n.Names {
			walk(n.Children[name])
		}
		above = above[:len(above)-1]
	}
	walk(decl.Root)
	for m := range f.mods {
		if !guarded(decl.Root, m) {
			delete(f.mods, m)
		}
	}
	return f
}

// guarded says every config block of m is under a `when` and targets,
// through declared namespaces and no renamed or removed option, options
// or namespaces: its prefix does, or, for a block without one, each
// attribute's name (`config { when = cfg.enable; assertions = [...] }`);
// and no read-only option, at, above or below the target, which counts
// a definition under a false condition too (see force.go). The options
// may be m's own (`config "services.openssh" { when = cfg.enable; ...
// }`): under a false `when`, such a definition is none.
func guarded(root *declare.Node, m *syntax.Module) bool {
	readOnly := map[*declare.Node]bool{}
	for _, c := range m.Configs {
		if c.When == nil || len(c.Prefix) == 0 && len(c.Attrs) == 0 {
			return false
		}
		for p := range blockTargets(c) {
			if n := declaredPath(root, p); n == nil || holdsReadOnly(n, readOnly) {
				return false
			}
		}
	}
	return true
}

// holdsReadOnly says n is a read-only option or a namespace with one
// below it; memo keeps the answer for each namespace.
func holdsReadOnly(n *declare.Node, memo map[*declare.Node]bool) bool {
	if n.Opt != nil {
		return n.Opt.ReadOnly
	}
	if v, ok := memo[n]; ok {
		return v
	}
	v := false
	for _, k := range n.Children {
		if holdsReadOnly(k, memo) {
			v = true
			break
		}
	}
	memo[n] = v
	return v
}

// blockTargets yields the paths config block c defines at: its prefix,
// or, for a block without one, each attribute's name.
func blockTargets(c *syntax.Config) iter.Seq[[]string] {
	return func(yield func([]string) bool) {
		if len(c.Prefix) > 0 {
			yield(c.Prefix)
			return
		}
		for _, a := range c.Attrs {
			if !yield([]string{a.Name}) {
				return
			}
		}
	}
}

// declaredPath returns the node path leads to, through declared
// namespaces and no renamed or removed option: an option (the first on
// the way) or a namespace; nil when there is none.
func declaredPath(root *declare.Node, path []string) *declare.Node {
	n := root
	for _, p := range path {
		n = n.Children[cty.NormalizeString(p)]
		switch {
		case n == nil || n.Rename != nil || n.Removed != nil:
			return nil
		case n.Opt != nil:
			return n
		}
	}
	return n
}

// inert says m is a candidate known to be inert.
func (f *inertFacts) inert(m *syntax.Module) bool {
	if f == nil {
		return false
	}
	im := f.mods[m]
	return im != nil && im.state.Load() == inertYes
}

// touched says a definition of another module than the candidate's
// reaches an option of the candidate im in inst, the top-level instance:
// one was split onto it, or one waits at a namespace above it. own is the
// candidate's place in the evaluation's definitions (the first number of
// a top-level definition's seq; see defineModule): the candidate's own
// definitions, under their `when`, do not count.
func (im *inertModule) touched(inst *instance, own int) bool {
	states := inst.topStates
	others := func(defs []defn) bool {
		return slices.ContainsFunc(defs, func(d defn) bool { return len(d.seq) == 0 || d.seq[0] != own })
	}
	for _, id := range im.opts {
		if s := states[id]; s != nil && others(s.defs) {
			return true
		}
	}
	for _, id := range im.spaces {
		if s := states[id]; s != nil && others(s.pending) {
			return true
		}
	}
	return false
}

// defSeq is the first number of the seq of the top-level definitions of
// ev.Mods[i] (see defineModule).
func (ev *Evaluator) defSeq(i int) int { return len(ev.Mods) - 1 - i }

// defineTouched splits the definitions of the inert modules skipped so
// far (skipped, indexes into ev.Mods) that a split definition reaches,
// until none does; the others are left out of the evaluation
// (ev.skipped).
func (ev *Evaluator) defineTouched(f *inertFacts, skipped []int) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for again := true; again; {
		again = false
		for i, mi := range skipped {
			if mi < 0 || !f.mods[ev.Mods[mi]].touched(ev.top, ev.defSeq(mi)) {
				continue
			}
			diags = append(diags, ev.defineModule(mi)...)
			skipped[i] = -1
			again = true
		}
	}
	for _, mi := range skipped {
		if mi >= 0 {
			if ev.skipped == nil {
				ev.skipped = map[*syntax.Module]bool{}
			}
			ev.skipped[ev.Mods[mi]] = true
		}
	}
	return diags
}

// learn probes the candidates of ev's modules whose state is unknown and
// whose options no definition reaches in ev, and keeps what it finds. The
// conditions are evaluated in an evaluation of their own (the probe: the
// same host, leaving out the same modules), so that whatever they force
// changes nothing in ev.
func (f *inertFacts) learn(ev *Evaluator) {
	var todo []*syntax.Module
	for i, m := range ev.Mods {
		if im := f.mods[m]; im != nil && im.state.Load() == inertUnknown && !im.touched(ev.top, ev.defSeq(i)) {
			todo = append(todo, m)
		}
	}
	if len(todo) == 0 {
		return
	}
	cfg := ev.cfg
	cfg.AllDefinitions = true
	cfg.skip = ev.skipped
	if cfg.skip == nil {
		cfg.skip = map[*syntax.Module]bool{}
	}
	probe, diags := New(cfg)
	if diags.HasErrors() {
		return
	}
	for _, m := range todo {
		state := inertNo
		if probe.probeInert(m) {
			state = inertYes
		}
		f.mods[m].state.Store(state)
	}
}

// probeInert evaluates m's `when` conditions, assertions and warnings and
// says whether they are false, hold and are quiet, reading only options m
// declares whose value with nothing defining them is the same in every
// evaluation (sharedDefault's: a constant default, no apply, no submodule
// type).
func (ev *Evaluator) probeInert(m *syntax.Module) bool {
	sc := ev.topScope(m)
	rec := &readRecorder{base: len(ev.stack)}
	prev := ev.recorder
	ev.recorder = rec
	defer func() { ev.recorder = prev }()
	eval := func(c hclsyntax.Expression, want bool) bool {
		v, known, diags := sc.evalBool(c, "condition")
		return known && !diags.HasErrors() && v == want
	}
	for _, c := range m.Configs {
		if !eval(c.When.Expr, false) {
			return false
		}
	}
	for _, c := range m.Asserts {
		if !eval(c.Condition, true) {
			return false
		}
	}
	for _, c := range m.Warnings {
		if !eval(c.Condition, false) {
			return false
		}
	}
	if len(rec.hosts) > 0 {
		return false
	}
	for _, r := range rec.reads {
		o := r.n.Opt
		if r.inst != ev.top || o == nil || o.Mod != m || o.Body != nil || !sharedDefault(r.inst, o) {
			return false
		}
	}
	return true
}

// skippedDefine says a config block of a module ev left out defines at p,
// above it or below it: Explain of p lists that definition, under its
// false condition.
func (ev *Evaluator) skippedDefine(p options.Path) bool {
	for m := range ev.skipped {
		// (useOf: a module left out may not be decoded)
		for _, target := range useOf(m).paths().targets {
			if alongPath(target, p) {
				return true
			}
		}
	}
	return false
}

// alongPath says the path prefix (a config block's) is p, above it or
// below it, comparing NFC-normalized segments.
func alongPath(prefix []string, p options.Path) bool {
	for i := range min(len(prefix), len(p)) {
		if cty.NormalizeString(prefix[i]) != cty.NormalizeString(p[i]) {
			return false
		}
	}
	return true
}

// defaultsKey is the key of a tree's merged constant defaults in
// declare.Declared.Facts (see sharedDefault).
type defaultsKey struct{}

// treeDefaults returns the merged constant defaults of the shared tree
// decl, made empty by the first evaluation that asks.
func treeDefaults(decl *declare.Declared) *sync.Map {
	m, _ := decl.Facts.LoadOrStore(defaultsKey{}, &sync.Map{})
	return m.(*sync.Map)
}
