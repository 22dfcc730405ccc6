package options

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/property"
)

// Merged is the result of MergeDefinitions.
type Merged struct {
	// Value is the merged value; cty.NilVal when Defined is false, and
	// cty.DynamicVal after an error.
	Value cty.Value
	// Defined is whether some definition survived its mkIfs (it may have
	// failed to merge: see the diagnostics).
	Defined bool
	// Defs lists every definition, after mkMerge was expanded, in
	// definition order, with what became of it: property.Won (merged,
	// Value without its properties, Order set), Overridden or Disabled.
	Defs []property.Part
}

// MaxDepth bounds how deep MergeDefinitions follows a value (attribute
// sets inside attribute sets), so that a value that contains itself is an
// error rather than an endless merge.
const MaxDepth = 500

// MergeDefinitions merges the definitions of the option at loc with type t,
// as NixOS's mergeDefinitions (lib/modules.nix) does, in its steps:
//
//  1. dischargeProperties: each definition is forced to its top and
//     discharged (property.Discharger, in Decide mode): mkMerge expands to
//     its elements and mkIf to its body when its condition (forced
//     deeply; it must be a bool) is true; a definition under a false mkIf
//     is Disabled.
//  2. filterOverrides: a top-level mkOverride gives the priority
//     (property.PriorityPlain otherwise). Only the definitions with the
//     lowest number are kept (Discharger.Override); the others are
//     Overridden, and are neither forced further nor type-checked.
//  3. sortProperties: the kept definitions (defsFinal) lose their
//     mkOverride, then their mkOrder, which gives their order
//     (property.OrderPlain otherwise); they are sorted stably by order. A
//     property that is out of NixOS's nesting order (mkIf or mkMerge
//     inside mkOverride, any property inside mkOrder) is an error.
//  4. mergedValue: t.Merge merges them.
//
// Without a surviving definition (isDefined false), Defined is false and
// Value is cty.NilVal, without an error: whether that is one is the
// caller's business (an option that is used but not defined). Unknown
// values (cty.DynamicVal, after an error reported elsewhere) propagate
// silently.
func MergeDefinitions(loc Path, t Type, defs []Def) (Merged, hcl.Diagnostics) {
	return mergeDefinitions(loc, t, defs, nil, nil)
}

// Merger merges the definitions of the options of one evaluation, as
// MergeDefinitions does, bounded by one budget. The zero Merger is ready
// to use; a Merger is not safe for concurrent use.
type Merger struct {
	// Budget, when set, bounds the work of the merges and of those of
	// their attributes and elements.
	Budget Budget
	// room is where the merges' parts and survivors are made, a block at
	// a time.
	room room
}

// MergeDefinitions is the package's MergeDefinitions, bounded by the
// Merger's budget.
func (m *Merger) MergeDefinitions(loc Path, t Type, defs []Def) (Merged, hcl.Diagnostics) {
	return mergeDefinitions(loc, t, defs, &m.room, m.Budget)
}

// mergeDefinitions is MergeDefinitions making the parts and survivors in r
// (nil: allocated for this merge), bounded by budget (nil: that of the
// definitions).
func mergeDefinitions(loc Path, t Type, defs []Def, r *room, budget Budget) (Merged, hcl.Diagnostics) {
	if budget == nil && len(defs) > 0 {
		budget = defs[0].budget
	}
	if d := checkMerge(loc, defs, budget); d != nil {
		return Merged{Value: cty.DynamicVal, Defined: true}, hcl.Diagnostics{d}
	}
	// A single definition (most options have one, or only a default) has
	// its part and its survivor in one allocation.
	var single *singleDef
	if r == nil && len(defs) == 1 {
		single = new(singleDef)
	}

	// defsFinal': mkMerge and mkIf, then mkOverride.
	d := property.Discharger{Parts: partsFor(len(defs), r, single)}
	dischargeProperties(&d, defs)
	m := Merged{Defs: d.Parts}
	if d.HasErrors() {
		m.Value, m.Defined = cty.DynamicVal, true
		return m, PropertyErrors(loc, &d)
	}
	if !filterOverrides(&d) {
		m.Value = cty.NilVal // isDefined = false
		return m, d.Diags
	}
	m.Defined = true

	// defsFinal: the definitions kept, by their mkOrder.
	var wonBuf [4]int
	won, diags := sortProperties(loc, m.Defs, d.Diags, wonBuf[:0])
	if diags.HasErrors() {
		m.Value = cty.DynamicVal
		return m, diags
	}

	// mergedValue.
	survivors := survivorsFor(len(won), r, single)
	for i, w := range won {
		survivors[i] = Def{Value: m.Defs[w].Value, Range: m.Defs[w].Range, budget: budget}
	}
	v, merged := t.Merge(loc, survivors)
	if len(won) > 1 {
		adviseOnPriority(loc, m.Defs[won[0]].Priority, merged)
	}
	diags = append(diags, merged...)
	if diags.HasErrors() || v.Type() == cty.NilType {
		v = cty.DynamicVal
	}
	m.Value = v
	return m, diags
}

