package eval

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval/internal/declare"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// Explanation is everything known about one option: its declaration, its
// value, and what became of each of its definitions.
type Explanation struct {
	Path options.Path
	// KeyOf is, when Path is a key inside the value of an option (of an
	// attrsOf or anything option) and not an option, that option; Type,
	// Description and Declared are then the option's, and Definitions
	// are those that set the key, with their value there.
	KeyOf       options.Path
	Type        string
	Description string
	Declared    hcl.Range
	// Default is the source text of the default (or its default_text).
	Default    string
	HasDefault bool
	ReadOnly   bool
	// Value is the option's value, forced; Defined is false when it has
	// none.
	Value   cty.Value
	Defined bool
	// Definitions lists every definition (the default first), in
	// definition order; then, for an option inside submodule instances,
	// the definitions switched off by a false mkIf or when above the
	// instance (on the entry, or on the option holding it), which never
	// reached it.
	Definitions []DefinitionInfo
}

// DefinitionInfo is one definition of an option and its fate.
type DefinitionInfo struct {
	Range    hcl.Range
	Value    string // the value as shown in messages
	Priority int
	// State is what became of the definition: property.Won, Overridden
	// (lost on priority) or Disabled (an mkIf or when was false).
	State property.State
	// Condition is the false condition of a disabled definition.
	Condition hcl.Range
	// IsDefault is true for the option's default.
	IsDefault bool
}

// Explain evaluates the option at p, which may lie inside submodule
// instances (systemd.services.kubelet.after), and tells where its value
// comes from.
func (ev *Evaluator) Explain(p options.Path) (*Explanation, hcl.Diagnostics) {
	return ev.explain(p, true)
}

// explain is Explain; with disabled false, the definitions under a false
// condition may lack those of the modules the evaluation left out (see
// inert.go), which spares evaluating anew a caller that reads only the
// definitions that won.
func (ev *Evaluator) explain(p options.Path, disabled bool) (*Explanation, hcl.Diagnostics) {
	if disabled && ev.skippedDefine(p) {
		// The definitions of the inert modules left out are needed too:
		// those under a false condition are listed.
		if ev.full == nil {
			cfg := ev.cfg
			cfg.AllDefinitions = true
			full, diags := New(cfg)
			if diags.HasErrors() {
				full = ev // (not seen: ev was made from cfg) explain here, without them
			}
			ev.full = full
		}
		if ev.full != ev {
			return ev.full.Explain(p)
		}
	}
	inst, n, hops, key, diags := ev.lookupOptionHops(p)
	if n == nil {
		return nil, dedupe(withoutCommandLine(diags))
	}
	if key != nil && n.Opt == nil {
		x, d := ev.explainFreeform(inst, n, key, hops)
		return x, dedupe(withoutCommandLine(append(diags, d...)))
	}
	if key != nil {
		x, d := ev.explainKey(inst, n, key)
		return x, dedupe(withoutCommandLine(append(diags, d...)))
	}
	o := n.Opt
	s := inst.force(n, hcl.Range{Filename: commandLine})
	diags = append(diags, s.diags...)
	description, defaultText := o.TextsFor(inst.name)
	x := &Explanation{
		Path:        inst.fullPath(n.Path),
		Type:        o.Type.Description(),
		Description: description,
		Declared:    o.Block.DefRange(),
		ReadOnly:    o.ReadOnly,
		Defined:     s.defined,
	}
	if o.DefaultExpr != nil {
		x.HasDefault = true
		x.Default = defaultText
		if x.Default == "" {
			x.Default = ev.declText(o, o.DefaultExpr)
		}
	}
	if s.defined {
		v, d := property.Deep(s.value)
		diags = append(diags, d...)
		x.Value = v
	}
	for i, r := range s.parts {
		info := DefinitionInfo{Range: r.Range, Value: showDef(r.Value), Priority: r.Priority, State: r.State}
		if r.Cond != nil {
			info.Condition = *r.Cond
		}
		info.IsDefault = i == 0 && o.DefaultExpr != nil
		x.Definitions = append(x.Definitions, info)
	}
	// Definitions switched off above the instance (a false when on a block
	// that targets systemd.services.kubelet) never reach it: find them in
	// the options that hold the instances on the way.
	for _, h := range hops {
		for _, d := range h.inst.state(h.opt).defs {
			for _, leaf := range disabledLeaves(d.Value, d.Range, h.rest, nil) {
				x.Definitions = append(x.Definitions, DefinitionInfo{
					Range:     leaf.rng,
					Value:     showDef(leaf.value),
					State:     property.Disabled,
					Condition: leaf.cond,
				})
			}
		}
	}
	return x, dedupe(withoutCommandLine(diags))
}

