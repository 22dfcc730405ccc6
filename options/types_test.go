package options

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/property"
)

func mustMatch(p string) StrMatching {
	t, err := NewStrMatching(p)
	if err != nil {
		panic(err)
	}
	return t
}

var taints = Enum{Values: []cty.Value{str("NoSchedule"), str("PreferNoSchedule"), str("NoExecute")}}

func TestDescriptions(t *testing.T) {
	sub := Submodule{Names: []string{"taint"}}
	tests := []struct {
		typ  Type
		want string
	}{
		{Bool{}, "boolean"},
		{Int{}, "signed integer"},
		{Float{}, "floating point number"},
		{Number{}, "signed integer or floating point number"},
		{Str{}, "string"},
		{PathType{}, "path"},
		{Port{}, "16 bit unsigned integer; between 0 and 65535 (both inclusive)"},
		{IntBetween{1, 10}, "integer between 1 and 10 (both inclusive)"},
		{IntBetween{-21, 43}, "integer between -21 and 43 (both inclusive)"},
		{Unsigned{}, "unsigned integer, meaning >=0"},
		{Positive{}, "positive integer, meaning >0"},
		{Enum{Values: []cty.Value{str("NoSchedule"), str("PreferNoSchedule")}}, `one of "NoSchedule", "PreferNoSchedule"`},
		{Enum{Values: []cty.Value{num(1), cty.True, str("x")}}, `one of 1, true, "x"`},
		{Enum{Values: []cty.Value{str("only")}}, `value "only" (singular enum)`},
		{Enum{}, "impossible (empty enum)"},
		{mustMatch("[0-7]{4}"), "string matching the pattern [0-7]{4}"},
		{NonEmptyStr{}, "non-empty string"},
		{SingleLineStr{}, "(optionally newline-terminated) single-line string"},
		{SeparatedString{"\n"}, `strings concatenated with "\n"`},
		{SeparatedString{","}, `strings concatenated with ","`},
		{SeparatedString{" && "}, `strings concatenated with " && "`},
		{ListOf{Str{}}, "list of string"},
		{ListOf{ListOf{Str{}}}, "list of list of string"},
		{ListOf{Either{Str{}, Int{}}}, "list of (string or signed integer)"},
		{ListOf{Unsigned{}}, "list of (unsigned integer, meaning >=0)"},
		{ListOf{Attrs{}}, "list of (attribute set)"},
		{ListOf{sub}, "list of (submodule)"},
		{AttrsOf{sub}, "attribute set of (submodule)"},
		{AttrsOf{NullOr{Str{}}}, "attribute set of (null or string)"},
		{AttrsOf{ListOf{Int{}}}, "attribute set of list of signed integer"},
		{NullOr{taints}, `null or one of "NoSchedule", "PreferNoSchedule", "NoExecute"`},
		{NullOr{ListOf{Str{}}}, "null or (list of string)"},
		{NullOr{PathType{}}, "null or path"},
		{NullOr{Number{}}, "null or signed integer or floating point number"},
		{NullOr{sub}, "null or (submodule)"},
		{Either{Str{}, Int{}}, "string or signed integer"},
		{Either{Str{}, ListOf{Str{}}}, "string or list of string"},
		{Either{ListOf{Str{}}, Str{}}, "(list of string) or string"},
		{Either{Unsigned{}, Str{}}, "unsigned integer, meaning >=0, or string"},
		{Either{Str{}, Unsigned{}}, "string or (unsigned integer, meaning >=0)"},
		{OneOf{[]Type{Str{}, Int{}, Bool{}}}, "string or signed integer or boolean"},
		{OneOf{[]Type{Str{}}}, "string"},
		{ListOf{OneOf{[]Type{Str{}, Int{}}}}, "list of (string or signed integer)"},
		{Anything{}, "anything"},
		{Attrs{}, "attribute set"},
		{Package{}, "package"},
		{Uniq{ListOf{Str{}}}, "list of string"},
		{ListOf{Uniq{Either{Str{}, Int{}}}}, "list of (string or signed integer)"},
		{sub, "submodule"},
	}
	for _, tt := range tests {
		if got := tt.typ.Description(); got != tt.want {
			t.Errorf("%#v: Description() = %q, want %q", tt.typ, got, tt.want)
		}
	}
}

