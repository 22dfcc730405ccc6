package options

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty-debug/ctydebug"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/property"
)

// at is a source range on one line of a fake file.
func at(line int) hcl.Range {
	return hcl.Range{
		Filename: "m.hcl",
		Start:    hcl.Pos{Line: line, Column: 3, Byte: line * 10},
		End:      hcl.Pos{Line: line, Column: 9, Byte: line*10 + 6},
	}
}

// lazy wraps v in a thunk with a range on line.
func lazy(v cty.Value, line int) cty.Value {
	return property.LazyVal(&property.Forced{Value: v, Rng: at(line)})
}

// probe is a thunk that records whether it was forced.
type probe struct {
	v      cty.Value
	forced bool
	diags  hcl.Diagnostics
}

func (p *probe) Force() (cty.Value, hcl.Diagnostics) { p.forced = true; return p.v, p.diags }
func (p *probe) Range() hcl.Range                    { return at(99) }

func mkIf(cond, v cty.Value) cty.Value {
	return property.PropertyVal(property.Property{Kind: property.KindIf, Cond: cond, CondRange: at(50), Content: v, Range: at(51)})
}

func mkMerge(vs ...cty.Value) cty.Value {
	list := cty.EmptyTupleVal
	if len(vs) > 0 {
		list = cty.TupleVal(vs)
	}
	return property.PropertyVal(property.Property{Kind: property.KindMerge, Contents: list, Range: at(52)})
}

func mkOverride(prio int, v cty.Value) cty.Value {
	return property.PropertyVal(property.Property{Kind: property.KindOverride, Priority: prio, Content: v, Range: at(53)})
}

func mkForce(v cty.Value) cty.Value   { return mkOverride(property.PriorityForce, v) }
func mkDefault(v cty.Value) cty.Value { return mkOverride(property.PriorityDefault, v) }

func mkOrder(order int, v cty.Value) cty.Value {
	return property.PropertyVal(property.Property{Kind: property.KindOrder, Order: order, Content: v, Range: at(54)})
}

func mkBefore(v cty.Value) cty.Value { return mkOrder(property.OrderBefore, v) }
func mkAfter(v cty.Value) cty.Value  { return mkOrder(property.OrderAfter, v) }

var (
	vTrue  = cty.True
	vFalse = cty.False
)

func str(s string) cty.Value { return cty.StringVal(s) }
func num(n int64) cty.Value  { return cty.NumberIntVal(n) }

func strs(ss ...string) cty.Value {
	if len(ss) == 0 {
		return cty.EmptyTupleVal
	}
	vs := make([]cty.Value, len(ss))
	for i, s := range ss {
		vs[i] = cty.StringVal(s)
	}
	return cty.TupleVal(vs)
}

func tuple(vs ...cty.Value) cty.Value {
	if len(vs) == 0 {
		return cty.EmptyTupleVal
	}
	return cty.TupleVal(vs)
}

func obj(kv ...any) cty.Value {
	if len(kv) == 0 {
		return cty.EmptyObjectVal
	}
	m := map[string]cty.Value{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(cty.Value)
	}
	return cty.ObjectVal(m)
}

// defs makes definitions on lines 1, 2, ... in order.
func defs(vs ...cty.Value) []Def {
	out := make([]Def, len(vs))
	for i, v := range vs {
		out[i] = Def{Value: v, Range: at(i + 1)}
	}
	return out
}

var loc = Path{"a", "b"}

// wantValue compares cty values.
func wantValue(t *testing.T, got, want cty.Value) {
	t.Helper()
	if diff := cmp.Diff(want, got, ctydebug.CmpOptions); diff != "" {
		t.Errorf("value (-want +got):\n%s", diff)
	}
}

// wantDiags checks that diags has exactly the errors whose summaries
// contain the given fragments, in order; none means no diagnostics.
func wantDiags(t *testing.T, diags hcl.Diagnostics, summaries ...string) {
	t.Helper()
	var got []string
	for _, d := range diags {
		got = append(got, d.Summary)
		if d.Subject == nil {
			t.Errorf("diagnostic %q has no Subject", d.Summary)
		}
	}
	if len(got) != len(summaries) {
		t.Fatalf("got diagnostics %q, want %d matching %q\n%s", got, len(summaries), summaries, detailOf(diags))
	}
	for i, s := range summaries {
		if !strings.Contains(got[i], s) {
			t.Errorf("diagnostic %d is %q, want it to contain %q", i, got[i], s)
		}
	}
}

func detailOf(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(d.Summary + ": " + d.Detail + "\n")
	}
	return b.String()
}

// fakeRef is a namespace over a plain object.
type fakeRef struct{ v cty.Value }

func (r fakeRef) Attr(name string, rng hcl.Range) (cty.Value, bool, hcl.Diagnostics) {
	if !r.v.Type().HasAttribute(name) {
		return cty.DynamicVal, false, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "no attribute", Subject: rng.Ptr()}}
	}
	return r.v.GetAttr(name), true, nil
}

func (r fakeRef) Keys() ([]string, hcl.Diagnostics) {
	var keys []string
	for it := r.v.ElementIterator(); it.Next(); {
		k, _ := it.Element()
		keys = append(keys, k.AsString())
	}
	return keys, nil
}

func (r fakeRef) Materialize() (cty.Value, hcl.Diagnostics) { return property.Deep(r.v) }

// fakeInst records the instances it is asked for and returns each as a
// fakeRef over its definitions' shallow merge.
type fakeInst struct {
	calls []instCall
}

type instCall struct {
	names []string
	loc   string
	n     int
}

func (f *fakeInst) Instantiate(names []string, loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	f.calls = append(f.calls, instCall{names, loc.String(), len(defs)})
	v, diags := Attrs{}.Merge(loc, defs)
	return property.RefVal(fakeRef{v}), diags
}
