package options

import (
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/property"
)

// This file holds the types built from other types.

// checkAll reports a type error for each definition that t's shallow check
// rejects, and returns false if there was one.
func checkAll(loc Path, t Type, defs []Def) (bool, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	for _, d := range defs {
		if !accepts(t, d.Value) {
			diags = append(diags, typeError(loc, t, d))
		}
	}
	return !diags.HasErrors(), diags
}

// ListOf is the type listOf(Elem): a list whose elements are of type Elem.
// Definitions concatenate, in the order MergeDefinitions sorted them.
type ListOf struct{ Elem Type }

// Description returns "list of ELEM".
func (t ListOf) Description() string {
	return "list of " + phrase(t.Elem, classNoun, classComposite)
}
func (ListOf) descriptionClass() class { return classComposite }
func (ListOf) check(v cty.Value) bool  { return isList(v) }

// Merge concatenates the definitions. Each element is merged on its own
// with MergeDefinitions, at the path "[definition N-entry M]" under loc,
// as in NixOS, so an element under a false mkIf disappears and an element
// of the wrong type is named in the error.
func (t ListOf) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	unknown := false
	var out []cty.Value
	var room *room
	total := listElems(defs)
	if d := spend(defs, total); d != nil {
		return cty.DynamicVal, hcl.Diagnostics{d}
	}
	if total > 1 {
		room = newRoom(total, total)
	}
	for n, d := range defs {
		switch {
		case !d.Value.IsKnown():
			unknown = true
			continue
		case !isList(d.Value):
			diags = append(diags, typeError(loc, t, d))
			continue
		}
		for m, e := range ctyelems.Elems(d.Value) {
			r, ds := mergeDefinitions(room.child(loc, "[definition "+strconv.Itoa(n+1)+"-entry "+strconv.Itoa(m+1)+"]"), t.Elem,
				[]Def{{Value: e, Range: property.RangeOf(e, d.Range), budget: d.budget}}, room, nil)
			diags = append(diags, ds...)
			if r.Defined {
				out = append(out, r.Value)
			}
		}
	}
	if len(out) == 0 {
		return unknownOr(cty.EmptyTupleVal, diags, unknown), diags
	}
	return unknownOr(ctyelems.TupleVal(out), diags, unknown), diags
}

// listElems is how many elements the known lists among defs hold.
func listElems(defs []Def) int {
	n := 0
	for _, d := range defs {
		if d.Value.IsKnown() && isList(d.Value) {
			n += d.Value.LengthInt()
		}
	}
	return n
}

// AttrsOf is the type attrsOf(Elem): an attribute set whose values are of
// type Elem. Definitions merge key by key.
type AttrsOf struct{ Elem Type }

// Description returns "attribute set of ELEM".
func (t AttrsOf) Description() string {
	return "attribute set of " + phrase(t.Elem, classNoun, classComposite)
}
func (AttrsOf) descriptionClass() class { return classComposite }
func (AttrsOf) check(v cty.Value) bool  { return isAttrSet(v) }

// Merge merges each key's values, taken from every definition in order,
// with MergeDefinitions at loc.Child(key). A key whose definitions all
// vanish (mkIf false) is absent from the result.
func (t AttrsOf) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	return mergeByKey(loc, t, t.Elem, defs)
}

// mergeByKey is the merge of attrsOf(elem), and of anything's attribute
// sets; t is the type for messages.
func mergeByKey(loc Path, t, elem Type, defs []Def) (cty.Value, hcl.Diagnostics) {
	groups, unknown, diags := attrsByKey(loc, t, defs)
	if d := spend(defs, len(groups)); d != nil {
		return cty.DynamicVal, append(diags, d)
	}
	out := make(map[string]cty.Value, len(groups))
	var room *room
	if len(groups) > 1 {
		total := 0
		for _, g := range groups {
			total += len(g.defs)
		}
		room = newRoom(total, len(groups))
	}
	for _, g := range groups {
		r, ds := mergeDefinitions(room.child(loc, g.key), elem, g.defs, room, nil)
		diags = append(diags, ds...)
		if r.Defined {
			out[g.key] = r.Value
		}
	}
	if len(out) == 0 {
		return unknownOr(cty.EmptyObjectVal, diags, unknown), diags
	}
	return unknownOr(ctyelems.ObjectVal(out), diags, unknown), diags
}