// Winning returns the definition that won, the last one when several
// were merged: the definition whose module names a file relative to
// itself (see ReadModuleFile). ok is false when none won.
func (x *Explanation) Winning() (d DefinitionInfo, ok bool) {
	for _, def := range x.Definitions {
		if def.State == property.Won {
			d, ok = def, true
		}
	}
	return d, ok
}

// IsDeclared tells whether an option is declared at p in the top-level
// option tree (not inside submodules), without evaluating anything.
func (ev *Evaluator) IsDeclared(p options.Path) bool {
	n := declare.LookupDecl(ev.top.root, p)
	return n != nil && n.Opt != nil
}

// hop is a step of a path into a submodule instance: the option (of inst)
// whose value holds it, and the rest of the path from there on.
type hop struct {
	inst *instance
	opt  *declare.Node
	rest options.Path
}

// lookupOptionHops finds the option node at p, forcing the options on the
// way that hold submodule instances, and tells which those were. When p
// goes on inside the value of an option (a key of an attrsOf option), it
// returns that option and key, the rest of p; when p names an undeclared
// name of a freeform instance, the namespace of the instance it is in (no
// option) and key, the rest of p from there.
func (ev *Evaluator) lookupOptionHops(p options.Path) (inst *instance, n *declare.Node, hops []hop, key options.Path, diags hcl.Diagnostics) {
	rng := hcl.Range{Filename: commandLine}
	inst, n = ev.top, ev.top.root
	for i := 0; i < len(p); i++ {
		diags = append(diags, inst.drainTo(n.Path)...)
		c := n.Children[p[i]]
		if c == nil && inst.hasFreeform() {
			return inst, n, hops, p[i:], diags
		}
		if c == nil {
			return nil, nil, nil, nil, append(diags, ev.notExist(inst.fullPath(n.Path).Child(p[i]), n, p[i], rng, false))
		}
		if c.Rename != nil {
			to, rest := declare.RenameTarget(inst.root, c.Rename.To)
			if to != nil && len(rest) > 0 {
				// A path inside a submodule option's value: follow it
				// from the top again.
				p = append(append(options.Path{}, c.Rename.To...), p[i+1:]...)
				n, i = inst.root, -1
				continue
			}
			if to != nil {
				c = to
			}
		}
		if c.Opt == nil {
			n = c
			continue
		}
		if i == len(p)-1 {
			return inst, c, hops, nil, diags
		}
		hops = append(hops, hop{inst: inst, opt: c, rest: p[i+1:]})
		// Descend into the option's value until a submodule instance.
		v, d := inst.value(c, rng)
		diags = append(diags, d...)
		if d.HasErrors() {
			return nil, nil, nil, nil, diags
		}
		j := i + 1
		for ; j < len(p); j++ {
			v, d = property.Shallow(v)
			diags = append(diags, d...)
			if r, ok := property.AsRef(v); ok {
				if pi, ok := r.(*pendingInstance); ok {
					ref, d := pi.get()
					diags = append(diags, d...)
					if ref == nil {
						return nil, nil, nil, nil, diags
					}
					r = ref
				}
				if ns, ok := r.(*nsRef); ok {
					inst, n = ns.inst, ns.n
					break
				}
			}
			if !v.IsKnown() || v.IsNull() || !v.Type().IsObjectType() || !ctyelems.HasAttr(v.Type(), p[j]) {
				return nil, nil, nil, nil, append(diags, noKeyDiag(p[:j], p[j], inst.fullPath(c.Path), v))
			}
			v = v.GetAttr(p[j])
		}
		if j == len(p) {
			return inst, c, hops, p[i+1:], diags
		}
		i = j - 1
	}
	return nil, nil, nil, nil, append(diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("%q is a namespace, not an option", p.String()),
		Detail:   fmt.Sprintf("Below %s there are: %s.", displayNamespace(inst.fullPath(n.Path)), listNames(n.Names)),
	})
}

