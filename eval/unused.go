package eval

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval/internal/declare"
	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/lib"
	"github.com/nodegen/nodegen/options"
)

// Unused library modules: what no host reads is not declared.
//
// inert.go leaves out of an evaluation the definitions and checks of the
// library modules a host does not use, once an evaluation of a tree
// several share has learned which they are; their options are declared
// all the same, for every evaluation of a process that declares its tree
// once. An evaluation that says which options its caller reads
// (Config.Reads: what building a profile reads) goes further and leaves
// such modules out before declaring, so that one `nodegen eval` declares
// what its host uses and not the whole library. A library module is left
// out (unused) when
//
//   - it only declares options, each at a path known from its syntax (no
//     dynamic declaration, renamed or removed option, submodule type,
//     format, named type or function; no imports), no other module
//     declares an option along one of its paths (at it, above or below:
//     they would conflict), and every config block it has is under a
//     `when` (inert.go's guarded shape);
//   - nothing the evaluation keeps reads or defines along the paths it
//     declares: the caller's reads, and the `config.a.b` (also `root`,
//     `options`, `hosts.NAME.config`) traversals of every expression of
//     every module kept, up to the first step that is not a constant name,
//     and the paths their config blocks define (blockTargets), taken to a
//     fixpoint from the modules that cannot be left out (the host's, and
//     the library's that have another shape); a module's reads of its own
//     options keep nothing;
//   - evaluated by itself (an evaluation of the candidates alone, their
//     definitions left out), it declares its options without a diagnostic,
//     its locals are declared once, and its `when` conditions are false,
//     its assertions hold and its warnings are quiet, reading only options
//     it declares, each with a constant default (inert.go's probeInert).
//     This is a fact of the module's syntax alone, kept on it for a library
//     module parsed once for the process (syntax.Module.Use);
//   - each path its config blocks define is along a path some module
//     declares, through no renamed or removed option, and along no
//     read-only option (in the whole evaluation, defining an undeclared
//     option is an error even under a false `when`, and a read-only
//     option counts its definitions under false conditions);
//   - it reads no format and calls no function of a module (format.NAME,
//     fn.NAME, a function block's name) nor file(): what those give is
//     not a fact of its own source.
//
// What such a module would have given the evaluation is known: no
// definition, no diagnostic, no warning, an option nothing reads. So
// every value the caller reads, every assertion and every warning is the
// same. The options it declares are not, and neither are the options a
// misspelt path is compared with: an evaluation that left modules out and
// reports an error is made again with every module (in New, and through
// Whole for what the caller reads), so that its diagnostics are those of
// the whole library. An evaluation with other hosts (Config.Hosts, which
// may read this host's options), or that lists every definition
// (Config.AllDefinitions) leaves nothing out.

// moduleUse is what a module's syntax says of the top-level option paths
// it declares, reads and defines (NFC-normalized segments), whether it
// may be left out when unused (candidate), and, for a candidate, what an
// evaluation of it alone found (alone: an inertState).
//
// options are the paths of the options it declares from its syntax
// (declares has the prefixes of its dynamic blocks too); targets the
// paths its config blocks define (appendLeaves), which must be declared;
// renames the paths of its renamed and removed options; readOnly the
// paths of its options with a read_only attribute.
type moduleUse struct {
	candidate                bool
	declares, reads, defines [][]string
	options                  [][]string
	targets                  [][]string
	renames                  [][]string
	readOnly                 [][]string
	alone                    atomic.Int32
	// lazy holds reads, defines and targets still encoded (see paths).
	lazy []byte
}

// useOf returns m's moduleUse, kept on m when it is a library module
// parsed once for the process.
func useOf(m *syntax.Module) *moduleUse {
	if u, ok := m.Use.Load().(*moduleUse); ok {
		return u
	}
	if !m.Shared {
		return readUse(m)
	}
	m.Use.CompareAndSwap(nil, readUse(m))
	return m.Use.Load().(*moduleUse)
}

