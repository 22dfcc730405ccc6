package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval/internal/declare"
	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// EvalExpr evaluates an expression against the top-level configuration,
// as an assert of a test does: it can read config, root and options.
// An expression of a module given inline (Config.Inline: a test file's
// run) can call file(), relative to that module's file.
func (ev *Evaluator) EvalExpr(expr hclsyntax.Expression) (cty.Value, hcl.Diagnostics) {
	v, diags := (&scope{inst: ev.top, mod: ev.inlineModule(expr.Range().Filename)}).deep(expr)
	return v, dedupe(diags)
}

// inlineModule returns the module given inline whose file is filename,
// nil if there is none.
func (ev *Evaluator) inlineModule(filename string) *syntax.Module {
	for _, m := range ev.Mods {
		if m.Src.Inline > 0 && m.File != nil && m.File.Body.MissingItemRange().Filename == filename {
			return m
		}
	}
	return nil
}

// Get evaluates the value at a configuration path (an option, a namespace
// or a path inside an option's value) and forces it completely. Assertions
// are not checked.
func (ev *Evaluator) Get(p options.Path) (cty.Value, hcl.Diagnostics) {
	return ev.get(p, property.Deep)
}

// GetPartial is Get that leaves out the options that have no value, as
// Config (--json) does, where Get fails on them: for a reader that skips
// what is not set, such as the disabled entries of an attrsOf(submodule)
// option whose other options need not be set.
func (ev *Evaluator) GetPartial(p options.Path) (cty.Value, hcl.Diagnostics) {
	return ev.get(p, property.DeepPartial)
}

func (ev *Evaluator) get(p options.Path, deep func(cty.Value) (cty.Value, hcl.Diagnostics)) (cty.Value, hcl.Diagnostics) {
	rng := hcl.Range{Filename: commandLine, Start: hcl.InitialPos, End: hcl.InitialPos}
	v := property.RefVal(&nsRef{inst: ev.top, n: ev.top.root})
	var diags hcl.Diagnostics
	for i, seg := range p {
		var d hcl.Diagnostics
		v, d = property.Shallow(v)
		diags = append(diags, d...)
		if v.IsKnown() && !v.IsNull() && v.Type().IsObjectType() && !ctyelems.HasAttr(v.Type(), seg) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported attribute",
				Detail:   fmt.Sprintf("The value of %q does not have an attribute named %q (reading %q).", p[:i].String(), seg, p.String()),
			})
			break
		}
		v, d = getAttr(v, seg, rng)
		diags = append(diags, d...)
		if d.HasErrors() {
			break
		}
	}
	dv, d := deep(v)
	diags = append(diags, d...)
	return dv, dedupe(withoutCommandLine(diags))
}

// Config evaluates the whole configuration: every option that has a value
// (an option without one is left out, where reading it is an error).
func (ev *Evaluator) Config() (cty.Value, hcl.Diagnostics) {
	v, diags := (&nsRef{inst: ev.top, n: ev.top.root}).MaterializePartial()
	diags = append(diags, ev.late...)
	return v, dedupe(diags)
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
		for _, e := range ctyelems.Elems(v) {
			out = append(out, GoValue(e))
		}
		return out
	}
	return fmt.Sprintf("<%s>", ty.FriendlyName())
}

// MaxJSONValues bounds the values, at every depth, of a value that JSON
// renders: a value that holds another many times over (an object of two
// references to one object, forty times over, is 2^40 values written out)
// is an error rather than an output without end.
const MaxJSONValues = 1 << 22

// errJSONTooLarge is JSON's error for a value of more than MaxJSONValues.
var errJSONTooLarge = fmt.Errorf("the value holds more than %d values at all depths (it holds some value many times over); it is not written", MaxJSONValues)

// JSON renders a forced value as JSON with sorted keys and a two-space
// indent, whole numbers as integers. A value of more than MaxJSONValues
// values at every depth is an error.
func JSON(v cty.Value) ([]byte, error) {
	// Counted first, in the work of its distinct values: a value too
	// large written out is an error before millions of its values are
	// made (seconds, and gigabytes) to be thrown away.
	if n, _ := ctyelems.TreeSize(v, MaxJSONValues); n > MaxJSONValues {
		return nil, errJSONTooLarge
	}
	n := 0
	jv := jsonValue(v, &n)
	if n > MaxJSONValues {
		return nil, errJSONTooLarge
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(jv); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// jsonValue is v as encoding/json writes it, counting the values it makes
// in n; past MaxJSONValues, it makes no more.
func jsonValue(v cty.Value, n *int) any {
	if *n++; *n > MaxJSONValues {
		return nil
	}
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
				m[k.AsString()] = jsonValue(e, n)
			}
			return m
		case ty.IsTupleType() || ty.IsListType() || ty.IsSetType():
			out := []any{}
			for _, e := range ctyelems.Elems(v) {
				out = append(out, jsonValue(e, n))
			}
			return out
		}
	}
	return GoValue(v)
}

