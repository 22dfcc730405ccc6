package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/big"
	"path"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/nodegen/nodegen/internal/hclsyntax"
	"github.com/nodegen/nodegen/lib"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// Config says what to evaluate.
type Config struct {
	// Files are the user's modules, in order: host paths, or paths inside
	// FS when FS is set.
	Files []string
	// FS, when set, holds the user's modules instead of the host.
	FS fs.FS
	// Library is the built-in module library, part of every evaluation;
	// nil evaluates the Files alone (--bare).
	Library fs.FS
	// ShowTrace adds the evaluation chain to errors.
	ShowTrace bool
	// Inline are modules given as parsed bodies rather than files, after
	// Files in module order: how `nodegen test` evaluates a run block.
	Inline []InlineModule
}

// InlineModule is a module given as a body of a parsed file (a subset of
// the file, such as a run block of a test). Its imports are relative to
// Path, the file's path (on the host, or in Config.FS).
type InlineModule struct {
	Path string
	File *hcl.File
	Body *hclsyntax.Body
}

// Warning is a warning raised by a warning block or a renamed option.
type Warning struct {
	Message string
	Range   hcl.Range
}

// New loads the modules, declares their options and splits their
// definitions. It evaluates nothing: options are evaluated when they are
// read (Get, Config, Check).
func New(cfg Config) (*Evaluator, hcl.Diagnostics) {
	ev := &Evaluator{
		cfg:         cfg,
		loader:      newLoader(),
		submodules:  map[string]*submoduleSyntax{},
		subTypes:    map[string]*subType{},
		modLocals:   map[*module]*localSet{},
		funcs:       lib.Functions(),
		fileFuncs:   map[string]function.Function{},
		traced:      map[*hcl.Diagnostic]bool{},
		removedMsgs: map[*declNode]*thunk{},
	}
	var diags hcl.Diagnostics
	var roots []source
	if cfg.Library != nil {
		libs, err := libraryModules(cfg.Library)
		if err != nil {
			return ev, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read the module library", Detail: err.Error()}}
		}
		roots = append(roots, libs...)
	}
	for _, f := range cfg.Files {
		if cfg.FS != nil {
			roots = append(roots, source{fsys: cfg.FS, path: path.Clean(f)})
			continue
		}
		s, err := hostSource(f)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read module", Detail: fmt.Sprintf("%s: %s.", f, err)})
			continue
		}
		roots = append(roots, s)
	}
	for i, in := range cfg.Inline {
		s := source{fsys: cfg.FS, path: path.Clean(in.Path), inline: i + 1}
		if cfg.FS == nil {
			hs, err := hostSource(in.Path)
			if err != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read module", Detail: fmt.Sprintf("%s: %s.", in.Path, err)})
				continue
			}
			hs.inline = i + 1
			s = hs
		}
		diags = append(diags, ev.loader.addInline(s, in.File, in.Body)...)
		roots = append(roots, s)
	}
	mods, d := ev.loader.collect(roots)
	diags = append(diags, d...)
	ev.mods = mods
	// Submodule types are global to the evaluation.
	for _, m := range mods {
		for _, s := range m.submodules {
			if prev, ok := ev.submodules[s.name]; ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("submodule %q is already declared", s.name),
					Detail:   fmt.Sprintf("The submodule %q is declared here and at %s. Submodule names are global to an evaluation.", s.name, rangeString(prev.block.DefRange())),
					Subject:  s.block.DefRange().Ptr(),
				})
				continue
			}
			ev.submodules[s.name] = s
		}
	}
	var entries []declEntry
	for _, m := range mods {
		diags = append(diags, checkLocals(m.locals)...)
		for _, s := range m.submodules {
			diags = append(diags, checkLocals(s.locals)...)
		}
		for _, o := range m.options {
			entries = append(entries, declEntry{syn: o, mod: m})
		}
	}
	root, d := ev.buildTrie(entries, nil)
	diags = append(diags, d...)
	diags = append(diags, addRenames(root, mods)...)
	// Declaration errors inside submodules are reported now, not when the
	// first instance is made: those of the submodule types options use
	// (merged ones too), named by the option's path, then the rest.
	report := func(st *subType) {
		if !st.reported {
			st.reported = true
			diags = append(diags, st.diags...)
		}
	}
	ev.walkOptions(root, nil, map[string]bool{}, func(*optionDecl, options.Path) {}, report)
	for _, name := range sortedKeys(ev.submodules) {
		report(ev.submoduleType([]string{name}))
	}
	ev.top = &instance{ev: ev, root: root, states: map[*declNode]*nodeState{}, bodyLocals: map[*submoduleSyntax]*localSet{}}
	// Definitions come in the reverse of the module list.
	for i := len(mods) - 1; i >= 0; i-- {
		m := mods[i]
		sc := ev.topScope(m)
		for k, c := range m.configs {
			v := ev.configValue(c, sc)
			diags = append(diags, ev.top.split(root, defn{Def: options.Def{Value: v, Range: c.block.DefRange()}, seq: []int{len(mods) - 1 - i, k}}, false)...)
		}
	}
	return ev, dedupe(diags)
}