// TestCheck defines each option once: accepted values come back as they
// are, others are type errors.
func TestCheck(t *testing.T) {
	huge := cty.NumberVal(new(big.Float).SetInt(new(big.Int).Lsh(big.NewInt(1), 70)))
	digest := "sha256:" + strings.Repeat("ab", 32)
	tests := []struct {
		typ  Type
		good []cty.Value
		bad  []cty.Value
	}{
		{Bool{}, []cty.Value{vTrue, vFalse}, []cty.Value{str("yes"), str("true"), num(1), cty.NullVal(cty.Bool)}},
		{Int{}, []cty.Value{num(42), num(-3), num(0)}, []cty.Value{cty.NumberFloatVal(1.5), str("42"), huge, vTrue}},
		{Float{}, []cty.Value{cty.NumberFloatVal(1.5), num(1)}, []cty.Value{str("1.5"), vTrue}},
		{Number{}, []cty.Value{cty.NumberFloatVal(1.5), num(1)}, []cty.Value{str("1")}},
		{Str{}, []cty.Value{str("x"), str("")}, []cty.Value{num(42), vTrue, cty.NullVal(cty.String), strs("x"), obj()}},
		{PathType{}, []cty.Value{str("/etc/kubernetes"), str("/")}, []cty.Value{str("etc"), str(""), num(1), str("./keys/a.pub")}},
		{Port{}, []cty.Value{num(0), num(10250), num(65535)}, []cty.Value{num(65536), num(-1), cty.NumberFloatVal(80.5), str("80")}},
		{IntBetween{1, 10}, []cty.Value{num(1), num(10)}, []cty.Value{num(0), num(11), str("5")}},
		{Unsigned{}, []cty.Value{num(0), num(7)}, []cty.Value{num(-1), cty.NumberFloatVal(0.5)}},
		{Positive{}, []cty.Value{num(1)}, []cty.Value{num(0), num(-1)}},
		{taints, []cty.Value{str("NoSchedule"), str("NoExecute")}, []cty.Value{str("noschedule"), str(""), num(1)}},
		{Enum{Values: []cty.Value{num(1), vTrue}}, []cty.Value{num(1), vTrue}, []cty.Value{str("1"), vFalse, str("true")}},
		{mustMatch("[0-7]{4}"), []cty.Value{str("0644")}, []cty.Value{str("06444"), str("x0644"), str("064"), str("0644\n"), num(644)}},
		{mustMatch("a|b"), []cty.Value{str("a"), str("b")}, []cty.Value{str("ab")}},
		{StrMatching{Pattern: "[a-z]+"}, []cty.Value{str("abc")}, []cty.Value{str("ab1")}},
		{NonEmptyStr{}, []cty.Value{str("a"), str(" a ")}, []cty.Value{str(""), str(" \t\n"), num(1)}},
		{SingleLineStr{}, []cty.Value{str("a b")}, []cty.Value{str("a\nb"), str("a\r"), str("\n\n")}},
		{SeparatedString{"\n"}, []cty.Value{str("a\nb")}, []cty.Value{num(1), strs("a")}},
		{Package{}, []cty.Value{
			str("/usr/bin/kubelet"), str("registry.k8s.io/pause:3.9"), str("nginx"),
			str("docker.io/library/nginx:1.25-alpine"), str("localhost:5000/foo/bar@" + digest),
			str("quay.io/coreos/etcd:v3.5.9"), str("localhost:5000/foo:" + strings.Repeat("t", 128)),
			str("nginx:" + strings.Repeat("t", 128) + "@" + digest),
		}, []cty.Value{str("Not An Image"), str("nginx:"), str(""), str("Nginx"), str("a//b"), num(42),
			str("nginx:" + strings.Repeat("t", 129)), str("localhost:5000/foo:" + strings.Repeat("t", 129) + "@" + digest)}},
		{ListOf{Str{}}, []cty.Value{strs("a", "b"), strs()}, []cty.Value{str("a"), cty.NullVal(cty.List(cty.String)), obj()}},
		{AttrsOf{Int{}}, []cty.Value{obj("x", num(1)), obj()}, []cty.Value{tuple(num(1)), str("x"), cty.NullVal(cty.DynamicPseudoType)}},
		{NullOr{Str{}}, []cty.Value{cty.NullVal(cty.DynamicPseudoType), str("x")}, []cty.Value{num(1)}},
		{Either{Str{}, Int{}}, []cty.Value{str("x"), num(1)}, []cty.Value{vTrue, cty.NumberFloatVal(1.5)}},
		{OneOf{[]Type{Str{}, Int{}, Bool{}}}, []cty.Value{str("x"), num(1), vTrue}, []cty.Value{strs()}},
		{Anything{}, []cty.Value{str("x"), num(1), strs("a"), obj("a", num(1)), cty.NullVal(cty.DynamicPseudoType)}, nil},
		{Attrs{}, []cty.Value{obj("a", num(1)), obj()}, []cty.Value{str("x"), strs()}},
		{Uniq{Str{}}, []cty.Value{str("x")}, []cty.Value{num(1)}},
	}
	for _, tt := range tests {
		desc := tt.typ.Description()
		for _, v := range tt.good {
			m, diags := MergeDefinitions(loc, tt.typ, defs(v))
			if diags.HasErrors() {
				t.Errorf("%s rejects %s:\n%s", desc, ShowValue(v), detailOf(diags))
				continue
			}
			if want := normalize(v); !equalValues(m.Value, want) {
				t.Errorf("%s: %s merged to %s", desc, ShowValue(v), ShowValue(m.Value))
			}
		}
		for _, v := range tt.bad {
			_, diags := MergeDefinitions(loc, tt.typ, defs(v))
			if len(diags) != 1 || !strings.Contains(diags[0].Summary, `is not of type "`+desc+`"`) {
				t.Errorf("%s accepts %s: %s", desc, ShowValue(v), detailOf(diags))
			}
		}
	}
}

