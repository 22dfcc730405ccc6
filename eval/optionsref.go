package eval

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/lib"
)

// optionsRef is the `options` variable: the option tree itself, so that a
// module can ask `options.a.b.isDefined`.
type optionsRef struct {
	inst *instance
	n    *declNode
}

// Attr implements lib.Ref.
func (r *optionsRef) Attr(name string, rng hcl.Range) (cty.Value, bool, hcl.Diagnostics) {
	c := r.n.children[name]
	if c == nil {
		return cty.DynamicVal, false, hcl.Diagnostics{r.inst.ev.notExist(r.inst.fullPath(r.n.path).Child(name), r.n, name, rng, false)}
	}
	if c.rename != nil {
		if to := lookupDecl(r.inst.root, c.rename.to); to != nil {
			c = to
		}
	}
	if c.opt != nil {
		return lib.RefVal(&optionInfoRef{inst: r.inst, n: c}), true, nil
	}
	return lib.RefVal(&optionsRef{inst: r.inst, n: c}), true, nil
}

// Keys implements lib.Ref.
func (r *optionsRef) Keys() ([]string, hcl.Diagnostics) { return r.n.names, nil }

// Materialize implements lib.Ref. The option tree is not a value.
func (r *optionsRef) Materialize() (cty.Value, hcl.Diagnostics) {
	return cty.DynamicVal, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "options is not a value",
		Detail:   "Read one fact of one option, such as options.a.b.isDefined.",
	}}
}

// optionInfoRef is options.PATH: facts about one option.
type optionInfoRef struct {
	inst *instance
	n    *declNode
}

var optionFacts = []string{"isDefined", "value", "type", "description"}

// Attr implements lib.Ref.
func (r *optionInfoRef) Attr(name string, rng hcl.Range) (cty.Value, bool, hcl.Diagnostics) {
	switch name {
	case "isDefined":
		ok, diags := r.inst.isDefined(r.n)
		return cty.BoolVal(ok), true, diags
	case "value":
		v, diags := r.inst.value(r.n, rng)
		return v, true, diags
	case "type":
		return cty.StringVal(r.n.opt.typ.Description()), true, nil
	case "description":
		return cty.StringVal(r.n.opt.description), true, nil
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

// Keys implements lib.Ref.
func (r *optionInfoRef) Keys() ([]string, hcl.Diagnostics) { return optionFacts, nil }

// Materialize implements lib.Ref.
func (r *optionInfoRef) Materialize() (cty.Value, hcl.Diagnostics) {
	ok, diags := r.inst.isDefined(r.n)
	return cty.ObjectVal(map[string]cty.Value{
		"isDefined":   cty.BoolVal(ok),
		"type":        cty.StringVal(r.n.opt.typ.Description()),
		"description": cty.StringVal(r.n.opt.description),
	}), diags
}

// isDefined tells whether option n has a value: a default, or a definition
// that survives its mkIfs. Values are not evaluated, only conditions.
func (inst *instance) isDefined(n *declNode) (bool, hcl.Diagnostics) {
	if n.opt.defaultExpr != nil {
		return true, nil
	}
	defs, diags := inst.definitions(n)
	for _, d := range defs {
		live, dd := survives(d.Value, d.Range)
		diags = append(diags, dd...)
		if live {
			return true, diags
		}
	}
	return false, diags
}

// survives discharges mkMerge and mkIf at the top of a definition and says
// whether anything is left.
func survives(v cty.Value, rng hcl.Range) (bool, hcl.Diagnostics) {
	v, diags := lib.Shallow(v)
	p, ok := lib.AsProperty(v)
	if !ok {
		return !diags.HasErrors(), diags
	}
	switch p.Kind {
	case lib.PropIf:
		c, d := lib.Deep(p.Cond)
		diags = append(diags, d...)
		if d.HasErrors() || !c.IsKnown() || c.IsNull() || c.Type() != cty.Bool || c.False() {
			return false, diags
		}
		live, d := survives(p.Content, rng)
		return live, append(diags, d...)
	case lib.PropMerge:
		list, d := lib.Shallow(p.Contents)
		diags = append(diags, d...)
		if !list.IsKnown() || list.IsNull() || !list.CanIterateElements() {
			return false, diags
		}
		for it := list.ElementIterator(); it.Next(); {
			_, e := it.Element()
			live, d := survives(e, rng)
			diags = append(diags, d...)
			if live {
				return true, diags
			}
		}
		return false, diags
	default:
		return survives(p.Content, rng)
	}
}
