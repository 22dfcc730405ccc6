package eval

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval/internal/declare"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// optionsRef is the `options` variable: the option tree itself, so that a
// module can ask `options.a.b.isDefined`.
type optionsRef struct {
	inst *instance
	n    *declare.Node
}

// Attr implements property.Ref.
func (r *optionsRef) Attr(name string, rng hcl.Range) (cty.Value, bool, hcl.Diagnostics) {
	c := r.n.Children[name]
	if c == nil {
		return cty.DynamicVal, false, hcl.Diagnostics{r.inst.ev.notExist(r.inst.fullPath(r.n.Path).Child(name), r.n, name, rng, false)}
	}
	if c.Rename != nil {
		if to, rest := declare.RenameTarget(r.inst.root, c.Rename.To); to != nil && len(rest) == 0 {
			c = to
		}
	}
	if c.Opt != nil {
		return property.RefVal(&optionInfoRef{inst: r.inst, n: c}), true, nil
	}
	return property.RefVal(&optionsRef{inst: r.inst, n: c}), true, nil
}

// Keys implements property.Ref.
func (r *optionsRef) Keys() ([]string, hcl.Diagnostics) { return r.n.Names, nil }

// Materialize implements property.Ref. The option tree is not a value.
func (r *optionsRef) Materialize() (cty.Value, hcl.Diagnostics) {
	return cty.DynamicVal, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Options is not a value",
		Detail:   "Read one fact of one option, such as options.a.b.isDefined.",
	}}
}

// optionInfoRef is options.PATH: facts about one option.
type optionInfoRef struct {
	inst *instance
	n    *declare.Node
}

var optionFacts = []string{"isDefined", "value", "type", "description"}

// Attr implements property.Ref.
func (r *optionInfoRef) Attr(name string, rng hcl.Range) (cty.Value, bool, hcl.Diagnostics) {
	switch name {
	case "isDefined":
		ok, diags := r.inst.isDefined(r.n, rng)
		return cty.BoolVal(ok), true, diags
	case "value":
		v, diags := r.inst.value(r.n, rng)
		return v, true, diags
	case "type":
		return cty.StringVal(r.n.Opt.Type.Description()), true, nil
	case "description":
		description, _ := r.n.Opt.TextsFor(r.inst.name)
		return cty.StringVal(description), true, nil
	}
	detail := fmt.Sprintf("An option has the facts %v, not %q.", optionFacts, name)
	if s := didYouMean(name, optionFacts); s != "" {
		detail += fmt.Sprintf(" Did you mean %q?", s)
	}
	return cty.DynamicVal, false, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Unsupported attribute",
		Detail:   detail,
		Subject:  rng.Ptr(),
	}}
}

// Keys implements property.Ref.
func (r *optionInfoRef) Keys() ([]string, hcl.Diagnostics) { return optionFacts, nil }

// Materialize implements property.Ref.
func (r *optionInfoRef) Materialize() (cty.Value, hcl.Diagnostics) {
	ok, diags := r.inst.isDefined(r.n, r.n.Opt.Block.DefRange())
	description, _ := r.n.Opt.TextsFor(r.inst.name)
	return ctyelems.ObjectVal(map[string]cty.Value{
		"isDefined":   cty.BoolVal(ok),
		"type":        cty.StringVal(r.n.Opt.Type.Description()),
		"description": cty.StringVal(description),
	}), diags
}

// isDefined tells whether option n has a value: a default, or a definition
// that survives its mkIfs. Values are not evaluated, only conditions. ref
// is where it is asked (shown in evaluation chains).
func (inst *instance) isDefined(n *declare.Node, ref hcl.Range) (bool, hcl.Diagnostics) {
	if n.Opt.DefaultExpr != nil {
		return true, nil
	}
	inst.ev.push(frame{inst: inst, opt: n, fact: "isDefined", ref: ref})
	defer inst.ev.pop()
	defs, diags := inst.definitions(n)
	live, dd := survives(inst.fullPath(n.Path), defs)
	return live, append(diags, dd...)
}

// survives says whether any definition of the option at loc is left after
// its mkIfs (see lives).
func survives(loc options.Path, defs []defn) (bool, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	for _, d := range defs {
		live, dd := lives(loc, d.Def)
		diags = append(diags, dd...)
		if live {
			return true, diags
		}
	}
	return false, diags
}

// lives discharges one definition of the option at loc as merging it does
// (property.Decide) and says whether some part of it is left: the same
// answer, and the same errors, as the option's value gives.
func lives(loc options.Path, d options.Def) (bool, hcl.Diagnostics) {
	var dis property.Discharger
	dis.Add(d.Value, d.Range)
	return dis.Live() && !dis.HasErrors(), options.PropertyErrors(loc, &dis)
}