func TestTypeErrorMessage(t *testing.T) {
	_, diags := MergeDefinitions(loc, ListOf{Str{}}, defs(str("x")))
	wantDiags(t, diags, `Definition of option "a.b" is not of type "list of string"`)
	d := diags[0]
	if !strings.Contains(d.Detail, `"x"`) || !strings.Contains(d.Detail, "m.hcl:1:3") {
		t.Errorf("detail %q does not show the value and position", d.Detail)
	}
	if *d.Subject != at(1) {
		t.Errorf("subject %v, want %v", d.Subject, at(1))
	}
	extra, ok := hcl.DiagnosticExtra[DiagExtra](d)
	if !ok || extra.Code != CodeType || extra.Option.String() != "a.b" {
		t.Errorf("extra = %#v", extra)
	}
}

func TestMergeTypes(t *testing.T) {
	inst := &fakeInst{}
	a := Submodule{Names: []string{"a"}, Inst: inst}
	b := Submodule{Names: []string{"b"}}
	tests := []struct {
		a, b  Type
		names []string // nil: no merge
		desc  string
	}{
		{a, b, []string{"a", "b"}, "submodule"},
		{AttrsOf{a}, AttrsOf{b}, []string{"a", "b"}, "attribute set of (submodule)"},
		{ListOf{NullOr{b}}, ListOf{NullOr{a}}, []string{"b", "a"}, "list of (null or (submodule))"},
		{NullOr{a}, NullOr{b}, []string{"a", "b"}, "null or (submodule)"},
		{a, AttrsOf{b}, nil, ""},
		{ListOf{a}, AttrsOf{b}, nil, ""},
		{Str{}, Str{}, nil, ""},
		{ListOf{Str{}}, ListOf{Str{}}, nil, ""},
	}
	for _, tt := range tests {
		got, ok := MergeTypes(tt.a, tt.b)
		if ok != (tt.names != nil) {
			t.Errorf("MergeTypes(%s, %s) ok = %v", tt.a.Description(), tt.b.Description(), ok)
			continue
		}
		if !ok {
			continue
		}
		if got.Description() != tt.desc {
			t.Errorf("merged description %q, want %q", got.Description(), tt.desc)
		}
		sub := innerSubmodule(got)
		if diff := cmp.Diff(tt.names, sub.Names); diff != "" {
			t.Errorf("names (-want +got):\n%s", diff)
		}
		if sub.Inst != inst {
			t.Errorf("instantiator lost")
		}
	}
	// Merging does not alias the inputs' Names.
	m, _ := MergeTypes(Submodule{Names: make([]string, 1, 4)}, b)
	m2, _ := MergeTypes(m, a)
	if m.(Submodule).Names[1] != "b" || len(m2.(Submodule).Names) != 3 {
		t.Errorf("names aliased: %v %v", m, m2)
	}
}

func innerSubmodule(t Type) Submodule {
	switch t := t.(type) {
	case Submodule:
		return t
	case ListOf:
		return innerSubmodule(t.Elem)
	case AttrsOf:
		return innerSubmodule(t.Elem)
	case NullOr:
		return innerSubmodule(t.Elem)
	}
	panic("no submodule")
}

