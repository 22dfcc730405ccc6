package options

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func parseSrc(t *testing.T, src string, lookup func(string, string, hcl.Range) (Type, hcl.Diagnostics)) (Type, hcl.Diagnostics) {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parsing %q: %s", src, diags)
	}
	return ParseType(expr, lookup)
}

func TestParseType(t *testing.T) {
	inst := &fakeInst{}
	var looked []string
	lookup := func(ns, name string, rng hcl.Range) (Type, hcl.Diagnostics) {
		looked = append(looked, fmt.Sprintf("%s.%s@%d:%d", ns, name, rng.Start.Line, rng.Start.Column))
		if name == "missing" {
			return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "no such submodule", Subject: rng.Ptr()}}
		}
		if ns == "format" {
			return FormatValue{Name: name}, nil
		}
		return Submodule{Names: []string{name}, Inst: inst}, nil
	}
	tests := []struct {
		src  string
		want Type
	}{
		{"bool", Bool{}},
		{"int", Int{}},
		{"float", Float{}},
		{"number", Number{}},
		{"str", Str{}},
		{"path", PathType{}},
		{"port", Port{}},
		{"ints.unsigned", Unsigned{}},
		{"ints.positive", Positive{}},
		{"nonEmptyStr", NonEmptyStr{}},
		{"singleLineStr", SingleLineStr{}},
		{"lines", SeparatedString{"\n"}},
		{"commas", SeparatedString{","}},
		{"anything", Anything{}},
		{"attrs", Attrs{}},
		{"package", Package{}},
		{"(str)", Str{}},
		{"intBetween(1, 10)", IntBetween{1, 10}},
		{"intBetween(-21, 43)", IntBetween{-21, 43}},
		{`enum(["NoSchedule", "PreferNoSchedule"])`, Enum{Values: []cty.Value{str("NoSchedule"), str("PreferNoSchedule")}}},
		{`enum(["a", 1, true])`, Enum{Values: []cty.Value{str("a"), num(1), cty.True}}},
		{`enum([])`, Enum{}},
		{`separatedString(":")`, SeparatedString{":"}},
		{`separatedString("")`, SeparatedString{""}},
		{"listOf(str)", ListOf{Str{}}},
		{"attrsOf(listOf(ints.unsigned))", AttrsOf{ListOf{Unsigned{}}}},
		{"nullOr(path)", NullOr{PathType{}}},
		{"uniq(int)", Uniq{Int{}}},
		{"either(str, int)", Either{Str{}, Int{}}},
		{"oneOf([str, int, bool])", OneOf{[]Type{Str{}, Int{}, Bool{}}}},
		{"attrsOf(submodule.taint)", AttrsOf{Submodule{Names: []string{"taint"}, Inst: inst}}},
		{"nullOr(format.app)", NullOr{FormatValue{Name: "app"}}},
	}
	for _, tt := range tests {
		got, diags := parseSrc(t, tt.src, lookup)
		if diags.HasErrors() {
			t.Errorf("%s: %s", tt.src, detailOf(diags))
			continue
		}
		if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) }), cmp.Comparer(func(a, b *fakeInst) bool { return a == b })); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.src, diff)
		}
	}
	if diff := cmp.Diff([]string{"submodule.taint@1:9", "format.app@1:8"}, looked); diff != "" {
		t.Errorf("lookups (-want +got):\n%s", diff)
	}

	// strMatching compiles its pattern.
	got, diags := parseSrc(t, `strMatching("[0-7]{4}")`, nil)
	wantDiags(t, diags)
	if sm, ok := got.(StrMatching); !ok || sm.Pattern != "[0-7]{4}" || sm.re == nil || got.Description() != "string matching the pattern [0-7]{4}" {
		t.Errorf("strMatching parsed to %#v", got)
	}

	// Lookup errors pass through.
	_, diags = parseSrc(t, "listOf(submodule.missing)", lookup)
	wantDiags(t, diags, "no such submodule")
}

