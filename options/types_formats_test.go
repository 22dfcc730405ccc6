package options

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/lib"
)

// formatType is the type of a format of kind with params.
func formatType(t *testing.T, kind string, params cty.Value) Type {
	t.Helper()
	f, err := lib.NewFormat(kind, params)
	if err != nil {
		t.Fatal(err)
	}
	return FormatType(f)
}

func TestFormatTypes(t *testing.T) {
	null := cty.NullVal(cty.DynamicPseudoType)
	json := formatType(t, lib.FormatJSON, cty.EmptyObjectVal)
	toml := formatType(t, lib.FormatTOML, cty.EmptyObjectVal)
	kv := formatType(t, lib.FormatKeyValue, cty.EmptyObjectVal)
	kvDup := formatType(t, lib.FormatKeyValue, obj("listsAsDuplicateKeys", vTrue))
	kvJoin := formatType(t, lib.FormatKeyValue, obj("listSeparator", str(",")))
	ini := formatType(t, lib.FormatINI, cty.EmptyObjectVal)
	iniGlobal := formatType(t, lib.FormatINIWithGlobalSection, cty.EmptyObjectVal)
	tests := []struct {
		name  string
		typ   Type
		defs  []cty.Value
		want  cty.Value
		diags []string // summaries, in order
	}{
		{"json objects merge key by key", json, []cty.Value{obj("a", obj("b", num(1))), obj("a", obj("c", str("x")), "d", null)},
			obj("a", obj("b", num(1), "c", str("x")), "d", null), nil},
		{"json lists concatenate", json, []cty.Value{obj("l", tuple(num(1), obj("x", vTrue))), obj("l", tuple(lazy(str("s"), 3)))},
			obj("l", tuple(num(1), obj("x", vTrue), str("s"))), nil},
		{"json equal atoms", json, []cty.Value{obj("a", num(1)), obj("a", num(1))}, obj("a", num(1)), nil},
		{"json atoms conflict", json, []cty.Value{obj("a", num(1)), obj("a", num(2))}, cty.DynamicVal, []string{`Conflicting definitions for option "a.b.a"`}},
		{"json kinds conflict", json, []cty.Value{obj("a", strs("x")), obj("a", str("x"))}, cty.DynamicVal, []string{"Conflicting definitions"}},
		{"json null and a value conflict", json, []cty.Value{obj("a", null), obj("a", num(1))}, cty.DynamicVal, []string{"Conflicting definitions"}},
		{"json null", json, []cty.Value{null, null}, null, nil},
		{"json properties inside", json, []cty.Value{obj("a", mkIf(vFalse, num(1)), "b", mkDefault(num(1))), obj("b", num(2))}, obj("b", num(2)), nil},
		{"toml has no null", toml, []cty.Value{obj("a", obj("b", null))}, cty.DynamicVal, []string{`Definition of option "a.b.a.b" is not of type "TOML value"`}},
		{"toml not an object inside a list", toml, []cty.Value{obj("a", tuple(null))}, cty.DynamicVal, []string{`is not of type "TOML value"`}},

		{"keyValue atoms", kv, []cty.Value{obj("a", str("x"), "b", vTrue), obj("c", null, "d", cty.NumberFloatVal(1.5))},
			obj("a", str("x"), "b", vTrue, "c", null, "d", cty.NumberFloatVal(1.5)), nil},
		{"keyValue atoms conflict", kv, []cty.Value{obj("a", str("x")), obj("a", str("y"))}, cty.DynamicVal, []string{`Conflicting definitions for option "a.b.a"`}},
		{"keyValue null and a value conflict", kv, []cty.Value{obj("a", null), obj("a", str("y"))}, cty.DynamicVal, []string{"Conflicting definitions"}},
		{"keyValue no lists", kv, []cty.Value{obj("a", strs("x"))}, cty.DynamicVal, []string{`is not of type "atom (null, bool, int, float or string)"`}},
		{"keyValue no objects", kv, []cty.Value{obj("a", obj("b", num(1)))}, cty.DynamicVal, []string{`Definition of option "a.b.a" is not of type`}},
		{"keyValue duplicate keys concatenate", kvDup, []cty.Value{obj("a", strs("x")), obj("a", str("y")), obj("a", strs("z"))}, obj("a", strs("x", "y", "z")), nil},
		{"keyValue duplicate keys, one atom", kvDup, []cty.Value{obj("a", str("y"))}, obj("a", str("y")), nil},
		{"keyValue list of lists", kvDup, []cty.Value{obj("a", tuple(strs("x")))}, cty.DynamicVal, []string{`is not of type "atom (null, bool, int, float or string) or a list of them for duplicate keys"`}},
		{"keyValue joined lists", kvJoin, []cty.Value{obj("a", strs("x")), obj("a", strs("y"))}, obj("a", strs("x", "y")), nil},

		{"ini sections merge", ini, []cty.Value{obj("s", obj("a", num(1))), obj("s", obj("b", vFalse), "t", obj())},
			obj("s", obj("a", num(1), "b", vFalse), "t", obj()), nil},
		{"ini keys outside a section", ini, []cty.Value{obj("a", num(1))}, cty.DynamicVal, []string{`Definition of option "a.b.a" is not of type "section of an INI file`}},
		{"ini no lists", ini, []cty.Value{obj("s", obj("a", strs("x")))}, cty.DynamicVal, []string{`is not of type "INI atom (null, bool, int, float or string)"`}},
		{"ini with global section", iniGlobal, []cty.Value{obj("globalSection", obj("a", num(1))), obj("sections", obj("s", obj("b", num(2))))},
			obj("globalSection", obj("a", num(1)), "sections", obj("s", obj("b", num(2)))), nil},
		{"ini with global section, empty", iniGlobal, []cty.Value{obj()}, obj("globalSection", obj(), "sections", obj()), nil},
		{"ini with global section, other key", iniGlobal, []cty.Value{obj("global", obj())}, cty.DynamicVal, []string{`Option "a.b.global" does not exist`}},
		{"ini with global section, conflict", iniGlobal, []cty.Value{obj("globalSection", obj("a", num(1))), obj("globalSection", obj("a", num(2)))},
			cty.DynamicVal, []string{`Conflicting definitions for option "a.b.globalSection.a"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, diags := MergeDefinitions(loc, tt.typ, defs(tt.defs...))
			wantDiags(t, diags, tt.diags...)
			wantValue(t, m.Value, tt.want)
		})
	}
}

func TestFormatTypeDescriptions(t *testing.T) {
	tests := []struct {
		kind   string
		params cty.Value
		want   string
	}{
		{lib.FormatJSON, cty.EmptyObjectVal, "JSON value"},
		{lib.FormatYAML, cty.EmptyObjectVal, "YAML 1.1 value"},
		{lib.FormatTOML, cty.EmptyObjectVal, "TOML value"},
		{lib.FormatKeyValue, cty.EmptyObjectVal, "attribute set of (atom (null, bool, int, float or string))"},
		{lib.FormatKeyValue, obj("listsAsDuplicateKeys", vTrue), "attribute set of (atom (null, bool, int, float or string) or a list of them for duplicate keys)"},
		{lib.FormatKeyValue, obj("listSeparator", str(" ")), "attribute set of (atom (null, bool, int, float or string) or a list of them)"},
		{lib.FormatINI, cty.EmptyObjectVal, "attribute set of section of an INI file (attrs of INI atom (null, bool, int, float or string))"},
		{lib.FormatINIWithGlobalSection, cty.EmptyObjectVal, "INI file with a global section (globalSection and sections)"},
	}
	for _, tt := range tests {
		if got := formatType(t, tt.kind, tt.params).Description(); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.kind, got, tt.want)
		}
	}
	if got := (ListOf{Elem: formatType(t, lib.FormatJSON, cty.EmptyObjectVal)}).Description(); got != "list of (JSON value)" {
		t.Errorf("list of JSON values: %q", got)
	}
}