// spend charges the budget of defs (that of the first) for a value of n
// attributes or elements that a merge of them makes.
func spend(defs []Def, n int) *hcl.Diagnostic {
	if len(defs) == 0 || defs[0].budget == nil {
		return nil
	}
	return defs[0].budget.Spend(n, property.RangeOf(defs[0].Value, defs[0].Range))
}

// keyDefs are the definitions of one key of attribute sets, in
// definition order.
type keyDefs struct {
	key  string
	defs []Def
}

// attrsByKey collects the attributes of attribute-set definitions: for
// each key, in key order, its values in definition order. A definition
// that is not an attribute set is a type error of t; unknown says whether
// one was unknown (an error reported elsewhere). The groups share one
// slice of definitions rather than a map of slices.
func attrsByKey(loc Path, t Type, defs []Def) (groups []keyDefs, unknown bool, diags hcl.Diagnostics) {
	// the attributes of each attribute set, with its range
	type setAttrs struct {
		attrs  []attr
		rng    hcl.Range
		budget Budget
	}
	var buf [4]setAttrs
	sets := buf[:0]
	total := 0
	for _, d := range defs {
		switch {
		case !d.Value.IsKnown():
			unknown = true
			continue
		case !isAttrSet(d.Value):
			diags = append(diags, typeError(loc, t, d))
			continue
		}
		attrs, ds := attributes(d.Value, d.Range)
		diags = append(diags, ds...)
		sets = append(sets, setAttrs{attrs, d.Range, d.budget})
		total += len(attrs)
	}
	// Every attribute by its place (set, attribute), sorted stably by key:
	// a key's definitions stay in definition order.
	type place struct{ set, attr int32 }
	at := make([]place, 0, total)
	for i, s := range sets {
		for j := range s.attrs {
			at = append(at, place{int32(i), int32(j)})
		}
	}
	key := func(p place) string { return sets[p.set].attrs[p.attr].name }
	slices.SortStableFunc(at, func(a, b place) int { return strings.Compare(key(a), key(b)) })
	flat := make([]Def, len(at))
	groups = make([]keyDefs, 0, len(at))
	start := 0
	for i, p := range at {
		a := sets[p.set].attrs[p.attr]
		flat[i] = Def{Value: a.value, Range: property.RangeOf(a.value, sets[p.set].rng), budget: sets[p.set].budget}
		if i+1 == len(at) || key(at[i+1]) != a.name {
			groups = append(groups, keyDefs{key: a.name, defs: flat[start : i+1 : i+1]})
			start = i + 1
		}
	}
	return groups, unknown, diags
}

// NullOr is the type nullOr(Elem): null, or a value of type Elem.
type NullOr struct{ Elem Type }

// Description returns "null or ELEM".
func (t NullOr) Description() string {
	return "null or " + phrase(t.Elem, classNoun, classConjunction)
}
func (NullOr) descriptionClass() class  { return classConjunction }
func (t NullOr) check(v cty.Value) bool { return v.IsNull() || accepts(t.Elem, v) }

// Merge gives null if every definition is null, and Elem's merge if none
// is; a mix is a conflict.
func (t NullOr) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	ok, diags := checkAll(loc, t, defs)
	if !ok {
		return cty.DynamicVal, diags
	}
	nulls, unknown := 0, false
	for _, d := range defs {
		switch {
		case !d.Value.IsKnown():
			unknown = true
		case d.Value.IsNull():
			nulls++
		}
	}
	switch {
	case nulls == len(defs):
		return cty.NullVal(cty.DynamicPseudoType), nil
	case nulls > 0 && unknown:
		return cty.DynamicVal, nil
	case nulls > 0:
		return cty.DynamicVal, hcl.Diagnostics{conflictError(loc, t, defs, "some of them are null and others are not")}
	}
	return t.Elem.Merge(loc, defs)
}