func TestMerge(t *testing.T) {
	ref := property.RefVal(fakeRef{obj("x", num(1), "y", lazy(num(2), 7))})
	tests := []struct {
		name  string
		typ   Type
		defs  []cty.Value
		want  cty.Value
		diags []string // summaries, in order
	}{
		{"str equal", Str{}, []cty.Value{str("a"), str("a")}, str("a"), nil},
		{"str conflict", Str{}, []cty.Value{str("a"), str("b")}, cty.DynamicVal, []string{`Conflicting definitions for option "a.b"`}},
		{"int equal across representations", Int{}, []cty.Value{num(1), cty.NumberFloatVal(1)}, num(1), nil},
		{"bool conflict", Bool{}, []cty.Value{vTrue, vFalse}, cty.DynamicVal, []string{"Conflicting definitions"}},
		{"type error before conflict", Str{}, []cty.Value{str("a"), num(1)}, cty.DynamicVal, []string{`is not of type "string"`}},
		{"every type error", Str{}, []cty.Value{num(1), num(2)}, cty.DynamicVal, []string{"is not of type", "is not of type"}},
		{"lines", SeparatedString{"\n"}, []cty.Value{str("a"), str("b"), str("c")}, str("a\nb\nc"), nil},
		{"commas", SeparatedString{","}, []cty.Value{str("a"), str("b")}, str("a,b"), nil},
		{"separatedString", SeparatedString{" "}, []cty.Value{str("a"), lazy(str("b"), 5)}, str("a b"), nil},
		{"singleLineStr strips", SingleLineStr{}, []cty.Value{str("a\n"), str("a\n")}, str("a"), nil},
		{"singleLineStr conflict", SingleLineStr{}, []cty.Value{str("a"), str("a\n")}, cty.DynamicVal, []string{"Conflicting"}},
		{"enum conflict", taints, []cty.Value{str("NoSchedule"), str("NoExecute")}, cty.DynamicVal, []string{"Conflicting"}},
		{"package", Package{}, []cty.Value{str("/bin/sh"), str("/bin/sh")}, str("/bin/sh"), nil},
		{"systemdOption equal", SystemdOption{}, []cty.Value{str("a"), str("a")}, str("a"), nil},
		{"systemdOption conflict", SystemdOption{}, []cty.Value{str("a"), num(1)}, cty.DynamicVal, []string{"Conflicting"}},
		{"systemdOption lists concatenate", SystemdOption{}, []cty.Value{strs("a"), str("b"), tuple(lazy(str("c"), 2))}, strs("a", "b", "c"), nil},
		{"systemdOption bad element", SystemdOption{}, []cty.Value{tuple(str("a"), obj("x", num(1)))}, cty.DynamicVal, []string{`is not of type "systemd option"`}},
		{"strMatching description", StrMatching{Pattern: "[0-9]+", Desc: "a number in a string"}, []cty.Value{str("x")}, cty.DynamicVal, []string{`is not of type "a number in a string"`}},

		{"listOf concatenates", ListOf{Str{}}, []cty.Value{strs("a"), strs("b", "c")}, strs("a", "b", "c"), nil},
		{"listOf empty", ListOf{Str{}}, []cty.Value{strs(), strs()}, cty.EmptyTupleVal, nil},
		{"listOf lazy elements", ListOf{Str{}}, []cty.Value{tuple(lazy(str("a"), 4), str("b"))}, strs("a", "b"), nil},
		{"listOf cty list", ListOf{Int{}}, []cty.Value{cty.ListVal([]cty.Value{num(1)}), cty.SetVal([]cty.Value{num(2)})}, tuple(num(1), num(2)), nil},
		{"listOf mkIf false element", ListOf{Str{}}, []cty.Value{tuple(mkIf(vFalse, str("x")), str("y")), tuple(mkIf(vTrue, str("z")))}, strs("y", "z"), nil},
		{"listOf mkMerge element", ListOf{Str{}}, []cty.Value{tuple(mkMerge(str("x")))}, strs("x"), nil},
		{"listOf element error", ListOf{Str{}}, []cty.Value{strs("a"), tuple(str("b"), num(1))}, cty.DynamicVal,
			[]string{`Definition of option "a.b."[definition 2-entry 2]"" is not of type "string"`}},
		{"listOf of lists", ListOf{ListOf{Int{}}}, []cty.Value{tuple(tuple(num(1))), tuple(tuple())}, tuple(tuple(num(1)), tuple()), nil},
		{"listOf anything is plain", ListOf{Anything{}}, []cty.Value{tuple(obj("a", lazy(num(1), 3)))}, tuple(obj("a", num(1))), nil},

		{"attrsOf merges keys", AttrsOf{Int{}}, []cty.Value{obj("x", num(1)), obj("y", num(2))}, obj("x", num(1), "y", num(2)), nil},
		{"attrsOf same key", AttrsOf{Int{}}, []cty.Value{obj("x", num(1)), obj("x", num(1))}, obj("x", num(1)), nil},
		{"attrsOf conflict names key", AttrsOf{Int{}}, []cty.Value{obj("x", num(1)), obj("x", num(2))}, cty.DynamicVal,
			[]string{`Conflicting definitions for option "a.b.x"`}},
		{"attrsOf type error names key", AttrsOf{Int{}}, []cty.Value{obj("x", str("1"))}, cty.DynamicVal,
			[]string{`Definition of option "a.b.x" is not of type "signed integer"`}},
		{"attrsOf mkIf false key vanishes", AttrsOf{Int{}}, []cty.Value{obj("x", mkIf(vFalse, num(1)), "y", num(2))}, obj("y", num(2)), nil},
		{"attrsOf all keys vanish", AttrsOf{Int{}}, []cty.Value{obj("x", mkIf(vFalse, num(1)))}, cty.EmptyObjectVal, nil},
		{"attrsOf priority per key", AttrsOf{Int{}}, []cty.Value{obj("x", mkForce(num(1))), obj("x", num(2), "y", mkDefault(num(3)))}, obj("x", num(1), "y", num(3)), nil},
		{"attrsOf lists concatenate", AttrsOf{ListOf{Str{}}}, []cty.Value{obj("x", strs("a")), obj("x", strs("b"))}, obj("x", strs("a", "b")), nil},
		{"attrsOf map", AttrsOf{Str{}}, []cty.Value{cty.MapVal(map[string]cty.Value{"k": str("v")})}, obj("k", str("v")), nil},
		{"attrsOf namespace", AttrsOf{Int{}}, []cty.Value{ref, obj("z", num(3))}, obj("x", num(1), "y", num(2), "z", num(3)), nil},

		{"nullOr all null", NullOr{Str{}}, []cty.Value{cty.NullVal(cty.DynamicPseudoType), cty.NullVal(cty.String)}, cty.NullVal(cty.DynamicPseudoType), nil},
		{"nullOr mixed", NullOr{Str{}}, []cty.Value{cty.NullVal(cty.DynamicPseudoType), str("x")}, cty.DynamicVal, []string{`Conflicting definitions for option "a.b"`}},
		{"nullOr value", NullOr{ListOf{Str{}}}, []cty.Value{strs("a"), strs("b")}, strs("a", "b"), nil},
		{"nullOr type error", NullOr{Str{}}, []cty.Value{num(1)}, cty.DynamicVal, []string{`is not of type "null or string"`}},

		{"either first that accepts all", Either{ListOf{Str{}}, Str{}}, []cty.Value{strs("a"), strs("b")}, strs("a", "b"), nil},
		{"either second", Either{Int{}, Str{}}, []cty.Value{str("a"), str("a")}, str("a"), nil},
		{"either mixed", Either{Int{}, Str{}}, []cty.Value{num(1), str("a")}, cty.DynamicVal, []string{"Conflicting definitions"}},
		{"either shallow choice", Either{ListOf{Int{}}, Str{}}, []cty.Value{strs("x")}, cty.DynamicVal,
			[]string{`"a.b."[definition 1-entry 1]"" is not of type "signed integer"`}},
		{"either type error", Either{Int{}, Str{}}, []cty.Value{vTrue}, cty.DynamicVal, []string{`is not of type "signed integer or string"`}},
		{"oneOf third", OneOf{[]Type{Int{}, Str{}, Bool{}}}, []cty.Value{vTrue, vTrue}, vTrue, nil},

		{"anything deep merge", Anything{}, []cty.Value{obj("a", obj("b", num(1))), obj("a", obj("c", num(2)))}, obj("a", obj("b", num(1), "c", num(2))), nil},
		{"anything equal atoms", Anything{}, []cty.Value{obj("a", num(1)), obj("a", num(1))}, obj("a", num(1)), nil},
		{"anything conflict deep", Anything{}, []cty.Value{obj("a", obj("b", num(1))), obj("a", obj("b", num(2)))}, cty.DynamicVal,
			[]string{`Conflicting definitions for option "a.b.a.b"`}},
		{"anything equal lists", Anything{}, []cty.Value{strs("x"), strs("x")}, strs("x"), nil},
		{"anything lists conflict", Anything{}, []cty.Value{strs("x"), strs("y")}, cty.DynamicVal, []string{"Conflicting definitions"}},
		{"anything kinds conflict", Anything{}, []cty.Value{obj(), str("x")}, cty.DynamicVal, []string{"Conflicting definitions"}},
		{"anything nulls", Anything{}, []cty.Value{cty.NullVal(cty.String), cty.NullVal(cty.DynamicPseudoType)}, cty.NullVal(cty.String), nil},
		{"anything mkIf inside", Anything{}, []cty.Value{obj("x", mkIf(vFalse, num(1)), "y", obj("z", mkIf(vTrue, num(2))))}, obj("y", obj("z", num(2))), nil},
		{"anything priorities inside", Anything{}, []cty.Value{obj("x", obj("y", mkDefault(num(1)))), obj("x", obj("y", num(2)))}, obj("x", obj("y", num(2))), nil},
		{"anything order inside", Anything{}, []cty.Value{obj("l", strs("b")), obj("l", mkBefore(strs("a")))}, cty.DynamicVal, []string{"Conflicting"}},
		{"anything normalizes lists", Anything{}, []cty.Value{cty.ListVal([]cty.Value{str("a")}), strs("a")}, strs("a"), nil},
		{"anything normalizes sets", Anything{}, []cty.Value{cty.SetVal([]cty.Value{num(1)})}, tuple(num(1)), nil},
		{"anything empty list", Anything{}, []cty.Value{cty.ListValEmpty(cty.String), strs()}, cty.EmptyTupleVal, nil},
		{"anything nested maps equal", Anything{}, []cty.Value{
			tuple(cty.MapVal(map[string]cty.Value{"k": cty.ListVal([]cty.Value{num(1)})})),
			tuple(obj("k", tuple(num(1)))),
		}, tuple(obj("k", tuple(num(1)))), nil},
		{"anything nested lists differ", Anything{}, []cty.Value{tuple(obj("k", tuple(num(1)))), tuple(obj("k", tuple(num(1), num(2))))}, cty.DynamicVal, []string{"Conflicting"}},
		{"anything nested keys differ", Anything{}, []cty.Value{tuple(obj("k", num(1))), tuple(obj("j", num(1)))}, cty.DynamicVal, []string{"Conflicting"}},
		{"anything property in list", Anything{}, []cty.Value{tuple(mkIf(vTrue, num(1)))}, cty.DynamicVal, []string{`mkIf inside a value of option "a.b"`}},

		{"attrs shallow, later wins", Attrs{}, []cty.Value{obj("a", num(1), "b", obj("x", num(1))), obj("a", num(2), "b", obj("y", num(2)))},
			obj("a", num(2), "b", obj("y", num(2))), nil},
		{"attrs deep-forced", Attrs{}, []cty.Value{obj("a", lazy(strs("x"), 2))}, obj("a", strs("x")), nil},
		{"attrs normalizes", Attrs{}, []cty.Value{obj("m", cty.MapVal(map[string]cty.Value{"k": cty.ListValEmpty(cty.String)}))}, obj("m", obj("k", cty.EmptyTupleVal)), nil},
		{"attrs namespace", Attrs{}, []cty.Value{ref}, obj("x", num(1), "y", num(2)), nil},
		{"attrs property inside", Attrs{}, []cty.Value{obj("a", mkIf(vTrue, num(1)))}, cty.DynamicVal, []string{"mkIf inside a value"}},

		{"uniq one", Uniq{Str{}}, []cty.Value{str("a")}, str("a"), nil},
		{"uniq two", Uniq{Str{}}, []cty.Value{str("a"), str("a")}, cty.DynamicVal, []string{`Option "a.b" is defined multiple times`}},
		{"uniq after priorities", Uniq{Str{}}, []cty.Value{str("a"), mkForce(str("b"))}, str("b"), nil},
		{"uniq listOf", Uniq{ListOf{Str{}}}, []cty.Value{strs("a")}, strs("a"), nil},

		{"unknown str", Str{}, []cty.Value{cty.DynamicVal}, cty.DynamicVal, nil},
		{"unknown hides conflict", Str{}, []cty.Value{str("a"), cty.DynamicVal, str("b")}, cty.DynamicVal, nil},
		{"unknown list", ListOf{Str{}}, []cty.Value{strs("a"), cty.DynamicVal}, cty.DynamicVal, nil},
		{"unknown element", ListOf{Str{}}, []cty.Value{tuple(str("a"), cty.DynamicVal)}, tuple(str("a"), cty.DynamicVal), nil},
		{"unknown attrs", AttrsOf{Str{}}, []cty.Value{cty.DynamicVal, obj("x", str("a"))}, cty.DynamicVal, nil},
		{"unknown nullOr", NullOr{Str{}}, []cty.Value{cty.NullVal(cty.String), cty.DynamicVal}, cty.DynamicVal, nil},
		{"unknown lines", SeparatedString{"\n"}, []cty.Value{str("a"), cty.UnknownVal(cty.String)}, cty.DynamicVal, nil},
		{"unknown inside anything", Anything{}, []cty.Value{strs("a"), tuple(cty.DynamicVal)}, cty.DynamicVal, nil},
		{"unknown mkIf condition", Str{}, []cty.Value{mkIf(cty.UnknownVal(cty.Bool), str("a"))}, cty.DynamicVal, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, diags := MergeDefinitions(loc, tt.typ, defs(tt.defs...))
			wantDiags(t, diags, tt.diags...)
			wantValue(t, m.Value, tt.want)
			if !m.Defined {
				t.Errorf("not defined")
			}
		})
	}
}

