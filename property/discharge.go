package property

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Mode says what a Discharger does with mkIf, mkOverride and mkOrder.
type Mode uint8

// The modes.
const (
	// Decide evaluates the condition of every mkIf and drops what a false
	// one holds; mkOverride and mkOrder stay on the part that they wrap,
	// which is kept with mkOverride's priority. This is NixOS's
	// dischargeProperties, what merging an option's definitions does.
	Decide Mode = iota
	// PushDown decides no condition: mkIf, mkOverride and mkOrder are taken
	// off and listed in the part's Wrap, to be put back around each of its
	// attributes. This is NixOS's pushDownProperties, what splitting a
	// definition over a namespace does.
	PushDown
)

// State says what became of a part of a definition.
type State uint8

// The states.
const (
	// Won: the part takes part in the merge, at its Priority. Before
	// Override, every part that survived its mkIfs has won.
	Won State = iota
	// Overridden: another part has a lower priority number (Override).
	Overridden
	// Disabled: the part is under an mkIf whose condition (at Cond) is
	// false.
	Disabled
	// Waiting: the part is a thunk (or an mkMerge whose list is one) that
	// the Forcer would not force now.
	Waiting
)

// String returns "won", "overridden", "disabled" or "waiting".
func (s State) String() string {
	switch s {
	case Won:
		return "won"
	case Overridden:
		return "overridden"
	case Disabled:
		return "disabled"
	}
	return "waiting"
}

// Part is one part of a definition after mkMerge was expanded and, in
// Decide mode, mkIf decided.
type Part struct {
	// Value is the part: forced to its top (for Won), without its mkIf
	// and mkMerge (in Decide mode it may still be an mkOverride or an
	// mkOrder, which the merge then strips). For an Overridden part, the
	// part without its mkOverride, unforced; for a Disabled one, the body
	// of the false mkIf, never evaluated. Range is the innermost source
	// range known for it (for a Disabled part, the mkIf call).
	Value cty.Value
	Range hcl.Range
	// Wrap lists the properties taken off above the part in PushDown mode,
	// outermost first. The slice may be shared: do not change it.
	Wrap []*Property
	// Priority is mkOverride's priority when Value is one (Decide mode),
	// else PriorityPlain; 0 for a Disabled part.
	Priority int
	// Order is the part's mkOrder (OrderPlain without one), for a Won
	// part once the merge has taken its properties off; else 0.
	Order int
	State State
	// Cond is where the false condition of a Disabled part is written; nil
	// for the other parts.
	Cond *hcl.Range
	// Index is the part's place in the mkMerge lists it came through,
	// outermost first, when the Discharger tracks it (Indexed); nil
	// outside any.
	Index []int
}

// ProblemKind says what is wrong with an ill-formed property.
type ProblemKind uint8

// The problems.
const (
	// NonBool: the condition of an mkIf is not true or false.
	NonBool ProblemKind = iota + 1
	// NonList: the argument of mkMerge is not a list.
	NonList
)

// Problem is an ill-formed property met while discharging a definition.
type Problem struct {
	Kind ProblemKind
	// Property is the mkIf or mkMerge.
	Property *Property
	// Value is its condition (forced deeply) or its argument (forced to its
	// top).
	Value cty.Value
	// At is where its diagnostic goes in the Discharger's Diags: before
	// Diags[At], after the diagnostics of forcing what came before.
	At int
}

// Forcer forces one step of a thunk for a Discharger. ok is false when the
// thunk must not be forced now (v is then ignored); the part waits.
type Forcer func(Lazy) (v cty.Value, ok bool, diags hcl.Diagnostics)

// Discharger takes definitions apart: Add appends the parts of one
// definition to Parts. It is the one place where the properties of a
// definition are applied; merging, splitting, isDefined and `nodegen
// option` all use it.
type Discharger struct {
	Mode Mode
	// Force forces thunks; nil forces every thunk.
	Force Forcer
	// Indexed says to set Part.Index.
	Indexed bool

	// Parts are the parts of the definitions added, in order: Add
	// appends to it. A caller may give it a buffer, or parts of its own
	// to append after (Live and Override then see those too).
	Parts []Part
	// Problems are the ill-formed properties met, with no part for them;
	// the caller turns them into diagnostics (the same ones whoever asks:
	// options.PropertyErrors).
	Problems []Problem
	// Diags are the diagnostics of forcing thunks and conditions.
	Diags hcl.Diagnostics
}

// HasErrors reports whether discharging met an error: a diagnostic or a
// problem.
func (d *Discharger) HasErrors() bool { return len(d.Problems) > 0 || d.Diags.HasErrors() }

// Add discharges the definition v, written at rng.
func (d *Discharger) Add(v cty.Value, rng hcl.Range) { d.add(v, rng, nil, nil) }