// noKeyDiag is the error for a path into the value of option opt that
// names a key the value at p does not have.
func noKeyDiag(p options.Path, key string, opt options.Path, v cty.Value) *hcl.Diagnostic {
	detail := fmt.Sprintf("%q is a path inside the value of option %q, and %s has no key %q.", p.Child(key).String(), opt.String(), p.String(), key)
	if v.IsKnown() && !v.IsNull() && v.Type().IsObjectType() {
		var names []string
		for name := range v.Type().AttributeTypes() {
			names = append(names, name)
		}
		sort.Strings(names)
		switch dym := options.DidYouMean(key, names); {
		case len(names) == 0:
			detail += " It is empty."
		case dym != "":
			detail += fmt.Sprintf(" Did you mean %q?", p.Child(dym).String())
		default:
			detail += fmt.Sprintf(" Its keys are: %s.", listNames(names))
		}
	} else {
		detail = fmt.Sprintf("%q is a path inside the value of option %q, and %s is %s, which has no keys.", p.Child(key).String(), opt.String(), p.String(), options.ShowValue(v))
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("%q is not set", p.Child(key).String()),
		Detail:   detail,
	}
}

// disabledLeaf is a definition found below a false mkIf.
type disabledLeaf struct {
	value cty.Value
	rng   hcl.Range
	cond  hcl.Range
}

// disabledLeaves walks a definition down path, through objects written out
// in the source and through properties, and returns the pieces that reach
// the end of path under an mkIf whose condition is false (cond is the
// first false one met, nil while none). It evaluates no value: a piece
// whose shape needs evaluating is not followed. The properties are
// discharged as merging does (property.Decide), and below a false
// condition pushed down (property.PushDown: no other condition matters).
func disabledLeaves(v cty.Value, rng hcl.Range, path options.Path, cond *hcl.Range) []disabledLeaf {
	dis := property.Discharger{Force: forceStatic}
	if cond != nil {
		dis.Mode = property.PushDown
	}
	dis.Add(v, rng)
	if dis.HasErrors() {
		return nil
	}
	var out []disabledLeaf
	for _, part := range dis.Parts {
		switch part.State {
		case property.Waiting:
			if len(path) == 0 && cond != nil {
				out = append(out, disabledLeaf{value: part.Value, rng: part.Range, cond: *cond})
			}
			continue
		case property.Disabled:
			out = append(out, disabledLeaves(part.Value, part.Range, path, part.Cond)...)
			continue
		}
		if p, ok := property.AsProperty(part.Value); ok {
			// an mkOverride or mkOrder, kept by property.Decide
			out = append(out, disabledLeaves(p.Content, p.Range, path, cond)...)
			continue
		}
		if len(path) == 0 {
			if cond != nil {
				out = append(out, disabledLeaf{value: part.Value, rng: part.Range, cond: *cond})
			}
			continue
		}
		w := part.Value
		if !w.IsKnown() || w.IsNull() || !w.Type().IsObjectType() || !ctyelems.HasAttr(w.Type(), path[0]) {
			continue
		}
		e := w.GetAttr(path[0])
		out = append(out, disabledLeaves(e, part.Range, path[1:], cond)...)
	}
	return out
}

// sourceText returns the source text of a range.
func sourceText(files map[string]*hcl.File, r hcl.Range) string {
	f := files[r.Filename]
	if f == nil || r.End.Byte > len(f.Bytes) || r.Start.Byte > r.End.Byte {
		return ""
	}
	return string(f.Bytes[r.Start.Byte:r.End.Byte])
}
