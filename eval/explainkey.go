package eval

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval/internal/declare"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// This file explains one key inside the value of an option (a key of an
// attrsOf or anything option: systemd.services.web.serviceConfig.Restart,
// boot.kernel.sysctl."net.core.somaxconn"): every definition of the option
// that sets the key, with the key's value in it, its priority and what
// became of it, as merging the option decided it level by level.

// explainKey explains key, a path inside the value of option n of inst.
func (ev *Evaluator) explainKey(inst *instance, n *declare.Node, key options.Path) (*Explanation, hcl.Diagnostics) {
	o := n.Opt
	full := inst.fullPath(n.Path)
	s := inst.force(n, hcl.Range{Filename: commandLine})
	diags := s.diags
	description, _ := o.TextsFor(inst.name)
	x := &Explanation{
		Path:        append(full.Child(key[0]), key[1:]...),
		KeyOf:       full,
		Type:        o.Type.Description(),
		Description: description,
		Declared:    o.Block.DefRange(),
		Defined:     s.defined,
	}
	if s.defined {
		v, d := property.Deep(s.value)
		diags = append(diags, d...)
		for _, k := range key {
			if !v.IsKnown() || v.IsNull() || !v.Type().IsObjectType() || !ctyelems.HasAttr(v.Type(), k) {
				x.Defined = false
				break
			}
			v = v.GetAttr(k)
		}
		x.Value = v
	}
	x.Definitions = keyDefinitions(s.parts, o.DefaultExpr != nil, key)
	return x, diags
}

// keyCandidate is a definition's value at one level of the key's path,
// which merging still considers there.
type keyCandidate struct {
	value     cty.Value
	rng       hcl.Range
	priority  int // inherited from the levels above, unless it has its own
	isDefault bool
}

// keyDefinitions returns what became of the definitions of an option at
// key (a path inside its value): parts are the option's merged
// definitions, the first of them its default when hasDefault.
func keyDefinitions(parts []property.Part, hasDefault bool, key options.Path) []DefinitionInfo {
	var out []DefinitionInfo
	var cands []keyCandidate
	for i, p := range parts {
		isDefault := i == 0 && hasDefault
		if p.State == property.Won {
			cands = append(cands, keyCandidate{value: p.Value, rng: p.Range, priority: p.Priority, isDefault: isDefault})
			continue
		}
		out = append(out, lostAtKey(p, key, isDefault)...)
	}
	return append(out, keyLevel(cands, key)...)
}

// keyLevel descends the candidates one step, to key[0], and decides their
// priorities there as merging does (property.Discharger.Override).
func keyLevel(cands []keyCandidate, key options.Path) []DefinitionInfo {
	d := property.Discharger{}
	var from []keyCandidate // the candidate of each part of d
	for _, c := range cands {
		v, ok := attrOf(stripOverride(c.value), key[0], false)
		if !ok {
			continue
		}
		n := len(d.Parts)
		d.Add(v, property.RangeOf(v, c.rng))
		for range d.Parts[n:] {
			from = append(from, c)
		}
	}
	if d.HasErrors() {
		return nil
	}
	own := make([]bool, len(d.Parts)) // whether a part has its own mkOverride
	for i, p := range d.Parts {
		q, ok := property.AsProperty(p.Value)
		own[i] = ok && q.Kind == property.KindOverride
	}
	d.Override()
	var out []DefinitionInfo
	var next []keyCandidate
	for i, p := range d.Parts {
		prio := p.Priority
		if !own[i] && p.State != property.Disabled {
			prio = from[i].priority
		}
		if len(key) > 1 && p.State == property.Won {
			next = append(next, keyCandidate{value: p.Value, rng: p.Range, priority: prio, isDefault: from[i].isDefault})
			continue
		}
		p.Priority = prio
		if len(key) > 1 {
			out = append(out, lostAtKey(p, key[1:], from[i].isDefault)...)
			continue
		}
		out = append(out, keyInfo(p, p.Value, from[i].isDefault))
	}
	if len(next) > 0 {
		out = append(out, keyLevel(next, key[1:])...)
	}
	return out
}