// force forces v to its top and returns it with the innermost range known
// for it, and the property it is if it is one; ok is false when the Forcer
// would not force it.
func (d *Discharger) force(v cty.Value, rng hcl.Range) (cty.Value, hcl.Range, *Property, bool) {
	l, lazy := AsLazy(v)
	if !lazy {
		p, isProp := AsProperty(v)
		if isProp {
			rng = p.Range
		}
		return v, rng, p, true
	}
	rng = l.Range()
	for lazy {
		var diags hcl.Diagnostics
		if d.Force == nil {
			v, diags = l.Force()
		} else {
			fv, forced, fd := d.Force(l)
			if !forced {
				return v, rng, nil, false
			}
			v, diags = fv, fd
		}
		d.Diags = append(d.Diags, diags...)
		l, lazy = AsLazy(v)
	}
	p, isProp := AsProperty(v)
	if isProp {
		rng = p.Range
	}
	return v, rng, p, true
}

func (d *Discharger) problem(kind ProblemKind, p *Property, v cty.Value) {
	d.Problems = append(d.Problems, Problem{Kind: kind, Property: p, Value: v, At: len(d.Diags)})
}

func (d *Discharger) add(v cty.Value, rng hcl.Range, wrap []*Property, index []int) {
	v, rng, p, ok := d.force(v, rng)
	if !ok {
		d.Parts = append(d.Parts, Part{Value: v, Range: rng, Wrap: wrap, Priority: PriorityPlain, State: Waiting, Index: index})
		return
	}
	isProp := p != nil
	if !v.IsKnown() || !isProp || (d.Mode == Decide && (p.Kind == KindOverride || p.Kind == KindOrder)) {
		prio := PriorityPlain
		if isProp && p.Kind == KindOverride {
			prio = p.Priority
		}
		d.Parts = append(d.Parts, Part{Value: v, Range: rng, Wrap: wrap, Priority: prio, Index: index})
		return
	}
	switch {
	case p.Kind == KindMerge:
		list, _, _, ok := d.force(p.Contents, p.Range)
		switch {
		case !ok:
			d.Parts = append(d.Parts, Part{Value: v, Range: rng, Wrap: wrap, Priority: PriorityPlain, State: Waiting, Index: index})
		case !list.IsKnown():
			d.add(cty.DynamicVal, p.Range, wrap, index)
		case list.IsNull() || !(list.Type().IsTupleType() || list.Type().IsListType()):
			d.problem(NonList, p, list)
		default:
			i := 0
			for it := list.ElementIterator(); it.Next(); i++ {
				_, e := it.Element()
				sub := index
				if d.Indexed {
					sub = appendIndex(index, i)
				}
				d.add(e, p.Range, wrap, sub)
			}
		}
	case p.Kind == KindIf && d.Mode == Decide:
		c, diags := Deep(p.Cond)
		d.Diags = append(d.Diags, diags...)
		switch {
		case !c.IsKnown():
			d.add(cty.DynamicVal, p.Range, wrap, index)
		case c.IsNull() || c.Type() != cty.Bool:
			d.problem(NonBool, p, c)
		case c.True():
			d.add(p.Content, p.Range, wrap, index)
		default:
			d.Parts = append(d.Parts, Part{Value: p.Content, Range: p.Range, Wrap: wrap, State: Disabled, Cond: &p.CondRange, Index: index})
		}
	default:
		// PushDown: the property goes around each attribute of what it
		// holds.
		d.add(p.Content, p.Range, append(wrap[:len(wrap):len(wrap)], p), index)
	}
}

func appendIndex(index []int, i int) []int {
	out := make([]int, len(index)+1)
	copy(out, index)
	out[len(index)] = i
	return out
}

// Live reports whether some part of the definitions added so far is not
// Disabled: whether the option they define is defined.
func (d *Discharger) Live() bool {
	for _, p := range d.Parts {
		if p.State != Disabled {
			return true
		}
	}
	return false
}

// Override keeps the parts with the lowest priority number, as NixOS's
// filterOverrides does: the other parts that survived their mkIfs become
// Overridden, and lose their mkOverride (what it holds is not forced). It
// reports whether any part is left to merge.
func (d *Discharger) Override() bool {
	if len(d.Parts) == 1 {
		return d.Parts[0].State != Disabled
	}
	best, found := 0, false
	for _, p := range d.Parts {
		if p.State != Disabled && (!found || p.Priority < best) {
			best, found = p.Priority, true
		}
	}
	for i := range d.Parts {
		p := &d.Parts[i]
		if p.State == Disabled || p.Priority == best {
			continue
		}
		p.State = Overridden
		if q, ok := AsProperty(p.Value); ok && q.Kind == KindOverride {
			p.Value, p.Range = q.Content, RangeOf(q.Content, q.Range)
		}
	}
	return found
}