// readUse reads m's moduleUse off its syntax.
func readUse(m *syntax.Module) *moduleUse {
	u := &moduleUse{}
	u.candidate = m.Shared && len(m.Options) > 0 && len(m.Submodules) == 0 && len(m.Formats) == 0 &&
		len(m.Functions) == 0 && len(m.Types) == 0 && len(m.Renamed) == 0 && len(m.Removed) == 0 &&
		len(m.Imports) == 0 && len(m.Disabled) == 0 && len(m.Computed) == 0
	for _, o := range m.Options {
		if o.Dyn != nil {
			u.candidate = false
			u.declares = append(u.declares, normalPath(dynamicPrefix(o)))
			continue
		}
		u.declares = append(u.declares, normalPath(o.Path))
		u.options = append(u.options, normalPath(o.Path))
		if o.Attrs["read_only"] != nil {
			u.readOnly = append(u.readOnly, normalPath(o.Path))
		}
		if t := o.Attrs["type"]; t != nil && namesSubmodule(t.Expr) {
			// a submodule type or format only another module declares:
			// not declared by itself (learnAlone)
			u.candidate = false
		}
	}
	for _, r := range m.Renamed {
		u.renames = append(u.renames, normalPath(r.From))
	}
	for _, r := range m.Removed {
		u.renames = append(u.renames, normalPath(r.Path))
	}
	for _, c := range m.Configs {
		if c.When == nil || len(c.Prefix) == 0 && len(c.Attrs) == 0 {
			u.candidate = false
		}
		prefix := normalPath(c.Prefix)
		if len(c.Attrs) == 0 {
			u.defines = append(u.defines, prefix)
			u.targets = append(u.targets, prefix)
		}
		for _, a := range c.Attrs {
			p := append(slices.Clip(prefix), cty.NormalizeString(a.Name))
			u.defines = append(u.defines, p)
			u.targets = appendLeaves(u.targets, p, a.Expr)
		}
	}
	if m.Body != nil {
		var c readCollector
		c.body(m.Body)
		u.reads = c.reads
		if c.unknownCalls {
			// a function of another module, or file(): what it gives is
			// not a fact of this module's source
			u.candidate = false
		}
	}
	// Its blocks must not define its own options: under a false `when`
	// nothing then depends on them, and evaluated by itself (learnAlone,
	// which leaves its definitions out) it could not tell a cycle.
	for _, d := range u.defines {
		if slices.ContainsFunc(u.declares, func(p []string) bool { return alongPath(d, p) }) {
			u.candidate = false
		}
	}
	return u
}

// appendLeaves appends to leaves the paths a definition of expr at p
// defines: p, or, for an object written out with constant keys, the
// paths below it, each key's.
func appendLeaves(leaves [][]string, p []string, expr hclsyntax.Expression) [][]string {
	obj, ok := expr.(*hclsyntax.ObjectConsExpr)
	if !ok || len(obj.Items) == 0 {
		return append(leaves, p)
	}
	for _, it := range obj.Items {
		key := constantKey(it.KeyExpr)
		if key == "" {
			return append(leaves, p)
		}
	}
	for _, it := range obj.Items {
		leaves = appendLeaves(leaves, append(slices.Clip(p), cty.NormalizeString(constantKey(it.KeyExpr))), it.ValueExpr)
	}
	return leaves
}

// constantKey is the name an object constructor's key expression gives,
// when it is a constant (a bare name or a string); "" otherwise.
func constantKey(e hclsyntax.Expression) string {
	k, ok := e.(*hclsyntax.ObjectConsKeyExpr)
	if !ok {
		return ""
	}
	if t, ok := k.Wrapped.(*hclsyntax.ScopeTraversalExpr); ok && !k.ForceNonLiteral && len(t.Traversal) == 1 {
		return t.Traversal.RootName()
	}
	if tmpl, ok := k.Wrapped.(*hclsyntax.TemplateExpr); ok && len(tmpl.Parts) == 1 {
		if lit, ok := tmpl.Parts[0].(*hclsyntax.LiteralValueExpr); ok && lit.Val.Type() == cty.String {
			return lit.Val.AsString()
		}
	}
	return ""
}

