package declare

import (
	"reflect"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval/internal/syntax"
)

// constsOf is a Consts that reads an expression over the iterators bound
// alone (the modules of these tests have no locals) and sets no limit.
type constsOf struct{}

func (constsOf) DeclValue(_ *syntax.Module, vars *syntax.Binding, expr hclsyntax.Expression) (cty.Value, hcl.Diagnostics) {
	return expr.Value(&hcl.EvalContext{Variables: vars.Values()})
}

func (constsOf) CheckElements(int, hcl.Range) *hcl.Diagnostic { return nil }

// declaringSrc is a module declaring options with each argument an option
// takes, a type of the process (str) and one of the declared value (a
// submodule), a constant default and one that is not, and texts that read
// the instance's name.
const declaringSrc = `
option "a" {
  type        = str
  default     = "x"
  description = "A."
}
option "b" {
  type    = listOf(submodule.s)
  default = []
  example = [{ n = "y" }]
}
option "c" {
  type         = bool
  default      = !false
  default_text = "on"
  read_only    = true
  internal     = true
  apply        = value
}
submodule "s" {
  option "n" {
    type        = str
    description = "the ${name} thing"
  }
}
`

// parseModule parses src as a module of option and submodule blocks, as
// loading does, shared (a library module's) or not.
func parseModule(t *testing.T, src string, shared bool) (*syntax.Modules, []declEntry) {
	t.Helper()
	file, diags := hclsyntax.ParseConfig([]byte(src), "m.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	m := &syntax.Module{File: file, Body: file.Body.(*hclsyntax.Body), Shared: shared}
	mods := &syntax.Modules{Mods: []*syntax.Module{m}, Submodules: map[string]*syntax.Submodule{}, Formats: map[string]*syntax.Format{}, NamedTypes: map[string]*syntax.NamedType{}}
	optionOf := func(b *hclsyntax.Block) *syntax.OptionDecl {
		return &syntax.OptionDecl{Path: []string{b.Labels[0]}, Block: b, Attrs: b.Body.Attributes, InFile: true}
	}
	var entries []declEntry
	for _, b := range m.Body.Blocks {
		switch b.Type {
		case "option":
			o := optionOf(b)
			m.Options = append(m.Options, o)
			entries = append(entries, declEntry{syn: o, mod: m})
		case "submodule":
			s := &syntax.Submodule{Name: b.Labels[0], Block: b, Mod: m}
			for _, ob := range b.Body.Blocks {
				o := optionOf(ob)
				s.Options = append(s.Options, o)
				entries = append(entries, declEntry{syn: o, mod: m, body: s})
			}
			m.Submodules = append(m.Submodules, s)
			mods.Submodules[s.Name] = s
		}
	}
	return mods, entries
}

// TestDecodedOptions checks what keptOption keeps: every option block
// of a shared module's file, decoded as reading it anew does (but the
// constant default, made once), and nothing of a module that is not
// shared, nor a declaration an evaluation makes (one a dynamic block
// made, from the same block, binding its iterator).
func TestDecodedOptions(t *testing.T) {
	mods, entries := parseModule(t, declaringSrc, true)
	d := Declare(mods, constsOf{})
	if len(d.Diags) > 0 {
		t.Fatal(d.Diags.Error())
	}
	dc := &declarer{Modules: mods, d: d, consts: constsOf{}, private: true}
	for _, e := range entries {
		want, diags := dc.readOption(e, nil)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", e.syn.Block.DefRange(), diags.Error())
		}
		if _, ok := keptOption(e.syn); !ok {
			t.Errorf("option %s was not kept", want.Path)
			continue
		}
		got, diags := dc.decodeOption(e, nil)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", e.syn.Block.DefRange(), diags.Error())
		}
		if want.Type.Description() != got.Type.Description() || want.OwnType != got.OwnType {
			t.Errorf("option %s: type %s (own %t) kept as %s (own %t)", want.Path, want.Type.Description(), want.OwnType, got.Type.Description(), got.OwnType)
		}
		if _, constant := syntax.ConstantValue(orNil(want.DefaultExpr)); constant != (got.ConstDefault != nil) {
			t.Errorf("option %s: constant default %t, kept with its definition %t", want.Path, constant, got.ConstDefault != nil)
		}
		want.Type, got.Type, got.ConstDefault = nil, nil, nil
		if !reflect.DeepEqual(want, got) {
			t.Errorf("option %s: read %+v, kept %+v", want.Path, *want, *got)
		}
	}

	// A declaration a dynamic block made is the evaluation's own.
	e := entries[0]
	made := declEntry{syn: &syntax.OptionDecl{Path: []string{"made"}, Block: e.syn.Block, Attrs: e.syn.Attrs, Vars: &syntax.Binding{Name: "option", Value: cty.StringVal("made")}}, mod: e.mod}
	if _, diags := dc.decodeOption(made, nil); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if _, ok := keptOption(made.syn); ok {
		t.Errorf("a declaration a dynamic block made was kept")
	}

	// A module of the user's is not shared: nothing of it is kept.
	_, own := parseModule(t, declaringSrc, false)
	for _, e := range own {
		if _, diags := dc.decodeOption(e, nil); diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		if _, ok := keptOption(e.syn); ok {
			t.Errorf("option %s of a module that is not shared was kept", e.syn.Path)
		}
	}
}

// orNil is expr, or an expression that is no constant when there is none.
func orNil(expr hclsyntax.Expression) hclsyntax.Expression {
	if expr == nil {
		return &hclsyntax.ScopeTraversalExpr{}
	}
	return expr
}
