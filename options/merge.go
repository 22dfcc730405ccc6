package options

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/lib"
)

// DefState says what became of a definition in MergeDefinitions.
type DefState uint8

// The definition states.
const (
	// Won: the definition has the winning priority and took part in the
	// merge.
	Won DefState = iota
	// Overridden: another definition has a lower priority number.
	Overridden
	// Disabled: an mkIf around the definition had a false condition.
	Disabled
)

// String returns "won", "overridden" or "disabled".
func (s DefState) String() string {
	switch s {
	case Won:
		return "won"
	case Overridden:
		return "overridden"
	case Disabled:
		return "disabled"
	}
	return fmt.Sprintf("DefState(%d)", uint8(s))
}

// DefResult is one definition after its properties were applied: one
// element of Merged.Defs.
type DefResult struct {
	// Def is the definition. For a Won one, Value is what was merged (with
	// its properties stripped, not a thunk at the top) and Range the
	// innermost range known for it. For an Overridden one, Value is the
	// definition without its mkOverride, unforced. For a Disabled one,
	// Value is the body of the false mkIf, never evaluated, and Range the
	// mkIf call.
	Def
	// Priority is the definition's priority (lib.PriorityPlain without
	// mkOverride), for Won and Overridden definitions.
	Priority int
	// Order is the definition's mkOrder (lib.OrderPlain without one), for
	// Won definitions.
	Order int
	State DefState
	// CondRange is where the false condition is written, for Disabled;
	// nil for the others.
	CondRange *hcl.Range
}

// Merged is the result of MergeDefinitions.
type Merged struct {
	// Value is the merged value; cty.NilVal when Defined is false, and
	// cty.DynamicVal after an error.
	Value cty.Value
	// Defined is whether some definition survived its mkIfs (it may have
	// failed to merge: see the diagnostics).
	Defined bool
	// Defs lists every definition, after mkMerge was expanded, in
	// definition order, with what became of it.
	Defs []DefResult
}

// MaxDepth bounds how deep MergeDefinitions follows a value (attribute
// sets inside attribute sets), so that a value that contains itself is an
// error rather than an endless merge.
const MaxDepth = 500

// MergeDefinitions merges the definitions of the option at loc with type t,
// as NixOS's mergeDefinitions does:
//
//  1. Each definition is forced to its top (lib.Shallow) and discharged:
//     mkMerge expands to its elements and mkIf to its body when its
//     condition (forced deeply; it must be a bool) is true; a definition
//     under a false mkIf is Disabled.
//  2. A top-level mkOverride gives the priority (lib.PriorityPlain
//     otherwise). Only the definitions with the lowest number are kept;
//     the others are Overridden, and are neither forced further nor
//     type-checked.
//  3. The kept definitions lose their mkOverride, then their mkOrder, which
//     gives their order (lib.OrderPlain otherwise); they are sorted stably
//     by order. A property that is out of NixOS's nesting order (mkIf or
//     mkMerge inside mkOverride, any property inside mkOrder) is an error.
//  4. t.Merge merges them.
//
// Without a surviving definition, Defined is false and Value is
// cty.NilVal, without an error: whether that is one is the caller's
// business (an option that is used but not defined). Unknown values
// (cty.DynamicVal, after an error reported elsewhere) propagate silently.
func MergeDefinitions(loc Path, t Type, defs []Def) (Merged, hcl.Diagnostics) {
	if len(loc) > MaxDepth {
		rng := hcl.Range{}
		if len(defs) > 0 {
			rng = lib.RangeOf(defs[0].Value, defs[0].Range)
		}
		return Merged{Value: cty.DynamicVal, Defined: true}, hcl.Diagnostics{errorAt(CodeType, loc[:8], rng,
			"value nested too deeply",
			fmt.Sprintf("A definition of option \"%s\" is nested more than %d levels deep; a value that contains itself (a local holding an object that refers to the local) never ends.",
				loc[:8].String(), MaxDepth))}
	}
	d := discharger{loc: loc, defs: make([]DefResult, 0, len(defs))}
	for _, def := range defs {
		d.add(def.Value, def.Range)
	}
	m := Merged{Defs: d.defs}
	if d.diags.HasErrors() {
		m.Value, m.Defined = cty.DynamicVal, true
		return m, d.diags
	}

	best, found := 0, false
	for _, r := range m.Defs {
		if r.State != Disabled && (!found || r.Priority < best) {
			best, found = r.Priority, true
		}
	}
	if !found {
		m.Value = cty.NilVal
		return m, d.diags
	}
	m.Defined = true

	var wonBuf [4]int
	won := wonBuf[:0]
	for i := range m.Defs {
		r := &m.Defs[i]
		switch {
		case r.State == Disabled:
		case r.Priority != best:
			r.State = Overridden
			if p, ok := lib.AsProperty(r.Value); ok && p.Kind == lib.PropOverride {
				r.Value, r.Range = p.Content, lib.RangeOf(p.Content, p.Range)
			}
		default:
			d.strip(r)
			won = append(won, i)
		}
	}
	if d.diags.HasErrors() {
		m.Value = cty.DynamicVal
		return m, d.diags
	}

	if len(won) > 1 {
		slices.SortStableFunc(won, func(a, b int) int { return m.Defs[a].Order - m.Defs[b].Order })
	}
	survivors := make([]Def, len(won))
	for i, w := range won {
		survivors[i] = m.Defs[w].Def
	}
	v, diags := t.Merge(loc, survivors)
	diags = append(d.diags, diags...)
	if diags.HasErrors() || v.Type() == cty.NilType {
		v = cty.DynamicVal
	}
	m.Value = v
	return m, diags
}