// dynamicPrefix is the path every option a dynamic block declares is
// under: the options block's around it, followed by the segments of its
// label's constant text before the first interpolation (labels =
// ["services.kubernetes.${c.key}.enable"] declares under
// services.kubernetes).
func dynamicPrefix(o *syntax.OptionDecl) []string {
	p := slices.Clip(o.Path)
	if o.Dyn.Labels == nil {
		return p
	}
	tuple, ok := o.Dyn.Labels.Expr.(*hclsyntax.TupleConsExpr)
	if !ok || len(tuple.Exprs) != 1 {
		return p
	}
	tmpl, ok := tuple.Exprs[0].(*hclsyntax.TemplateExpr)
	if !ok || len(tmpl.Parts) < 2 {
		return p
	}
	lit, ok := tmpl.Parts[0].(*hclsyntax.LiteralValueExpr)
	if !ok || lit.Val.Type() != cty.String || !lit.Val.IsKnown() {
		return p
	}
	text := lit.Val.AsString()
	if i := strings.LastIndexByte(text, '.'); i >= 0 {
		for _, seg := range strings.Split(text[:i], ".") {
			if seg == "" || strings.ContainsAny(seg, `"\`) {
				break
			}
			p = append(p, seg)
		}
	}
	return p
}

// namesSubmodule says the type expression t names a submodule type or a
// format (submodule.NAME, format.NAME).
func namesSubmodule(t hclsyntax.Expression) bool {
	found := false
	hclsyntax.VisitAll(t, func(n hclsyntax.Node) hcl.Diagnostics {
		if st, ok := n.(*hclsyntax.ScopeTraversalExpr); ok {
			if r := st.Traversal.RootName(); r == "submodule" || r == "format" {
				found = true
			}
		}
		return nil
	})
	return found
}

// readCollector walks a module's syntax for the top-level option paths
// its expressions read (configRead), and two reads of hosts that name no
// host's option: hosts[NAME].config.a.b reads a.b (hosts lists this host
// alone in an evaluation that may leave modules out), and keys(hosts)
// reads none. It walks by hand: each evaluation of a process that parsed
// its library once walks the host's modules, and hclsyntax.VisitAll costs
// an allocation or two a node.
type readCollector struct {
	reads [][]string
	// unknownCalls is set by a call of a function the library does not
	// have (a module's function block) or of file(), by fn.NAME and
	// format.NAME, and by an expression of a kind it does not know.
	unknownCalls bool
}

func (c *readCollector) body(b *hclsyntax.Body) {
	c.attrs(b, false)
}

// attrs walks the attributes of b and of its blocks, but the type of an
// option (b is an option's, or a dynamic block's content, when option is
// set): a type expression reads no option, and its calls are type
// constructors.
func (c *readCollector) attrs(b *hclsyntax.Body, option bool) {
	for name, a := range b.Attributes {
		if option && name == "type" {
			continue
		}
		c.expr(a.Expr)
	}
	for _, bl := range b.Blocks {
		c.attrs(bl.Body, bl.Type == "option" || bl.Type == "content")
	}
}

func (c *readCollector) exprs(es ...hclsyntax.Expression) {
	for _, e := range es {
		c.expr(e)
	}
}

func (c *readCollector) expr(e hclsyntax.Expression) {
	switch e := e.(type) {
	case nil, *hclsyntax.LiteralValueExpr, *hclsyntax.AnonSymbolExpr:
	case *hclsyntax.ScopeTraversalExpr:
		if p, ok := configRead(e.Traversal); ok {
			c.reads = append(c.reads, p)
		}
		if r := e.Traversal.RootName(); r == "fn" || r == "format" {
			// another module's function, or format (which one declares)
			c.unknownCalls = true
		}
	case *hclsyntax.RelativeTraversalExpr:
		if ix, ok := e.Source.(*hclsyntax.IndexExpr); ok && isHosts(ix.Collection) {
			// hosts[NAME] followed by .config.a.b, as hosts.NAME.config.a.b
			p, _ := configRead(append(hcl.Traversal{hcl.TraverseRoot{Name: "hosts"}, hcl.TraverseAttr{}}, e.Traversal...))
			c.reads = append(c.reads, p)
			c.expr(ix.Key)
			return
		}
		c.expr(e.Source)
	case *hclsyntax.FunctionCallExpr:
		if e.Name == "keys" && len(e.Args) == 1 && isHosts(e.Args[0]) {
			return
		}
		if _, ok := libraryFunctions[e.Name]; e.Name == "file" || !ok && !isBuiltinForm(e.Name) {
			c.unknownCalls = true
		}
		c.exprs(e.Args...)
	case *hclsyntax.IndexExpr:
		c.exprs(e.Collection, e.Key)
	case *hclsyntax.ConditionalExpr:
		c.exprs(e.Condition, e.TrueResult, e.FalseResult)
	case *hclsyntax.TupleConsExpr:
		c.exprs(e.Exprs...)
	case *hclsyntax.ObjectConsExpr:
		for _, it := range e.Items {
			c.exprs(it.KeyExpr, it.ValueExpr)
		}
	case *hclsyntax.ObjectConsKeyExpr:
		if t, ok := e.Wrapped.(*hclsyntax.ScopeTraversalExpr); ok && !e.ForceNonLiteral && len(t.Traversal) == 1 {
			return // a bare name as a key is the name (`{ hosts = ... }`)
		}
		c.expr(e.Wrapped)
	case *hclsyntax.TemplateExpr:
		c.exprs(e.Parts...)
	case *hclsyntax.TemplateJoinExpr:
		c.expr(e.Tuple)
	case *hclsyntax.TemplateWrapExpr:
		c.expr(e.Wrapped)
	case *hclsyntax.ForExpr:
		c.exprs(e.CollExpr, e.KeyExpr, e.ValExpr, e.CondExpr)
	case *hclsyntax.SplatExpr:
		c.exprs(e.Source, e.Each)
	case *hclsyntax.BinaryOpExpr:
		c.exprs(e.LHS, e.RHS)
	case *hclsyntax.UnaryOpExpr:
		c.expr(e.Val)
	case *hclsyntax.ParenthesesExpr:
		c.expr(e.Expression)
	default:
		// An expression of a kind not listed: its traversals, each read
		// to its first step that is not a constant name; what else it
		// does is not known, so its module is not left out.
		c.unknownCalls = true
		hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
			if t, ok := n.(*hclsyntax.ScopeTraversalExpr); ok {
				if p, ok := configRead(t.Traversal); ok {
					c.reads = append(c.reads, p)
				}
			}
			return nil
		})
	}
}

// libraryFunctions are the functions every module may call (lib's).
var libraryFunctions = lib.Functions()

// isHosts says e is the variable hosts, alone.
func isHosts(e hclsyntax.Expression) bool {
	t, ok := e.(*hclsyntax.ScopeTraversalExpr)
	return ok && len(t.Traversal) == 1 && t.Traversal.RootName() == "hosts"
}

// configRead is the top-level option path the traversal t reads, up to
// its first step that is not a constant name: config.a.b, root.a.b,
// options.a.b and hosts.NAME.config.a.b read a.b; hosts.NAME alone reads
// everything (the empty path). ok is false for a traversal that reads no
// option (local.x, name).
func configRead(t hcl.Traversal) (p []string, ok bool) {
	rest := t[1:]
	switch t.RootName() {
	case "config", "root", "options":
	case "hosts":
		if len(rest) < 2 || stepName(rest[1]) != "config" {
			return nil, true
		}
		rest = rest[2:]
	default:
		return nil, false
	}
	p = []string{}
	for _, s := range rest {
		name := stepName(s)
		if name == "" {
			break
		}
		p = append(p, cty.NormalizeString(name))
	}
	return p, true
}

// stepName is the name a traversal step reads: an attribute's, or a
// constant string index's; "" for any other step.
func stepName(s hcl.Traverser) string {
	switch s := s.(type) {
	case hcl.TraverseAttr:
		return s.Name
	case hcl.TraverseIndex:
		if s.Key.Type() == cty.String && s.Key.IsKnown() && !s.Key.IsNull() {
			return s.Key.AsString()
		}
	}
	return ""
}

// normalPath is p with each segment NFC-normalized.
func normalPath(p []string) []string {
	out := make([]string, len(p))
	for i, s := range p {
		out[i] = cty.NormalizeString(s)
	}
	return out
}

// pathTrie holds the option paths the library modules declare, as a trie
// of their segments: at the node of a path's end, the modules (indexes)
// that declare it.
type pathTrie struct {
	owners []int32
	kids   map[string]*pathTrie
}

// add puts path p of module owner into t.
func (t *pathTrie) add(p []string, owner int32) {
	n := t
	for _, s := range p {
		if n.kids == nil {
			n.kids = map[string]*pathTrie{}
		}
		k := n.kids[s]
		if k == nil {
			k = &pathTrie{}
			n.kids[s] = k
		}
		n = k
	}
	n.owners = append(n.owners, owner)
}

// along calls f with the owner of each path of t that is p, above it or
// below it, until f returns false; it says whether f never did.
func (t *pathTrie) along(p []string, f func(owner int32) bool) bool {
	n := t
	for _, s := range p {
		for _, o := range n.owners {
			if !f(o) {
				return false
			}
		}
		if n = n.kids[s]; n == nil {
			return true
		}
	}
	return n.below(f)
}

// below calls f with the owner of each path of t, until f returns false;
// it says whether f never did.
func (t *pathTrie) below(f func(owner int32) bool) bool {
	for _, o := range t.owners {
		if !f(o) {
			return false
		}
	}
	for _, k := range t.kids {
		if !k.below(f) {
			return false
		}
	}
	return true
}

// libraryUse is what the library modules of an evaluation (in module
// order) say together, made once for the process and each list of them
// (libraryUses): each one's moduleUse, the trie of the paths they declare,
// and which may be left out as far as the library itself goes
// (candidates that no other library module declares along, and that no
// library module kept reads or defines along).
type libraryUse struct {
	uses     []*moduleUse
	declared pathTrie
	// options holds the paths of the options declared from a module's
	// syntax (not those under a dynamic block's prefix)
	options pathTrie
	renames [][]string
	// readOnly are the paths of the read-only options they declare
	// (moduleUse.readOnly)
	readOnly [][]string
	unused   []bool
}

// libraryUses keeps the libraryUse of each list of library modules the
// process evaluated, by the hash of their IDs, up to maxLibraryUses.
var (
	libraryUses     sync.Map // [sha256.Size]byte -> *libraryUse
	libraryUseCount atomic.Int32
)

// maxLibraryUses bounds libraryUses: a process evaluates hosts of one
// library, each of which may disable some of its modules.
const maxLibraryUses = 16

// libraryUseOf returns the libraryUse of mods, library modules in module
// order.
func libraryUseOf(mods []*syntax.Module) *libraryUse {
	h := sha256.New()
	var buf []byte
	for _, m := range mods {
		buf = binary.AppendUvarint(buf, m.ID)
	}
	h.Write(buf)
	var key [sha256.Size]byte
	h.Sum(key[:0])
	if l, ok := libraryUses.Load(key); ok {
		return l.(*libraryUse)
	}
	l := newLibraryUse(mods)
	if libraryUseCount.Add(1) <= maxLibraryUses {
		libraryUses.Store(key, l)
	}
	return l
}

func newLibraryUse(mods []*syntax.Module) *libraryUse {
	l := &libraryUse{uses: make([]*moduleUse, len(mods)), unused: make([]bool, len(mods))}
	for i, m := range mods {
		l.uses[i] = useOf(m)
		for _, p := range l.uses[i].declares {
			l.declared.add(p, int32(i))
		}
		for _, p := range l.uses[i].options {
			l.options.add(p, int32(i))
		}
		l.renames = append(l.renames, l.uses[i].renames...)
		l.readOnly = append(l.readOnly, l.uses[i].readOnly...)
	}
	var kept [][]string
	for i, u := range l.uses {
		only := func(p []string) bool {
			n := 0
			return l.declared.along(p, func(o int32) bool { n++; return o == int32(i) }) && n > 0
		}
		l.unused[i] = u.candidate &&
			// no other module declares along its options, none renames
			// or removes one, and it reads only its own options
			!slices.ContainsFunc(u.declares, func(p []string) bool { return !only(p) }) &&
			!slices.ContainsFunc(u.declares, func(p []string) bool {
				return slices.ContainsFunc(l.renames, func(r []string) bool { return alongPath(p, r) })
			}) &&
			!slices.ContainsFunc(u.reads, func(p []string) bool { return !only(p) }) &&
			!l.strayTargets(i)
		if !l.unused[i] {
			kept = append(kept, u.reads...)
			kept = append(kept, u.defines...)
		}
	}
	l.keepAlong(l.unused, kept, &moduleUse{})
	return l
}

// keepAlong marks as used (unused[i] false) every module of l that
// declares along one of the paths, and along one of the paths each such
// module reads or defines, and every module that defines through one of
// the renamed or removed options of the host (host.renames) or reads
// along one of its options (host.declares), to a fixpoint.
func (l *libraryUse) keepAlong(unused []bool, paths [][]string, host *moduleUse) {
	keep := func(o int32) bool {
		if unused[o] {
			unused[o] = false
			u := l.uses[o].paths()
			paths = append(paths, u.reads...)
			paths = append(paths, u.defines...)
		}
		return true
	}
	for len(paths) > 0 {
		for len(paths) > 0 {
			p := paths[len(paths)-1]
			paths = paths[:len(paths)-1]
			l.declared.along(p, keep)
		}
		// A module that defines through one of the host's renamed or
		// removed options, or reads along an option the host declares, is
		// kept (see strayTargets and newLibraryUse for the library's).
		if len(host.renames) == 0 && len(host.declares) == 0 {
			continue
		}
		for i, u := range l.uses {
			if unused[i] && (slices.ContainsFunc(u.paths().targets, func(t []string) bool {
				return slices.ContainsFunc(host.renames, func(r []string) bool { return hasPrefix(t, r) })
			}) || slices.ContainsFunc(u.paths().reads, func(p []string) bool {
				return slices.ContainsFunc(host.declares, func(d []string) bool { return alongPath(p, d) })
			})) {
				keep(int32(i))
			}
		}
	}
}

// strayTargets says a config block of module i of l defines a path (each
// key of an object written out, see appendLeaves) that is no option nor
// in one's value, as the library's modules declare them from their syntax,
// or through one of the library's renamed or removed options, or along a
// read-only option: the whole evaluation tells of it, even under a false
// `when` (a read-only option counts the definitions under false
// conditions too, as NixOS's does), so the module is kept. (An option
// the host, or a dynamic block, declares counts as none: keeping a module
// is never wrong.)
func (l *libraryUse) strayTargets(i int) bool {
	return slices.ContainsFunc(l.uses[i].targets, func(t []string) bool {
		return !l.options.underOption(t) ||
			slices.ContainsFunc(l.renames, func(r []string) bool { return hasPrefix(t, r) }) ||
			slices.ContainsFunc(l.readOnly, func(r []string) bool { return alongPath(t, r) })
	})
}

// underOption says a path of t is p or above it: p is an option, or lies
// in an option's value.
func (t *pathTrie) underOption(p []string) bool {
	n := t
	for _, s := range p {
		if n = n.kids[s]; n == nil {
			return false
		}
		if len(n.owners) > 0 {
			return true
		}
	}
	return false
}

// leavesOut says the evaluation may leave unused library modules out.
func (ev *Evaluator) leavesOut() bool {
	cfg := ev.cfg
	// (Other limits than the defaults: what a module does by itself is
	// learned, and kept, under those.)
	return cfg.Reads != nil && cfg.Library != nil && cfg.Hosts == nil && !cfg.AllDefinitions && cfg.skip == nil && cfg.Limits == Limits{}
}

// unusedModules splits ev.Mods into the modules the evaluation keeps and
// those it leaves out (see the top of this file), each in module order.
func (ev *Evaluator) unusedModules() (kept, left []*syntax.Module) {
	paths, host := ev.hostPaths()
	var libMods []*syntax.Module
	for _, m := range ev.Mods {
		if m.Shared {
			libMods = append(libMods, m)
		}
	}
	lib := libraryUseOf(libMods)
	unused := slices.Clone(lib.unused)
	ev.settle(lib, libMods, unused, paths, host)
	return ev.splitMods(func(m *syntax.Module) bool { return m.Shared }, unused)
}

// hostPaths are the paths the caller reads and those the host's modules
// (every module but the library's) read, define and declare (what they
// declare keeps the library's modules that declare along it, which would
// conflict), and, in host.renames, the paths of their renamed and removed
// options.
func (ev *Evaluator) hostPaths() (paths [][]string, host *moduleUse) {
	host = &moduleUse{}
	for _, p := range ev.cfg.Reads {
		paths = append(paths, normalPath(p))
	}
	for _, m := range ev.Mods {
		if m.Shared || m.Lazy {
			continue
		}
		u := useOf(m)
		paths = append(paths, u.reads...)
		paths = append(paths, u.defines...)
		paths = append(paths, u.declares...)
		paths = append(paths, u.renames...)
		host.renames = append(host.renames, u.renames...)
		host.declares = append(host.declares, u.declares...)
	}
	return paths, host
}

// settle keeps (unused[i] false) the modules of lib (libMods) that paths
// and host reach (keepAlong), then those that do not do nothing by
// themselves (learnAlone), and what they reach, to a fixpoint.
func (ev *Evaluator) settle(lib *libraryUse, libMods []*syntax.Module, unused []bool, paths [][]string, host *moduleUse) {
	for {
		lib.keepAlong(unused, paths, host)
		paths = paths[:0]
		var unknown []*syntax.Module
		for i, u := range lib.uses {
			if unused[i] && u.alone.Load() == inertUnknown {
				unknown = append(unknown, libMods[i])
			}
		}
		ev.learnAlone(unknown)
		for i, u := range lib.uses {
			if unused[i] && u.alone.Load() != inertYes {
				unused[i] = false
				paths = append(paths, u.reads...)
				paths = append(paths, u.defines...)
			}
		}
		if len(paths) == 0 {
			return
		}
	}
}

// splitMods splits ev.Mods into the modules kept and those left out, in
// module order: the modules of which lib holds, in turn, whose unused is
// true are left out.
func (ev *Evaluator) splitMods(lib func(*syntax.Module) bool, unused []bool) (kept, left []*syntax.Module) {
	i := 0
	for _, m := range ev.Mods {
		if lib(m) {
			i++
			if unused[i-1] {
				left = append(left, m)
				continue
			}
		}
		kept = append(kept, m)
	}
	return kept, left
}

// learnAlone evaluates the candidate modules mods by themselves, in an
// evaluation of their own with their definitions left out, and keeps in
// each one's moduleUse whether it is inert there: declared without a
// diagnostic, and its conditions false, its assertions holding and its
// warnings quiet at its options' constant defaults (probeInert).
func (ev *Evaluator) learnAlone(mods []*syntax.Module) {
	if len(mods) == 0 {
		return
	}
	alone := newEvaluator(Config{Limits: ev.cfg.Limits, ShowTrace: ev.cfg.ShowTrace})
	alone.loaded = &loaded{
		loader: ev.loader,
		Modules: syntax.Modules{
			Mods:       mods,
			Submodules: map[string]*syntax.Submodule{},
			Formats:    map[string]*syntax.Format{},
			NamedTypes: map[string]*syntax.NamedType{},
		},
		userFuncs: map[string]*syntax.Function{},
	}
	alone.decl = declare.Declare(&alone.Modules, declaringConsts{alone})
	skip := map[*syntax.Module]bool{}
	for _, m := range mods {
		skip[m] = true
	}
	if len(alone.decl.Diags) > 0 {
		// A diagnostic of the tree names no module (a submodule type
		// another module declares, say): halves, until the modules that
		// have one are alone.
		if len(mods) == 1 {
			useOf(mods[0]).alone.CompareAndSwap(inertUnknown, inertNo)
			return
		}
		ev.learnAlone(mods[:len(mods)/2])
		ev.learnAlone(mods[len(mods)/2:])
		return
	}
	alone.define(alone.decl, nil, skip)
	for _, m := range mods {
		state := inertNo
		if len(alone.decl.ModDiags[m]) == 0 && len(checkLocals(m.Locals)) == 0 && alone.probeInert(m) {
			state = inertYes
		}
		useOf(m).alone.CompareAndSwap(inertUnknown, state)
	}
}

// hasPrefix says path p begins with prefix.
func hasPrefix(p, prefix []string) bool {
	return len(p) >= len(prefix) && slices.Equal(p[:len(prefix)], prefix)
}

// LeftOut returns how many library modules the evaluation left out as
// unused (see unused.go), and how many of those it did not even decode
// (see unusedfacts.go).
func (ev *Evaluator) LeftOut() (left, undecoded int) {
	for _, m := range ev.left {
		if m.Lazy {
			undecoded++
		}
	}
	return len(ev.left), undecoded
}

// Whole returns the evaluation of ev's configuration that leaves no
// unused module out: ev itself when it left none out, else one made on
// first use (ev when making it fails). A caller that reads what ev's
// Config.Reads named and meets an error asks Whole for the diagnostics of
// the whole library (a misspelt option is compared with every option).
func (ev *Evaluator) Whole() *Evaluator {
	if len(ev.left) == 0 {
		return ev
	}
	if ev.whole == nil {
		cfg := ev.cfg
		cfg.Reads = nil
		whole, diags := New(cfg)
		if diags.HasErrors() {
			whole = ev // (not seen: New made ev from cfg without errors)
		}
		ev.whole = whole
	}
	return ev.whole
}

// alongLeftOut says p is at, above or below a path a module the
// evaluation left out declares (for a module the facts stood for, the
// common prefix of its options).
func (ev *Evaluator) alongLeftOut(p options.Path) bool {
	for _, m := range ev.left {
		if slices.ContainsFunc(useOf(m).declares, func(d []string) bool { return alongPath(d, p) }) {
			return true
		}
	}
	return false
}