func TestConflictMessage(t *testing.T) {
	_, diags := MergeDefinitions(loc, Str{}, defs(str("a"), str("b"), str("a")))
	wantDiags(t, diags, `Conflicting definitions for option "a.b"`)
	d := diags[0]
	for _, want := range []string{
		"\n- m.hcl:1:3: \"a\"\n- m.hcl:2:3: \"b\"\n- m.hcl:3:3: \"a\"\n",
		"Use mkForce(value) or mkDefault(value) to change the priority of one of them.",
	} {
		if !strings.Contains(d.Detail, want) {
			t.Errorf("detail %q lacks %q", d.Detail, want)
		}
	}
	if *d.Subject != at(1) {
		t.Errorf("subject %v, want the first definition", d.Subject)
	}

	_, diags = MergeDefinitions(loc, Uniq{Int{}}, defs(num(1), num(2)))
	wantDiags(t, diags, `Option "a.b" is defined multiple times`)
	if !strings.Contains(diags[0].Detail, "- m.hcl:1:3: 1\n- m.hcl:2:3: 2") {
		t.Errorf("uniq detail %q does not list the definitions", diags[0].Detail)
	}
}

func TestSubmodule(t *testing.T) {
	inst := &fakeInst{}
	sub := Submodule{Names: []string{"taint", "more"}, Inst: inst}

	m, diags := MergeDefinitions(loc, sub, defs(obj("key", str("k")), obj("value", str("v"))))
	wantDiags(t, diags)
	r, ok := property.AsRef(m.Value)
	if !ok {
		t.Fatalf("submodule merged to %s, want a namespace", ShowValue(m.Value))
	}
	got, _ := r.Materialize()
	wantValue(t, got, obj("key", str("k"), "value", str("v")))
	if diff := cmp.Diff([]instCall{{[]string{"taint", "more"}, "a.b", 2}}, inst.calls, cmp.AllowUnexported(instCall{})); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}

	// In attrsOf, one instance per key, with that key's definitions.
	inst.calls = nil
	m, diags = MergeDefinitions(loc, AttrsOf{sub}, defs(
		obj("gpu", obj("value", str("true"))),
		obj("gpu", obj("effect", str("NoSchedule")), "off", mkIf(vFalse, obj())),
		obj("other", property.RefVal(fakeRef{obj("value", str("x"))})),
	))
	wantDiags(t, diags)
	if diff := cmp.Diff([]instCall{{[]string{"taint", "more"}, "a.b.gpu", 2}, {[]string{"taint", "more"}, "a.b.other", 1}}, inst.calls, cmp.AllowUnexported(instCall{})); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if ty := m.Value.Type(); !ty.IsObjectType() || len(ty.AttributeTypes()) != 2 || ty.AttributeType("gpu") != property.RefType {
		t.Errorf("attrsOf(submodule) = %s, want namespaces kept", ShowValue(m.Value))
	}

	// In listOf, instances are kept as namespaces, at the element paths.
	inst.calls = nil
	m, diags = MergeDefinitions(loc, ListOf{sub}, defs(tuple(obj("a", num(1))), tuple(mkIf(vFalse, obj()), obj())))
	wantDiags(t, diags)
	if diff := cmp.Diff([]instCall{{[]string{"taint", "more"}, `a.b."[definition 1-entry 1]"`, 1}, {[]string{"taint", "more"}, `a.b."[definition 2-entry 2]"`, 1}}, inst.calls, cmp.AllowUnexported(instCall{})); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if m.Value.LengthInt() != 2 || m.Value.Index(num(0)).Type() != property.RefType {
		t.Errorf("listOf(submodule) = %s", ShowValue(m.Value))
	}

	// Non-objects are type errors, and no instance is made.
	inst.calls = nil
	_, diags = MergeDefinitions(loc, AttrsOf{sub}, defs(obj("x", str("nope"))))
	wantDiags(t, diags, `Definition of option "a.b.x" is not of type "submodule"`)
	if len(inst.calls) != 0 {
		t.Errorf("instantiated after a type error")
	}
	_, diags = MergeDefinitions(loc, AttrsOf{sub}, defs(strs()))
	wantDiags(t, diags, `is not of type "attribute set of (submodule)"`)
}