func checkLocals(attrs []*hclsyntax.Attribute) hcl.Diagnostics {
	var diags hcl.Diagnostics
	seen := map[string]hcl.Range{}
	for _, a := range attrs {
		if prev, ok := seen[a.Name]; ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate local",
				Detail:   fmt.Sprintf("The local %q is already declared at %s.", a.Name, rangeString(prev)),
				Subject:  a.NameRange.Ptr(),
			})
			continue
		}
		seen[a.Name] = a.NameRange
	}
	return diags
}

// EvalExpr evaluates an expression against the top-level configuration,
// as an assert of a test does: it can read config, root and options.
func (ev *Evaluator) EvalExpr(expr hclsyntax.Expression) (cty.Value, hcl.Diagnostics) {
	v, diags := (&scope{inst: ev.top}).deep(expr)
	return v, dedupe(diags)
}

// Files returns the parsed files by name, for rendering diagnostics.
func (ev *Evaluator) Files() map[string]*hcl.File { return ev.loader.files }

// Get evaluates the value at a configuration path (an option, a namespace
// or a path inside an option's value) and forces it completely. Assertions
// are not checked.
func (ev *Evaluator) Get(p options.Path) (cty.Value, hcl.Diagnostics) {
	rng := hcl.Range{Filename: commandLine, Start: hcl.InitialPos, End: hcl.InitialPos}
	sc := &scope{inst: ev.top}
	v := property.RefVal(&nsRef{inst: ev.top, n: ev.top.root})
	var diags hcl.Diagnostics
	for i, seg := range p {
		var d hcl.Diagnostics
		v, d = property.Shallow(v)
		diags = append(diags, d...)
		if v.IsKnown() && !v.IsNull() && v.Type().IsObjectType() && !v.Type().HasAttribute(seg) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported attribute",
				Detail:   fmt.Sprintf("The value of %q does not have an attribute named %q (reading %q).", p[:i].String(), seg, p.String()),
			})
			break
		}
		v, d = sc.getAttr(v, seg, rng)
		diags = append(diags, d...)
		if d.HasErrors() {
			break
		}
	}
	dv, d := property.Deep(v)
	diags = append(diags, d...)
	return dv, dedupe(withoutCommandLine(diags))
}

// withoutCommandLine drops subjects that stand for the command line, which
// has no source to show.
func withoutCommandLine(diags hcl.Diagnostics) hcl.Diagnostics {
	for _, d := range diags {
		if d.Subject != nil && d.Subject.Filename == commandLine {
			d.Subject = nil
		}
	}
	return diags
}

// Config evaluates the whole configuration: every option that has a value.
func (ev *Evaluator) Config() (cty.Value, hcl.Diagnostics) {
	v, diags := (&nsRef{inst: ev.top, n: ev.top.root}).Materialize()
	diags = append(diags, ev.late...)
	return v, dedupe(diags)
}