// discharger applies mkMerge and mkIf to definitions.
type discharger struct {
	loc   Path
	defs  []DefResult
	diags hcl.Diagnostics
}

// force forces v to its top and returns it with the innermost range known
// for it.
func (d *discharger) force(v cty.Value, rng hcl.Range) (cty.Value, hcl.Range) {
	rng = lib.RangeOf(v, rng)
	v, diags := lib.Shallow(v)
	d.diags = append(d.diags, diags...)
	return v, lib.RangeOf(v, rng)
}

// add discharges one definition, appending what it becomes to d.defs.
func (d *discharger) add(v cty.Value, rng hcl.Range) {
	v, rng = d.force(v, rng)
	p, ok := lib.AsProperty(v)
	if !v.IsKnown() || !ok || p.Kind == lib.PropOverride || p.Kind == lib.PropOrder {
		prio := lib.PriorityPlain
		if ok && p.Kind == lib.PropOverride {
			prio = p.Priority
		}
		d.defs = append(d.defs, DefResult{Def: Def{Value: v, Range: rng}, Priority: prio})
		return
	}
	switch p.Kind {
	case lib.PropMerge:
		list, _ := d.force(p.Contents, p.Range)
		switch {
		case !list.IsKnown():
			d.add(cty.DynamicVal, p.Range)
		case !isList(list):
			d.diags = append(d.diags, errorAt(CodeProperty, d.loc, p.Range,
				"mkMerge called with a non-list argument",
				fmt.Sprintf("In a definition of option \"%s\", mkMerge takes a list of definitions, but it was given %s.",
					d.loc.String(), showForced(list))))
		default:
			for it := list.ElementIterator(); it.Next(); {
				_, e := it.Element()
				d.add(e, p.Range)
			}
		}
	case lib.PropIf:
		c, diags := lib.Deep(p.Cond)
		d.diags = append(d.diags, diags...)
		switch {
		case !c.IsKnown():
			d.add(cty.DynamicVal, p.Range)
		case c.IsNull() || c.Type() != cty.Bool:
			d.diags = append(d.diags, errorAt(CodeCondition, d.loc, p.CondRange,
				"mkIf called with a non-boolean condition",
				fmt.Sprintf("In a definition of option \"%s\", the condition of mkIf is %s; it must be true or false.",
					d.loc.String(), ShowValue(c))))
		case c.True():
			d.add(p.Content, p.Range)
		default:
			d.defs = append(d.defs, DefResult{
				Def:       Def{Value: p.Content, Range: p.Range},
				State:     Disabled,
				CondRange: p.CondRange.Ptr(),
			})
		}
	}
}

// strip removes the mkOverride and mkOrder at the top of a winning
// definition, sets its order and forces what they wrap. A property where
// NixOS's order allows none is an error.
func (d *discharger) strip(r *DefResult) {
	v, rng := r.Value, r.Range
	if p, ok := lib.AsProperty(v); ok && p.Kind == lib.PropOverride {
		v, rng = d.force(p.Content, p.Range)
		if q, ok := lib.AsProperty(v); ok && q.Kind != lib.PropOrder {
			d.diags = append(d.diags, nestingError(d.loc, q, lib.PropOverride))
			return
		}
	}
	r.Order = lib.OrderPlain
	if p, ok := lib.AsProperty(v); ok && p.Kind == lib.PropOrder {
		r.Order = p.Order
		v, rng = d.force(p.Content, p.Range)
		if q, ok := lib.AsProperty(v); ok {
			d.diags = append(d.diags, nestingError(d.loc, q, lib.PropOrder))
			return
		}
	}
	r.Value, r.Range = v, rng
}
