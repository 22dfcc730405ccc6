package options

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/property"
)

func TestMergeDefinitionsProperties(t *testing.T) {
	lazyTrue := property.LazyVal(&property.Forced{Value: vTrue, Rng: at(60)})
	tests := []struct {
		name  string
		typ   Type
		defs  []cty.Value
		want  cty.Value
		diags []string
	}{
		// Priorities.
		{"default loses to mkDefault", Int{}, []cty.Value{mkOverride(property.PriorityOptionDefault, num(1)), mkDefault(num(2))}, num(2), nil},
		{"lowest number wins", Int{}, []cty.Value{num(4), mkForce(num(5)), mkOverride(10, num(6))}, num(6), nil},
		{"plain beats mkDefault", Str{}, []cty.Value{mkDefault(str("d")), str("p")}, str("p"), nil},
		{"equal priorities merge", ListOf{Str{}}, []cty.Value{mkForce(strs("a")), strs("x"), mkForce(strs("b"))}, strs("a", "b"), nil},
		{"discarded not type-checked", Str{}, []cty.Value{mkForce(str("a")), num(42), mkDefault(vTrue)}, str("a"), nil},
		{"mkForce false wins", Bool{}, []cty.Value{vTrue, mkForce(vFalse)}, vFalse, nil},

		// Order.
		{"NixOS order probe", ListOf{Str{}}, []cty.Value{
			strs("mid"), mkAfter(strs("after")), mkBefore(strs("before")), mkOrder(10, strs("first")), mkOrder(2000, strs("last")),
		}, strs("first", "before", "mid", "after", "last"), nil},
		{"lines with mkBefore and mkAfter", SeparatedString{"\n"}, []cty.Value{str("b"), mkAfter(str("c")), mkBefore(str("a"))}, str("a\nb\nc"), nil},
		{"sort is stable", ListOf{Str{}}, []cty.Value{mkAfter(strs("a1")), strs("p1"), mkAfter(strs("a2")), strs("p2")}, strs("p1", "p2", "a1", "a2"), nil},
		{"order under override", ListOf{Str{}}, []cty.Value{mkForce(strs("x")), mkForce(mkBefore(strs("y")))}, strs("y", "x"), nil},
		{"full nesting", ListOf{Str{}}, []cty.Value{strs("b"), mkIf(vTrue, mkOverride(property.PriorityPlain, mkBefore(strs("a"))))}, strs("a", "b"), nil},

		// mkIf and mkMerge.
		{"mkIf false disappears", Str{}, []cty.Value{mkIf(vFalse, str("x")), str("y")}, str("y"), nil},
		{"mkIf true", Str{}, []cty.Value{mkIf(vTrue, str("x"))}, str("x"), nil},
		{"lazy condition", Str{}, []cty.Value{mkIf(lazyTrue, str("x"))}, str("x"), nil},
		{"nested mkIf", Str{}, []cty.Value{mkIf(vTrue, mkIf(vFalse, str("x"))), str("y")}, str("y"), nil},
		{"mkMerge", ListOf{Str{}}, []cty.Value{mkMerge(strs("a"), mkIf(vFalse, strs("b")), mkMerge(strs("c"), lazy(strs("d"), 8)))}, strs("a", "c", "d"), nil},
		{"mkMerge of priorities", Str{}, []cty.Value{mkMerge(mkDefault(str("a")), mkForce(str("b")))}, str("b"), nil},
		{"mkIf over mkMerge", ListOf{Str{}}, []cty.Value{mkIf(vTrue, mkMerge(strs("a"), strs("b")))}, strs("a", "b"), nil},
		{"lazy definitions", Str{}, []cty.Value{lazy(mkIf(vTrue, lazy(mkForce(lazy(str("x"), 3)), 2)), 1), str("y")}, str("x"), nil},
		{"unknown mkMerge list", Str{}, []cty.Value{mkMerge(), property.PropertyVal(property.Property{Kind: property.KindMerge, Contents: cty.DynamicVal})}, cty.DynamicVal, nil},
		{"unknown override content", Str{}, []cty.Value{mkForce(cty.DynamicVal), str("b")}, cty.DynamicVal, nil},

		// Errors.
		{"non-bool mkIf", Str{}, []cty.Value{mkIf(str("yes"), str("x"))}, cty.DynamicVal, []string{"mkIf called with a non-boolean condition"}},
		{"null mkIf", Str{}, []cty.Value{mkIf(cty.NullVal(cty.Bool), str("x"))}, cty.DynamicVal, []string{"mkIf called with a non-boolean condition"}},
		{"mkIf inside mkOverride", Str{}, []cty.Value{mkForce(mkIf(vTrue, str("x")))}, cty.DynamicVal, []string{"mkIf cannot be used inside mkOverride"}},
		{"mkMerge inside mkOverride", Str{}, []cty.Value{mkDefault(mkMerge(str("x")))}, cty.DynamicVal, []string{"mkMerge cannot be used inside mkOverride"}},
		{"mkOverride inside mkOverride", Str{}, []cty.Value{mkForce(mkDefault(str("x")))}, cty.DynamicVal, []string{"mkOverride cannot be used inside mkOverride"}},
		{"mkOverride inside mkOrder", ListOf{Str{}}, []cty.Value{mkBefore(mkForce(strs("x")))}, cty.DynamicVal, []string{"mkOverride cannot be used inside mkOrder"}},
		{"mkIf inside mkOrder", ListOf{Str{}}, []cty.Value{mkBefore(mkIf(vTrue, strs("x")))}, cty.DynamicVal, []string{"mkIf cannot be used inside mkOrder"}},
		{"mkOrder inside mkOrder", ListOf{Str{}}, []cty.Value{mkForce(mkBefore(mkAfter(strs("x"))))}, cty.DynamicVal, []string{"mkOrder cannot be used inside mkOrder"}},
		{"bad nesting in a lost definition", Str{}, []cty.Value{mkForce(str("a")), mkDefault(mkIf(vTrue, str("x")))}, str("a"), nil},
		{"mkMerge of a non-list", Str{}, []cty.Value{property.PropertyVal(property.Property{Kind: property.KindMerge, Contents: str("x"), Range: at(52)})}, cty.DynamicVal, []string{"mkMerge called with a non-list argument"}},
		{"every bad condition", Str{}, []cty.Value{mkIf(num(1), str("x")), mkIf(str("no"), str("y"))}, cty.DynamicVal, []string{"non-boolean", "non-boolean"}},
	}
	// One room for every case, its blocks small, so that merges take
	// their parts one after another and across blocks.
	shared := &room{size: 3}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, diags := MergeDefinitions(loc, tt.typ, defs(tt.defs...))
			wantDiags(t, diags, tt.diags...)
			wantValue(t, m.Value, tt.want)
			if !m.Defined {
				t.Errorf("not defined")
			}
			inRoom, roomDiags := mergeDefinitions(loc, tt.typ, defs(tt.defs...), shared, nil)
			sameMerge(t, inRoom, roomDiags, m, diags)
		})
	}
}