// Check evaluates the whole configuration, then every assertion and
// warning of the top level and of every submodule instance. Failed
// assertions are errors; warnings are returned in a stable order.
func (ev *Evaluator) Check() ([]Warning, hcl.Diagnostics) {
	_, diags := ev.Config()
	warns, d := ev.Assertions()
	return warns, dedupe(append(diags, d...))
}

// Assertions checks the assertions and warnings of the top level and of
// every submodule instance made so far (and of those that checking makes),
// without evaluating the rest of the configuration: what writing a profile
// does after evaluating environment.etc, as NixOS checks its assertions
// when it builds the system and not on every option.
func (ev *Evaluator) Assertions() ([]Warning, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	var warns []Warning
	check := func(c *checkSyntax, sc *scope, isAssert bool) {
		ok, known, d := sc.evalBool(c.condition, "condition")
		diags = append(diags, d...)
		if !known {
			return
		}
		if isAssert == ok {
			return
		}
		msgs, d := sc.evalMessages(c.message)
		diags = append(diags, d...)
		for _, msg := range msgs {
			if isAssert {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "assertion failed: " + msg,
					Detail:   ev.instanceNote(sc.inst),
					Subject:  c.block.DefRange().Ptr(),
				})
			} else {
				warns = append(warns, Warning{Message: msg, Range: c.block.DefRange()})
			}
		}
	}
	for _, m := range ev.mods {
		sc := ev.topScope(m)
		for _, c := range m.asserts {
			check(c, sc, true)
		}
		for _, c := range m.warnings {
			check(c, sc, false)
		}
	}
	for i := 0; i < len(ev.instances); i++ {
		inst := ev.instances[i]
		for _, body := range inst.st.bodies {
			sc := inst.bodyScope(body)
			for _, c := range body.asserts {
				check(c, sc, true)
			}
			for _, c := range body.warnings {
				check(c, sc, false)
			}
		}
	}
	w, d := ev.renameChecks(ev.top.root)
	warns = append(warns, w...)
	diags = append(diags, d...)
	diags = append(diags, ev.late...)
	sort.SliceStable(warns, func(i, j int) bool {
		if warns[i].Message != warns[j].Message {
			return warns[i].Message < warns[j].Message
		}
		return rangeString(warns[i].Range) < rangeString(warns[j].Range)
	})
	return warns, dedupe(diags)
}

// evalMessages evaluates the message of an assert or warning block: a
// string, or a list of strings (one failure or warning each).
func (sc *scope) evalMessages(expr hclsyntax.Expression) ([]string, hcl.Diagnostics) {
	v, diags := sc.deep(expr)
	if diags.HasErrors() || !v.IsKnown() {
		return nil, diags
	}
	if !v.IsNull() && (v.Type().IsTupleType() || v.Type().IsListType()) {
		var out []string
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			if e.IsNull() || e.Type() != cty.String {
				return nil, append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid message",
					Detail:   "A message is a string or a list of strings.",
					Subject:  expr.Range().Ptr(),
				})
			}
			out = append(out, e.AsString())
		}
		return out, diags
	}
	str, d := asString(v, expr.Range(), "Invalid message", "A message is a string or a list of strings.")
	if d != nil {
		return nil, append(diags, d)
	}
	return []string{str}, diags
}

// removedMessage evaluates (once) the message of a removed_option.
func (ev *Evaluator) removedMessage(n *declNode) (string, hcl.Diagnostics) {
	t, ok := ev.removedMsgs[n]
	if !ok {
		t = &thunk{expr: n.removed.message, sc: ev.topScope(n.remMod), what: "the message of removed_option " + n.path.String()}
		ev.removedMsgs[n] = t
	}
	v, diags := t.ForceDeep()
	if diags.HasErrors() || !v.IsKnown() {
		return "", diags
	}
	str, d := asString(v, n.removed.message.Range(), "Invalid message", "The message of a removed_option is a string.")
	if d != nil {
		return "", append(diags, d)
	}
	return str, diags
}

func (ev *Evaluator) instanceNote(inst *instance) string {
	if len(inst.loc) == 0 {
		return ""
	}
	return fmt.Sprintf("In the submodule instance %q.", inst.loc.String())
}