// prefixResolver resolves a relative path by putting a directory in front,
// and refuses one that starts with "../".
type prefixResolver struct{ dir string }

func (r prefixResolver) ResolvePath(rel string, def hcl.Range) (string, *hcl.Diagnostic) {
	if strings.HasPrefix(rel, "../") {
		return "", &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "outside", Subject: def.Ptr()}
	}
	return r.dir + "/" + strings.TrimPrefix(rel, "./"), nil
}

func TestPathRelative(t *testing.T) {
	typ := PathType{Resolve: prefixResolver{"/hosts"}}
	tests := []struct {
		name    string
		defs    []cty.Value
		want    cty.Value
		summary string // of the one error, when there is one
	}{
		{"absolute kept", []cty.Value{str("/etc/ssh/a.pub")}, str("/etc/ssh/a.pub"), ""},
		{"relative resolved", []cty.Value{str("./keys/a.pub")}, str("/hosts/keys/a.pub"), ""},
		{"equal after resolving", []cty.Value{str("./keys/a.pub"), str("/hosts/keys/a.pub")}, str("/hosts/keys/a.pub"), ""},
		{"different after resolving", []cty.Value{str("./keys/a.pub"), str("/etc/a.pub")}, cty.NilVal, `Conflicting definitions for option "a.b"`},
		{"resolver's error", []cty.Value{str("../a.pub")}, cty.NilVal, "outside"},
		{"no ./ is no path", []cty.Value{str("keys/a.pub")}, cty.NilVal, `Definition of option "a.b" is not of type "path"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, diags := MergeDefinitions(loc, typ, defs(tt.defs...))
			if tt.summary != "" {
				if len(diags) != 1 || diags[0].Summary != tt.summary {
					t.Fatalf("want the error %q, got:\n%s", tt.summary, detailOf(diags))
				}
				return
			}
			if diags.HasErrors() {
				t.Fatalf("unexpected errors:\n%s", detailOf(diags))
			}
			wantValue(t, m.Value, tt.want)
		})
	}
}

func TestHoldsKeys(t *testing.T) {
	tests := []struct {
		typ  Type
		want bool
	}{
		{AttrsOf{Str{}}, true},
		{Anything{}, true},
		{Attrs{}, true},
		{NullOr{AttrsOf{Int{}}}, true},
		{Either{Str{}, AttrsOf{Str{}}}, true},
		{Bool{}, false},
		{Str{}, false},
		{ListOf{Str{}}, false},
		{NullOr{Int{}}, false},
	}
	for _, tt := range tests {
		if got := HoldsKeys(tt.typ); got != tt.want {
			t.Errorf("HoldsKeys(%s) = %v, want %v", tt.typ.Description(), got, tt.want)
		}
	}
}

// TestNewStrMatchingErrors checks that parsing a pattern at declaration
// (compiling it waits for the first check) rejects what compiling rejects,
// with the same error, and accepts what it accepts.
func TestNewStrMatchingErrors(t *testing.T) {
	for _, p := range []string{"(", "[z-a]", "a**", "x{1001}", `\8`, "(?P<n>a)(?P<n>b)", "[0-9a-f]{128}", "a|", ""} {
		_, want := regexp.Compile(`^(?:` + p + `)$`)
		typ, got := NewStrMatching(p)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("NewStrMatching(%q): error %v, compiling gives %v", p, got, want)
		}
		if got == nil && typ.check(cty.StringVal("a")) != regexp.MustCompile(`^(?:`+p+`)$`).MatchString("a") {
			t.Errorf("NewStrMatching(%q) does not match as the compiled pattern does", p)
		}
	}
}