// sameMerge checks that a merge made in a room (got) is the one made
// without (want).
func sameMerge(t *testing.T, got Merged, gotDiags hcl.Diagnostics, want Merged, wantDiags hcl.Diagnostics) {
	t.Helper()
	if !got.Value.RawEquals(want.Value) || got.Defined != want.Defined {
		t.Errorf("in a room: %#v (defined %v), want %#v (defined %v)", got.Value, got.Defined, want.Value, want.Defined)
	}
	if len(got.Defs) != len(want.Defs) {
		t.Fatalf("in a room: %d parts, want %d", len(got.Defs), len(want.Defs))
	}
	for i, g := range got.Defs {
		w := want.Defs[i]
		if !g.Value.RawEquals(w.Value) || g.Range != w.Range || g.State != w.State || g.Priority != w.Priority || g.Order != w.Order {
			t.Errorf("in a room, part %d: %+v, want %+v", i, g, w)
		}
	}
	if diff := cmp.Diff(diagStrings(wantDiags), diagStrings(gotDiags)); diff != "" {
		t.Errorf("in a room, diagnostics (-want +got):\n%s", diff)
	}
}

func diagStrings(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		out = append(out, d.Error())
	}
	return out
}

// TestRoomBlocks checks that what a room hands out never overlaps: each
// merge's parts and survivors, and each path (child), are its own, within
// a block and across blocks, including a request larger than a block.
func TestRoomBlocks(t *testing.T) {
	r := &room{size: 4}
	var parts [][]property.Part
	var survivors [][]Def
	for i, n := range []int{1, 3, 0, 2, 9, 1, 4} {
		p := r.parts(n)
		if len(p) != 0 || cap(p) != n {
			t.Fatalf("parts(%d): len %d cap %d", n, len(p), cap(p))
		}
		for range n {
			p = append(p, property.Part{Order: i})
		}
		parts = append(parts, p)
		s := r.survivors(n)
		if len(s) != n || cap(s) != n {
			t.Fatalf("survivors(%d): len %d cap %d", n, len(s), cap(s))
		}
		for j := range s {
			s[j].Range.Start.Line = i
		}
		survivors = append(survivors, s)
	}
	loc := Path{"a", "b"}
	var paths []Path
	for i := range 9 {
		p := r.child(loc, strconv.Itoa(i))
		if want := loc.Child(strconv.Itoa(i)); !p.Equal(want) || cap(p) != len(p) {
			t.Fatalf("child %d: %v (cap %d), want %v", i, p, cap(p), want)
		}
		paths = append(paths, p)
	}
	for i, p := range paths {
		if p[2] != strconv.Itoa(i) || p[0] != "a" {
			t.Errorf("child %d was overwritten: %v", i, p)
		}
	}
	if p := (*room)(nil).child(loc, "x"); !p.Equal(Path{"a", "b", "x"}) {
		t.Errorf("a nil room's child: %v", p)
	}
	for i := range parts {
		for _, p := range parts[i] {
			if p.Order != i {
				t.Errorf("merge %d: a part was overwritten by merge %d", i, p.Order)
			}
		}
		for _, s := range survivors[i] {
			if s.Range.Start.Line != i {
				t.Errorf("merge %d: a survivor was overwritten by merge %d", i, s.Range.Start.Line)
			}
		}
	}
}