// renameChecks warns about definitions of renamed options and fails on
// definitions of removed ones.
func (ev *Evaluator) renameChecks(n *declNode) ([]Warning, hcl.Diagnostics) {
	var warns []Warning
	var diags hcl.Diagnostics
	if n.rename != nil || n.removed != nil {
		diags = append(diags, ev.top.drainTo(n.path[:len(n.path)-1])...)
		s := ev.top.peekState(n)
		if s == nil {
			return nil, diags
		}
		for _, d := range s.defs {
			live, dd := lives(n.path, d.Def)
			diags = append(diags, dd...)
			if !live {
				continue
			}
			if n.rename != nil {
				warns = append(warns, Warning{
					Message: fmt.Sprintf("The option %q defined in %s has been renamed to %q.", n.path.String(), d.Range.Filename, options.Path(n.rename.to).String()),
					Range:   d.Range,
				})
				continue
			}
			msg, dd := ev.removedMessage(n)
			diags = append(diags, dd...)
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("option %q was removed", n.path.String()),
				Detail:   fmt.Sprintf("The option definition %q in %s no longer has any effect; please remove it.\n%s", n.path.String(), d.Range.Filename, msg),
				Subject:  d.Range.Ptr(),
			})
		}
		return warns, diags
	}
	for _, name := range n.names {
		w, d := ev.renameChecks(n.children[name])
		warns = append(warns, w...)
		diags = append(diags, d...)
	}
	return warns, diags
}

// dedupe drops repeated diagnostics (the same error reached through two
// references) and keeps the first occurrence.
func dedupe(diags hcl.Diagnostics) hcl.Diagnostics {
	if len(diags) < 2 {
		return diags
	}
	seen := map[string]bool{}
	out := diags[:0:0]
	for _, d := range diags {
		key := fmt.Sprintf("%d|%s|%s", d.Severity, d.Summary, d.Detail)
		if d.Subject != nil {
			key += "|" + d.Subject.String()
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, d)
	}
	return out
}

// GoValue turns a forced cty value into plain Go values, for tests with
// go-cmp: map[string]any, []any, string, bool, int64 (whole numbers),
// float64, nil.
func GoValue(v cty.Value) any {
	if !v.IsKnown() {
		return "<unknown>"
	}
	if v.IsNull() {
		return nil
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return v.AsString()
	case ty == cty.Bool:
		return v.True()
	case ty == cty.Number:
		bf := v.AsBigFloat()
		if bf.IsInt() {
			if i, acc := bf.Int64(); acc == big.Exact {
				return i
			}
		}
		f, _ := bf.Float64()
		return f
	case ty.IsObjectType() || ty.IsMapType():
		m := map[string]any{}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			m[k.AsString()] = GoValue(e)
		}
		return m
	case ty.IsTupleType() || ty.IsListType() || ty.IsSetType():
		out := []any{}
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			out = append(out, GoValue(e))
		}
		return out
	}
	return fmt.Sprintf("<%s>", ty.FriendlyName())
}

// JSON renders a forced value as JSON with sorted keys and a two-space
// indent, whole numbers as integers.
func JSON(v cty.Value) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(jsonValue(v)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func jsonValue(v cty.Value) any {
	if v.IsKnown() && !v.IsNull() && v.Type() == cty.Number {
		bf := v.AsBigFloat()
		if bf.IsInt() {
			return json.Number(bf.Text('f', 0))
		}
		return json.Number(strings.TrimSuffix(bf.Text('g', -1), ".0"))
	}
	if v.IsKnown() && !v.IsNull() {
		ty := v.Type()
		switch {
		case ty.IsObjectType() || ty.IsMapType():
			m := map[string]any{}
			for it := v.ElementIterator(); it.Next(); {
				k, e := it.Element()
				m[k.AsString()] = jsonValue(e)
			}
			return m
		case ty.IsTupleType() || ty.IsListType() || ty.IsSetType():
			out := []any{}
			for it := v.ElementIterator(); it.Next(); {
				_, e := it.Element()
				out = append(out, jsonValue(e))
			}
			return out
		}
	}
	return GoValue(v)
}
