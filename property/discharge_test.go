package property

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

func at(line int) hcl.Range {
	return hcl.Range{Filename: "t.hcl", Start: hcl.Pos{Line: line, Column: 1}, End: hcl.Pos{Line: line, Column: 2}}
}

// thunk is a lazy value at a line, which counts how often it is forced.
type thunk struct {
	v      cty.Value
	line   int
	forced *int
}

func (t *thunk) Force() (cty.Value, hcl.Diagnostics) {
	if t.forced != nil {
		*t.forced++
	}
	return t.v, nil
}
func (t *thunk) Range() hcl.Range { return at(t.line) }

func lazy(v cty.Value, line int) cty.Value { return LazyVal(&thunk{v: v, line: line}) }

func mkIf(c cty.Value, v cty.Value) cty.Value {
	return PropertyVal(Property{Kind: KindIf, Cond: c, CondRange: at(90), Content: v, Range: at(91)})
}

func mk(name string, v cty.Value) cty.Value {
	f, ok := FormNamed(name)
	if !ok {
		panic(name)
	}
	return PropertyVal(f.Make(7, []cty.Value{v}, hcl.Range{}, at(80)))
}

// show renders the parts, one per line: fate, priority, line, value, the
// properties pushed down and the mkMerge index.
func show(d *Discharger) string {
	var b strings.Builder
	for _, p := range d.Parts {
		v := "?"
		if q, ok := AsProperty(p.Value); ok {
			v = q.Kind.String()
		} else if l, ok := AsLazy(p.Value); ok {
			v = fmt.Sprintf("lazy@%d", l.Range().Start.Line)
		} else if p.Value.IsKnown() && p.Value.Type() == cty.Number {
			v = p.Value.AsBigFloat().String()
		} else if !p.Value.IsKnown() {
			v = "unknown"
		}
		var wrap []string
		for _, w := range p.Wrap {
			wrap = append(wrap, w.Kind.String())
		}
		fmt.Fprintf(&b, "%s %d @%d %s wrap%v index%v", p.State, p.Priority, p.Range.Start.Line, v, wrap, p.Index)
		if p.State == Disabled {
			fmt.Fprintf(&b, " cond@%d", p.Cond.Start.Line)
		}
		b.WriteString("\n")
	}
	for _, pr := range d.Problems {
		fmt.Fprintf(&b, "problem %d on %s\n", pr.Kind, pr.Property.Kind)
	}
	return b.String()
}

func TestDischarger(t *testing.T) {
	one := cty.NumberIntVal(1)
	tests := []struct {
		name   string
		mode   Mode
		def    cty.Value
		static bool // force only thunks below line 50
		want   string
	}{
		{"plain", Decide, lazy(one, 3), false, "won 100 @3 1 wrap[] index[]\n"},
		{"true mkIf", Decide, mkIf(cty.True, lazy(one, 4)), false, "won 100 @4 1 wrap[] index[]\n"},
		{"false mkIf", Decide, mkIf(cty.False, lazy(one, 4)), false, "disabled 0 @91 lazy@4 wrap[] index[] cond@90\n"},
		{"non-bool mkIf", Decide, mkIf(one, one), false, "problem 1 on mkIf\n"},
		{"unknown condition", Decide, mkIf(cty.UnknownVal(cty.Bool), one), false, "won 100 @91 unknown wrap[] index[]\n"},
		{"mkMerge", Decide, mk("mkMerge", cty.TupleVal([]cty.Value{one, mkIf(cty.False, one), mk("mkMerge", cty.TupleVal([]cty.Value{one}))})), false,
			"won 100 @80 1 wrap[] index[0]\ndisabled 0 @91 1 wrap[] index[1] cond@90\nwon 100 @80 1 wrap[] index[2 0]\n"},
		{"mkMerge of a non-list", Decide, mk("mkMerge", one), false, "problem 2 on mkMerge\n"},
		{"mkForce stays on", Decide, mk("mkForce", one), false, "won 50 @80 mkOverride wrap[] index[]\n"},
		{"mkOverride's number", Decide, mk("mkOverride", one), false, "won 7 @80 mkOverride wrap[] index[]\n"},
		{"mkBefore stays on", Decide, mk("mkBefore", one), false, "won 100 @80 mkOrder wrap[] index[]\n"},
		{"pushed down", PushDown, mkIf(cty.False, mk("mkForce", mk("mkAfter", lazy(one, 5)))), false, "won 100 @5 1 wrap[mkIf mkOverride mkOrder] index[]\n"},
		{"pushed down through mkMerge", PushDown, mk("mkDefault", mk("mkMerge", cty.TupleVal([]cty.Value{one, mkIf(one, one)}))), false,
			"won 100 @80 1 wrap[mkOverride] index[0]\nwon 100 @91 1 wrap[mkOverride mkIf] index[1]\n"},
		{"waiting thunk", PushDown, mkIf(cty.True, lazy(one, 60)), true, "waiting 100 @60 lazy@60 wrap[mkIf] index[]\n"},
		{"waiting mkMerge", Decide, mk("mkMerge", lazy(cty.EmptyTupleVal, 60)), true, "waiting 100 @80 mkMerge wrap[] index[]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Discharger{Mode: tt.mode, Indexed: true}
			if tt.static {
				d.Force = func(l Lazy) (cty.Value, bool, hcl.Diagnostics) {
					if l.Range().Start.Line >= 50 {
						return cty.NilVal, false, nil
					}
					v, diags := l.Force()
					return v, true, diags
				}
			}
			d.Add(tt.def, at(1))
			if diff := cmp.Diff(tt.want, show(&d)); diff != "" {
				t.Errorf("parts differ (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDecideForcesNoValue: merging decides conditions but leaves the
// content of a kept mkOverride and of a dropped mkIf unforced.
func TestDecideForcesNoValue(t *testing.T) {
	n := 0
	content := LazyVal(&thunk{v: cty.NumberIntVal(1), line: 5, forced: &n})
	d := Discharger{}
	d.Add(mk("mkForce", content), at(1))
	d.Add(mkIf(cty.False, content), at(2))
	if n != 0 {
		t.Errorf("content forced %d times", n)
	}
	if !d.Live() {
		t.Error("Live() = false with a part that won")
	}
}

func TestFormsNamed(t *testing.T) {
	for _, f := range Forms {
		g, ok := FormNamed(f.Name)
		if !ok || g.Name != f.Name {
			t.Errorf("FormNamed(%q) = %v, %v", f.Name, g, ok)
		}
	}
	for _, name := range []string{"mk", "mkif", "file", "mkMergeX"} {
		if _, ok := FormNamed(name); ok {
			t.Errorf("FormNamed(%q) found a form", name)
		}
	}
}