func TestMergeDefinitionsUndefined(t *testing.T) {
	for name, ds := range map[string][]Def{
		"no definitions":    nil,
		"all disabled":      defs(mkIf(vFalse, num(1)), mkMerge(mkIf(vFalse, num(2))), mkMerge()),
		"disabled in force": defs(mkIf(vFalse, mkForce(num(1)))),
	} {
		m, diags := MergeDefinitions(loc, Int{}, ds)
		if m.Defined || m.Value != cty.NilVal || len(diags) != 0 {
			t.Errorf("%s: Defined=%v Value=%#v diags=%s", name, m.Defined, m.Value, detailOf(diags))
		}
	}
}

func TestMergeDefinitionsLaziness(t *testing.T) {
	body := &probe{v: num(1)}
	lost := &probe{v: str("not an int")}
	outer := &probe{v: mkDefault(property.LazyVal(lost))}
	m, diags := MergeDefinitions(loc, Int{}, defs(
		mkIf(vFalse, property.LazyVal(body)),
		num(2),
		property.LazyVal(outer),
	))
	wantDiags(t, diags)
	wantValue(t, m.Value, num(2))
	if body.forced {
		t.Errorf("the body of a false mkIf was forced")
	}
	if !outer.forced {
		t.Errorf("a definition was not forced to find its priority")
	}
	if lost.forced {
		t.Errorf("the content of a lost mkOverride was forced")
	}
}