// Declaration describes one option for documentation and tooling; it is
// declaring's (see package declare).
type Declaration = declare.Declaration

// Declarations lists every option in scope, for documentation: the
// top-level options and, below options whose type holds a submodule, the
// submodule's options with placeholders (<name> for an attribute of an
// attrsOf, * for an element of a list), sorted by path.
func (ev *Evaluator) Declarations() []Declaration {
	var out []Declaration
	ev.walkOptions(ev.top.root, nil, map[string]bool{}, func(o *declare.Option, p options.Path) {
		// An option of a submodule whose texts read name: <name> for the
		// instances of an attrsOf or a list, and for a submodule option
		// the name its one instance has (exporters.node: "node").
		name := cty.NilVal
		if len(o.NameTexts) > 0 && len(p) > len(o.Path) {
			name = cty.StringVal(p[len(p)-len(o.Path)-1])
			if name.AsString() == "*" {
				name = cty.StringVal(declare.DocName)
			}
		}
		description, defaultText := o.TextsFor(name)
		d := Declaration{
			// A copy: p may be the option's own path, shared by the
			// evaluations of the process.
			Path:        slices.Clone(p),
			Type:        o.Type.Description(),
			Description: description,
			ReadOnly:    o.ReadOnly,
			Internal:    o.Internal,
			Range:       o.Block.DefRange(),
		}
		if o.DefaultExpr != nil {
			d.HasDefault = true
			d.Default, d.DefaultIsText = defaultText, defaultText != ""
			if d.Default == "" {
				d.Default = ev.declText(o, o.DefaultExpr)
			}
		}
		if o.Example != nil {
			d.Example = ev.declText(o, o.Example)
		}
		out = append(out, d)
	}, nil)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path.String() < out[j].Path.String() })
	return out
}

// declText is the text the documentation shows for an option's default or
// example, expr: its source text, or the value it has in a declaration
// made by a dynamic block (see declare.IteratorValue), as it would be
// written by hand.
func (ev *Evaluator) declText(o *declare.Option, expr hclsyntax.Expression) string {
	if v, ok := declare.IteratorValue(declaringConsts{ev}, o, expr); ok {
		return string(hclwrite.TokensForValue(v).Bytes())
	}
	return sourceText(ev.Files(), expr.Range())
}

// walkOptions calls visit for every option below n, prefix in front of its
// path, and descends into the submodules of its type with placeholders
// (<name> for an attribute of an attrsOf, * for an element of a list).
// built, when not nil, is called with every submodule tree met. visit may
// be nil, to walk for built alone: the options whose type holds no
// submodule are then passed over without making their paths.
func (ev *Evaluator) walkOptions(n *declare.Node, prefix options.Path, seen map[string]bool, visit func(*declare.Option, options.Path), built func(*declare.SubType)) {
	if o := n.Opt; o != nil {
		if visit == nil && !declare.HoldsSubmodule(o.Type) {
			return
		}
		// Without a prefix, the option's own path (paths are not changed
		// in place; its capacity cut so that an append copies it); with
		// one, a path from the evaluation's room.
		p := n.Path[:len(n.Path):len(n.Path)]
		if len(prefix) > 0 {
			p = ev.arena.join(prefix, n.Path)
		}
		if visit != nil {
			visit(o, p)
		}
		ev.walkType(o.Type, p, seen, visit, built)
		return
	}
	for _, name := range n.Names {
		ev.walkOptions(n.Children[name], prefix, seen, visit, built)
	}
}

func (ev *Evaluator) walkType(t options.Type, p options.Path, seen map[string]bool, visit func(*declare.Option, options.Path), built func(*declare.SubType)) {
	switch t := t.(type) {
	case options.AttrsOf:
		ev.walkType(t.Elem, p.Child("<name>"), seen, visit, built)
	case options.ListOf:
		ev.walkType(t.Elem, p.Child("*"), seen, visit, built)
	case options.NullOr:
		ev.walkType(t.Elem, p, seen, visit, built)
	case options.Uniq:
		ev.walkType(t.Elem, p, seen, visit, built)
	case options.Submodule:
		key := strings.Join(t.Names, "\x00")
		if seen[key] {
			return // a recursive submodule
		}
		seen[key] = true
		defer delete(seen, key)
		st := ev.submoduleType(t.Names)
		if built != nil {
			built(st)
		}
		if st.Root != nil {
			ev.walkOptions(st.Root, p, seen, visit, built)
		}
	}
}