// checkMerge is the error of a merge that may not start: the budget is
// spent, or the value is nested deeper than MaxDepth.
func checkMerge(loc Path, defs []Def, budget Budget) *hcl.Diagnostic {
	if budget != nil && len(defs) > 0 {
		if d := budget.Spend(0, property.RangeOf(defs[0].Value, defs[0].Range)); d != nil {
			return d
		}
	}
	if len(loc) > MaxDepth {
		rng := hcl.Range{}
		if len(defs) > 0 {
			rng = property.RangeOf(defs[0].Value, defs[0].Range)
		}
		return errorAt(CodeType, loc[:8], rng,
			"Value nested too deeply",
			fmt.Sprintf("A definition of option \"%s\" is nested more than %d levels deep; a value that contains itself (a local holding an object that refers to the local) never ends.",
				loc[:8].String(), MaxDepth))
	}
	return nil
}

// dischargeProperties adds the definitions to d, which expands their
// mkMerge and decides their mkIf (modules.nix's dischargeProperties).
func dischargeProperties(d *property.Discharger, defs []Def) {
	for _, def := range defs {
		d.Add(def.Value, def.Range)
	}
}

// filterOverrides keeps the definitions of the highest priority
// (modules.nix's filterOverrides) and reports whether any is left.
func filterOverrides(d *property.Discharger) bool { return d.Override() }

// sortProperties takes the mkOverride and mkOrder off the winning parts
// and returns their indexes in won, sorted stably by order (modules.nix's
// sortProperties), with diags and the errors of properties out of
// NixOS's nesting order.
func sortProperties(loc Path, parts []property.Part, diags hcl.Diagnostics, won []int) ([]int, hcl.Diagnostics) {
	st := stripper{loc: loc, diags: diags}
	for i := range parts {
		if r := &parts[i]; r.State == property.Won {
			st.strip(r)
			won = append(won, i)
		}
	}
	if st.diags.HasErrors() {
		return won, st.diags
	}
	if len(won) > 1 {
		slices.SortStableFunc(won, func(a, b int) int { return parts[a].Order - parts[b].Order })
	}
	return won, st.diags
}

// singleDef is the room MergeDefinitions needs for a single definition.
type singleDef struct {
	part     [1]property.Part
	survivor [1]Def
}

// partsFor is an empty slice with room for the parts of n definitions:
// from r, or single's, or allocated.
func partsFor(n int, r *room, single *singleDef) []property.Part {
	switch {
	case r != nil:
		return r.parts(n)
	case single != nil:
		return single.part[:0:1]
	}
	return make([]property.Part, 0, n)
}

// survivorsFor is a slice of n zero survivors: from r, or single's (when
// there is at most one), or allocated.
func survivorsFor(n int, r *room, single *singleDef) []Def {
	switch {
	case r != nil:
		return r.survivors(n)
	case single != nil && n <= 1:
		return single.survivor[:n:n]
	}
	return make([]Def, n)
}

// room is memory for the parts and the survivors of many merges, and for
// the paths of the keys they merge under, allocated a block at a time
// rather than merge by merge. What a merge takes stays its own:
// Merged.Defs holds the parts, and a type's Merge may keep the survivors.
// The zero room is ready to use; a room is not safe for concurrent use.
type room struct {
	partBlock     []property.Part
	survivorBlock []Def
	segBlock      []string // the segments of the paths of child (nil room: none)
	// size is how many parts or survivors a new block holds, at least,
	// and paths how many paths a new block of segments holds; zero means
	// defaultRoomBlock.
	size, paths int
}

// defaultRoomBlock is how many parts or survivors a block of a room holds
// unless the room says otherwise.
const defaultRoomBlock = 64

// newRoom returns a room whose first blocks hold n parts and n survivors,
// and whose blocks of segments hold paths paths: enough for merges of n
// definitions in all under paths keys, made in a row.
func newRoom(n, paths int) *room {
	return &room{partBlock: make([]property.Part, 0, n), survivorBlock: make([]Def, 0, n), size: n, paths: paths}
}