// lostAtKey reports a part that lost above the key (overridden or
// disabled) if it sets the key, read without evaluating anything.
func lostAtKey(p property.Part, key options.Path, isDefault bool) []DefinitionInfo {
	v := p.Value
	for _, k := range key {
		var ok bool
		if v, ok = attrOf(stripAll(v), k, true); !ok {
			return nil
		}
	}
	return []DefinitionInfo{keyInfo(p, v, isDefault)}
}

func keyInfo(p property.Part, v cty.Value, isDefault bool) DefinitionInfo {
	info := DefinitionInfo{Range: property.RangeOf(v, p.Range), Value: showDef(stripOverride(v)), Priority: p.Priority, State: p.State, IsDefault: isDefault}
	if p.Cond != nil {
		info.Condition = *p.Cond
	}
	return info
}

// attrOf is the attribute name of v, an object once forced (only as far
// as the source shows it when static).
func attrOf(v cty.Value, name string, static bool) (cty.Value, bool) {
	if l, ok := property.AsLazy(v); ok {
		if static {
			fv, ok, _ := forceStatic(l)
			if !ok {
				return cty.NilVal, false
			}
			v = fv
		} else {
			v, _ = property.Shallow(v)
		}
	}
	if !v.IsKnown() || v.IsNull() || !v.Type().IsObjectType() || !ctyelems.HasAttr(v.Type(), name) {
		return cty.NilVal, false
	}
	return v.GetAttr(name), true
}

// stripOverride takes off the mkOverride and mkOrder around a value.
func stripOverride(v cty.Value) cty.Value {
	for {
		p, ok := property.AsProperty(v)
		if !ok || (p.Kind != property.KindOverride && p.Kind != property.KindOrder) {
			return v
		}
		v = p.Content
	}
}

// stripAll takes off every property around a value, mkIf too, to read
// where a lost definition would have set a key.
func stripAll(v cty.Value) cty.Value {
	for {
		p, ok := property.AsProperty(v)
		if !ok || p.Kind == property.KindMerge {
			return v
		}
		v = p.Content
	}
}

// explainFreeform explains key, an undeclared name below namespace n of
// the freeform instance inst (services.openssh.settings.PasswordAuthentication,
// where settings is a freeform submodule): the definitions of the
// instance's undeclared names that set it, as merging them with the
// freeform type decided. The explanation is a key of the option that holds
// the instance, of the freeform type; hops are the options on the way.
func (ev *Evaluator) explainFreeform(inst *instance, n *declare.Node, key options.Path, hops []hop) (*Explanation, hcl.Diagnostics) {
	rel := append(append(options.Path{}, n.Path...), key...)
	x := &Explanation{
		Path:     inst.fullPath(rel),
		KeyOf:    inst.loc,
		Type:     "freeform " + inst.st.Freeform.Description(),
		Declared: *inst.st.FreeformAt,
	}
	if len(hops) > 0 {
		h := hops[len(hops)-1]
		x.Description, _ = h.opt.Opt.TextsFor(h.inst.name)
	}
	v, diags := inst.freeformValue()
	if diags.HasErrors() {
		return nil, diags
	}
	v, d := property.Deep(v)
	if diags = append(diags, d...); diags.HasErrors() {
		return nil, diags
	}
	x.Value, x.Defined = v, true
	for i, k := range rel {
		parent := x.Value
		if isObject(parent) {
			x.Value, x.Defined = freeAttr(parent, k)
		}
		if !isObject(parent) || !x.Defined {
			// As for a key of an attrsOf option that is not set; a
			// misspelt option of the instance is did-you-mean'd.
			if i == len(n.Path) && didYouMean(k, n.Names) != "" {
				return nil, append(diags, ev.notExist(inst.fullPath(rel[:i+1]), n, k, hcl.Range{Filename: commandLine}, false))
			}
			return nil, append(diags, noKeyDiag(inst.fullPath(rel[:i]), k, inst.loc, parent))
		}
	}
	x.Definitions = keyDefinitions(inst.free.parts, false, rel)
	return x, diags
}