// Either is the type either(A, B): a value of type A or of type B.
type Either struct{ A, B Type }

// Description returns "A or B", with NixOS's parentheses.
func (t Either) Description() string {
	return eitherDescription(t.A.Description(), classOf(t.A), t.B)
}
func (Either) descriptionClass() class  { return classConjunction }
func (t Either) check(v cty.Value) bool { return accepts(t.A, v) || accepts(t.B, v) }

// Merge uses A's merge if A accepts every definition, else B's if B does.
func (t Either) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	return mergeAlternatives(loc, t, []Type{t.A, t.B}, defs)
}

// eitherDescription describes either(a, b) where a's description and
// class are given (so that oneOf can fold).
func eitherDescription(a string, ac class, b Type) string {
	if ac == classClause {
		return a + ", or " + phrase(b, classNoun, classConjunction)
	}
	if ac != classNoun && ac != classConjunction {
		a = "(" + a + ")"
	}
	return a + " or " + phrase(b, classNoun, classConjunction, classComposite)
}

// mergeAlternatives merges with the first of alts that accepts every
// definition (by its shallow check).
func mergeAlternatives(loc Path, t Type, alts []Type, defs []Def) (cty.Value, hcl.Diagnostics) {
	ok, diags := checkAll(loc, t, defs)
	if !ok {
		return cty.DynamicVal, diags
	}
	for _, alt := range alts {
		all := true
		for _, d := range defs {
			if !accepts(alt, d.Value) {
				all = false
				break
			}
		}
		if all {
			return alt.Merge(loc, defs)
		}
	}
	return cty.DynamicVal, hcl.Diagnostics{conflictError(loc, t, defs,
		"each of them is of one of the alternatives, but no single alternative accepts all of them")}
}

// OneOf is the type oneOf([...]): a value of one of Alts. It is NixOS's
// fold of either over the list, so it describes itself as "A or B or C".
type OneOf struct{ Alts []Type }

// Description returns "A or B or C", with NixOS's parentheses.
func (t OneOf) Description() string {
	if len(t.Alts) == 0 {
		return "impossible (empty oneOf)"
	}
	d, c := t.Alts[0].Description(), classOf(t.Alts[0])
	for _, b := range t.Alts[1:] {
		d, c = eitherDescription(d, c, b), classConjunction
	}
	return d
}

func (t OneOf) descriptionClass() class {
	if len(t.Alts) == 1 {
		return classOf(t.Alts[0])
	}
	return classConjunction
}

func (t OneOf) check(v cty.Value) bool {
	for _, a := range t.Alts {
		if accepts(a, v) {
			return true
		}
	}
	return false
}

// Merge uses the merge of the first alternative that accepts every
// definition.
func (t OneOf) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	return mergeAlternatives(loc, t, t.Alts, defs)
}

// Uniq is the type uniq(Elem): a value of type Elem that only one
// definition may give (after priorities: a mkForce over a default is fine).
type Uniq struct{ Elem Type }

// Description returns Elem's description, as NixOS does.
func (t Uniq) Description() string     { return t.Elem.Description() }
func (t Uniq) descriptionClass() class { return classOf(t.Elem) }
func (t Uniq) check(v cty.Value) bool  { return accepts(t.Elem, v) }

// Merge rejects more than one definition, and otherwise uses Elem's merge.
func (t Uniq) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	ok, diags := checkAll(loc, t, defs)
	if !ok {
		return cty.DynamicVal, diags
	}
	if len(defs) > 1 {
		return cty.DynamicVal, hcl.Diagnostics{multipleError(loc, t, defs)}
	}
	return t.Elem.Merge(loc, defs)
}