// parts returns an empty slice with room for n parts.
func (r *room) parts(n int) []property.Part {
	return reserve(&r.partBlock, n, r.blockSize())[:0]
}

// survivors returns a slice of n zero survivors.
func (r *room) survivors(n int) []Def {
	return reserve(&r.survivorBlock, n, r.blockSize())
}

// child returns loc.Child(seg), its segments in the room's block when r
// is not nil. Paths are not changed in place, so they may share a block.
func (r *room) child(loc Path, seg string) Path {
	if r == nil {
		return loc.Child(seg)
	}
	p := r.segments(len(loc) + 1)
	copy(p, loc)
	p[len(loc)] = seg
	return p
}

// segments returns a path of n empty segments from the block, its
// capacity cut so that an append copies it.
func (r *room) segments(n int) Path {
	paths := r.paths
	if paths == 0 {
		paths = defaultRoomBlock
	}
	return reserve(&r.segBlock, n, n*paths)
}

// reserve hands out the next n elements of *block, zero, their capacity
// cut so that an append copies them; when the block has less room left, a
// new one of max(n, size) elements takes its place.
func reserve[T any](block *[]T, n, size int) []T {
	if cap(*block)-len(*block) < n {
		*block = make([]T, 0, max(n, size))
	}
	at := len(*block)
	*block = (*block)[:at+n]
	return (*block)[at : at+n : at+n]
}

func (r *room) blockSize() int {
	if r.size > 0 {
		return r.size
	}
	return defaultRoomBlock
}

// PropertyErrors returns the diagnostics of discharging definitions of the
// option (or namespace) at loc: d.Diags, with the problems d met in their
// places. It is the one message of an ill-formed property, whoever meets
// it.
func PropertyErrors(loc Path, d *property.Discharger) hcl.Diagnostics {
	if len(d.Problems) == 0 {
		return d.Diags
	}
	out := make(hcl.Diagnostics, 0, len(d.Diags)+len(d.Problems))
	next := 0
	for _, p := range d.Problems {
		out = append(append(out, d.Diags[next:p.At]...), propertyError(loc, p))
		next = p.At
	}
	return append(out, d.Diags[next:]...)
}

// propertyError is the diagnostic of an ill-formed property.
func propertyError(loc Path, p property.Problem) *hcl.Diagnostic {
	if p.Kind == property.NonBool {
		return errorAt(CodeCondition, loc, p.Property.CondRange,
			"mkIf called with a non-boolean condition",
			fmt.Sprintf("In a definition of option \"%s\", the condition of mkIf is %s; it must be true or false.",
				loc.String(), ShowValue(p.Value)))
	}
	return errorAt(CodeProperty, loc, p.Property.Range,
		"mkMerge called with a non-list argument",
		fmt.Sprintf("In a definition of option \"%s\", mkMerge takes a list of definitions, but it was given %s.",
			loc.String(), showForced(p.Value)))
}

// stripper takes the mkOverride and mkOrder off winning definitions.
type stripper struct {
	loc   Path
	diags hcl.Diagnostics
}

// force forces v to its top and returns it with the innermost range known
// for it.
func (d *stripper) force(v cty.Value, rng hcl.Range) (cty.Value, hcl.Range) {
	rng = property.RangeOf(v, rng)
	v, diags := property.Shallow(v)
	d.diags = append(d.diags, diags...)
	return v, property.RangeOf(v, rng)
}

// strip removes the mkOverride and mkOrder at the top of a winning
// definition, sets its order and forces what they wrap. A property where
// NixOS's order allows none is an error.
func (d *stripper) strip(r *property.Part) {
	v, rng := r.Value, r.Range
	if p, ok := property.AsProperty(v); ok && p.Kind == property.KindOverride {
		v, rng = d.force(p.Content, p.Range)
		if q, ok := property.AsProperty(v); ok && q.Kind != property.KindOrder {
			d.diags = append(d.diags, nestingError(d.loc, q, property.KindOverride))
			return
		}
	}
	r.Order = property.OrderPlain
	if p, ok := property.AsProperty(v); ok && p.Kind == property.KindOrder {
		r.Order = p.Order
		v, rng = d.force(p.Content, p.Range)
		if q, ok := property.AsProperty(v); ok {
			d.diags = append(d.diags, nestingError(d.loc, q, property.KindOrder))
			return
		}
	}
	r.Value, r.Range = v, rng
}