func TestMergeDefinitionsForceErrors(t *testing.T) {
	failing := &probe{v: cty.DynamicVal, diags: hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "boom", Subject: at(70).Ptr()}}}
	m, diags := MergeDefinitions(loc, Str{}, defs(property.LazyVal(failing), str("x")))
	wantDiags(t, diags, "boom")
	wantValue(t, m.Value, cty.DynamicVal)

	// An error inside a list element is reported once.
	failing = &probe{v: cty.DynamicVal, diags: hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "boom", Subject: at(70).Ptr()}}}
	m, diags = MergeDefinitions(loc, ListOf{Str{}}, defs(tuple(str("a"), property.LazyVal(failing))))
	wantDiags(t, diags, "boom")
	wantValue(t, m.Value, cty.DynamicVal)

	// In a plain value deep-forced by its type, too.
	failing = &probe{v: cty.DynamicVal, diags: hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "boom", Subject: at(70).Ptr()}}}
	_, diags = MergeDefinitions(loc, Attrs{}, defs(obj("a", tuple(property.LazyVal(failing)))))
	wantDiags(t, diags, "boom")
}

func TestMergeDefinitionsResults(t *testing.T) {
	m, diags := MergeDefinitions(loc, ListOf{Str{}}, []Def{
		{Value: lazy(strs("a"), 11), Range: at(1)},
		{Value: mkIf(vFalse, strs("off")), Range: at(2)},
		{Value: mkDefault(strs("lost")), Range: at(3)},
		{Value: mkMerge(mkBefore(strs("b")), mkIf(vTrue, strs("c"))), Range: at(4)},
	})
	wantDiags(t, diags)
	wantValue(t, m.Value, strs("b", "a", "c"))
	type row struct {
		Value     string
		Range     hcl.Range
		Priority  int
		Order     int
		State     property.State
		CondRange hcl.Range
	}
	var got []row
	for _, d := range m.Defs {
		var cond hcl.Range
		if d.Cond != nil {
			cond = *d.Cond
		}
		got = append(got, row{ShowValue(d.Value), d.Range, d.Priority, d.Order, d.State, cond})
	}
	want := []row{
		{`["a"]`, at(11), property.PriorityPlain, property.OrderPlain, property.Won, hcl.Range{}},
		{`["off"]`, at(51), 0, 0, property.Disabled, at(50)},
		{`["lost"]`, at(53), property.PriorityDefault, 0, property.Overridden, hcl.Range{}},
		{`["b"]`, at(54), property.PriorityPlain, property.OrderBefore, property.Won, hcl.Range{}},
		{`["c"]`, at(51), property.PriorityPlain, property.OrderPlain, property.Won, hcl.Range{}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Defs (-want +got):\n%s", diff)
	}
	if property.Won.String() != "won" || property.Disabled.String() != "disabled" || property.Overridden.String() != "overridden" {
		t.Errorf("State strings")
	}
}

func TestMergeDefinitionsRanges(t *testing.T) {
	// A type error points at the innermost range known for the value.
	_, diags := MergeDefinitions(loc, Str{}, []Def{{Value: lazy(num(1), 7), Range: at(1)}})
	wantDiags(t, diags, "is not of type")
	if *diags[0].Subject != at(7) {
		t.Errorf("subject %v, want the thunk's range", diags[0].Subject)
	}
	_, diags = MergeDefinitions(loc, ListOf{Str{}}, []Def{{Value: tuple(str("a"), lazy(num(1), 8)), Range: at(1)}})
	wantDiags(t, diags, "is not of type")
	if *diags[0].Subject != at(8) {
		t.Errorf("subject %v, want the element's range", diags[0].Subject)
	}
	_, diags = MergeDefinitions(loc, Str{}, defs(mkIf(str("yes"), str("x"))))
	wantDiags(t, diags, "non-boolean")
	if *diags[0].Subject != at(50) || !strings.Contains(diags[0].Detail, `"yes"`) {
		t.Errorf("non-bool mkIf: subject %v, detail %q", diags[0].Subject, diags[0].Detail)
	}
	_, diags = MergeDefinitions(loc, Str{}, defs(mkForce(mkIf(vTrue, str("x")))))
	wantDiags(t, diags, "inside mkOverride")
	if *diags[0].Subject != at(51) {
		t.Errorf("nesting: subject %v, want the inner mkIf", diags[0].Subject)
	}
}