func TestParseTypeErrors(t *testing.T) {
	tests := []struct {
		src     string
		summary []string
		detail  string // a fragment of the first detail
	}{
		{"strr", []string{`Unknown type "strr"`}, `Did you mean "str"?`},
		{"lisOf(str)", []string{`Unknown type function "lisOf"`}, `Did you mean "listOf"?`},
		{"listof(str)", []string{`Unknown type function "listof"`}, `Did you mean "listOf"?`},
		{"frobnicate", []string{`Unknown type "frobnicate"`}, "A type is a name"},
		{"ints.unsinged", []string{`Unknown type "ints.unsinged"`}, `Did you mean "unsigned"?`},
		{"ints", []string{"Type ints needs a member"}, "ints.unsigned"},
		{"ints.unsigned.x", []string{`Unknown type "ints.unsigned.x"`}, ""},
		{"submodule", []string{"Type submodule needs a name"}, "submodule.NAME"},
		{"submodule.x", []string{"submodule types are not available here"}, ""},
		{"format", []string{"Type format needs a name"}, "format.NAME"},
		{"format.x", []string{"format types are not available here"}, ""},
		{"listOf", []string{"Type listOf needs arguments"}, "listOf(TYPE)"},
		{"str()", []string{"Type str takes no arguments"}, ""},
		{"listOf(str, int)", []string{"Wrong arguments for type listOf"}, "listOf(TYPE)"},
		{"listOf(strr)", []string{`Unknown type "strr"`}, ""},
		{"either(strr, inr)", []string{`Unknown type "strr"`, `Unknown type "inr"`}, ""},
		{"oneOf(str)", []string{"Wrong arguments for type oneOf"}, ""},
		{"oneOf([])", []string{"Wrong arguments for type oneOf"}, ""},
		{"oneOf([str, 1])", []string{"Invalid type expression"}, ""},
		{`enum("a")`, []string{"Wrong arguments for type enum"}, "not a list"},
		{`enum([["a"]])`, []string{"Wrong arguments for type enum"}, ""},
		{`enum([null])`, []string{"Wrong arguments for type enum"}, ""},
		{`enum([var.x])`, []string{"Variables not allowed"}, ""},
		{`enum(local.values...)`, []string{"Wrong arguments for type enum"}, ""},
		{"intBetween(10, 1)", []string{"Wrong arguments for type intBetween"}, "greater"},
		{"intBetween(1.5, 2)", []string{"Wrong arguments for type intBetween"}, "integers"},
		{`intBetween("1", 2)`, []string{"Wrong arguments for type intBetween"}, ""},
		{`strMatching("(")`, []string{"Invalid regular expression"}, ""},
		{`strMatching(1)`, []string{"Wrong arguments for type strMatching"}, ""},
		{`separatedString(true)`, []string{"Wrong arguments for type separatedString"}, ""},
		{`"str"`, []string{"Invalid type expression"}, ""},
		{`str[0]`, []string{"Invalid type expression"}, ""},
		{`[str]`, []string{"Invalid type expression"}, ""},
	}
	for _, tt := range tests {
		got, diags := parseSrc(t, tt.src, nil)
		if got != nil && diags.HasErrors() {
			t.Errorf("%s: got a type %#v with errors", tt.src, got)
		}
		t.Run(tt.src, func(t *testing.T) {
			wantDiags(t, diags, tt.summary...)
			if !strings.Contains(diags[0].Detail, tt.detail) {
				t.Errorf("detail %q lacks %q", diags[0].Detail, tt.detail)
			}
			if diags[0].Subject.Filename != "t.hcl" {
				t.Errorf("subject %v", diags[0].Subject)
			}
		})
	}
}

// Every name ParseType knows makes a type of this package that has a
// check and a description class.
func TestParseTypeNamesImplementInternals(t *testing.T) {
	for name, typ := range simpleTypes {
		if _, ok := typ.(checker); !ok {
			t.Errorf("%s: no check", name)
		}
		if _, ok := typ.(classed); !ok {
			t.Errorf("%s: no description class", name)
		}
	}
	for _, typ := range []Type{ListOf{}, AttrsOf{}, NullOr{}, Either{}, OneOf{}, Uniq{Str{}}, Submodule{}, Enum{}, IntBetween{}, StrMatching{}, Unsigned{}, Positive{},
		FormatValue{}, FormatAtom{}, IniSection{}, IniWithGlobalSection{}} {
		if _, ok := typ.(checker); !ok {
			t.Errorf("%s: no check", reflect.TypeOf(typ))
		}
		if _, ok := typ.(classed); !ok {
			t.Errorf("%s: no description class", reflect.TypeOf(typ))
		}
	}
}
