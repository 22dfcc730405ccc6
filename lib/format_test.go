package lib

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func TestFormatEncode(t *testing.T) {
	str, num := cty.StringVal, cty.NumberIntVal
	obj := func(m map[string]cty.Value) cty.Value { return cty.ObjectVal(m) }
	list := func(vs ...cty.Value) cty.Value { return cty.TupleVal(vs) }
	format := func(kind string, params map[string]cty.Value) cty.Value {
		f, err := NewFormat(kind, obj(params))
		if err != nil {
			t.Fatal(err)
		}
		return f.Value()
	}
	sshd := format(FormatKeyValue, map[string]cty.Value{"separator": str(" "), "true": str("yes"), "false": str("no"), "listsAsDuplicateKeys": cty.True})
	ini := format(FormatINI, nil)
	iniDup := format(FormatINI, map[string]cty.Value{"listsAsDuplicateKeys": cty.True, "separator": str(" = ")})
	iniGlobal := format(FormatINIWithGlobalSection, map[string]cty.Value{"listSeparator": str(",")})
	settings := obj(map[string]cty.Value{"b": list(num(1), str("x")), "a": obj(map[string]cty.Value{"c": cty.True, "n": cty.NullVal(cty.String)}), "z": cty.NullVal(cty.String)})
	tests := []struct {
		name          string
		format, value cty.Value
		want, wantErr string
	}{
		{"json", format(FormatJSON, nil), settings, "{\n  \"a\": {\n    \"c\": true,\n    \"n\": null\n  },\n  \"b\": [\n    1,\n    \"x\"\n  ],\n  \"z\": null\n}\n", ""},
		{"json null", format(FormatJSON, nil), cty.NullVal(cty.DynamicPseudoType), "null\n", ""},
		{"yaml", format(FormatYAML, nil), settings, "a:\n  c: true\n  \"n\": null\nb:\n  - 1\n  - x\nz: null\n", ""},
		{"toml", format(FormatTOML, nil), obj(map[string]cty.Value{"b": list(num(1), num(2)), "a": obj(map[string]cty.Value{"c": cty.True})}), "b = [1, 2]\n\n[a]\nc = true\n", ""},
		{"keyValue", sshd, obj(map[string]cty.Value{"PermitRootLogin": str("no"), "UsePAM": cty.True, "AcceptEnv": list(str("LANG"), str("LC_*")), "Unset": cty.NullVal(cty.Bool)}),
			"AcceptEnv LANG\nAcceptEnv LC_*\nPermitRootLogin no\nUsePAM yes\n", ""},
		{"ini", ini, obj(map[string]cty.Value{"b": obj(map[string]cty.Value{"k": num(1)}), "a": obj(map[string]cty.Value{"on": cty.False, "s": str("x y")})}),
			"[a]\non=false\ns=x y\n\n[b]\nk=1\n", ""},
		{"ini duplicate keys", iniDup, obj(map[string]cty.Value{"s": obj(map[string]cty.Value{"k": list(str("a"), str("b"))})}), "[s]\nk = a\nk = b\n", ""},
		{"ini with global section", iniGlobal, obj(map[string]cty.Value{
			"globalSection": obj(map[string]cty.Value{"top": str("1"), "l": list(str("a"), str("b"))}),
			"sections":      obj(map[string]cty.Value{"s": obj(map[string]cty.Value{"k": str("v")})}),
		}), "l=a,b\ntop=1\n\n[s]\nk=v\n", ""},
		{"ini with global section only", iniGlobal, obj(map[string]cty.Value{"globalSection": obj(map[string]cty.Value{"k": num(1)})}), "k=1\n", ""},
		{"ini without global keys", ini, obj(map[string]cty.Value{"k": num(1)}), "", "at k: a section of an INI file is an object of keys, not number"},
		{"ini with global section, stray key", iniGlobal, obj(map[string]cty.Value{"global": cty.EmptyObjectVal}), "", `at global: an INI file with a global section has globalSection and sections, not "global"`},
		{"ini bad key", ini, obj(map[string]cty.Value{"s": obj(map[string]cty.Value{"#k": num(1)})}), "", `at s["#k"]: "#k" cannot be an INI key`},
		{"keyValue nested", sshd, obj(map[string]cty.Value{"Match": obj(map[string]cty.Value{"User": str("x")})}), "", "at Match: a value cannot be an object (a key-value file has no sections)"},
		{"toml null in a list", format(FormatTOML, nil), obj(map[string]cty.Value{"a": list(cty.NullVal(cty.String))}), "", "at a[0]:"},
		{"keyValue null file", sshd, cty.NullVal(cty.DynamicPseudoType), "", "a keyValue file cannot be null"},
		{"not a format", str("json"), settings, "", "a format is an object with a kind"},
		{"unknown kind", obj(map[string]cty.Value{"kind": str("xml")}), settings, "", `unknown format "xml"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Call(FormatEncodeFunc, []cty.Value{tt.format, tt.value})
			if checkError(t, err, tt.wantErr) {
				return
			}
			if diff := cmp.Diff(tt.want, got.AsString()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewFormat(t *testing.T) {
	obj := func(m map[string]cty.Value) cty.Value { return cty.ObjectVal(m) }
	tests := []struct {
		name, kind string
		params     cty.Value
		lists      bool
		wantErr    string
	}{
		{"json", FormatJSON, cty.NullVal(cty.EmptyObject), false, ""},
		{"json with a parameter", FormatJSON, obj(map[string]cty.Value{"indent": cty.NumberIntVal(2)}), false, "the json format takes no parameters"},
		{"keyValue atoms", FormatKeyValue, cty.EmptyObjectVal, false, ""},
		{"keyValue duplicate keys", FormatKeyValue, obj(map[string]cty.Value{"listsAsDuplicateKeys": cty.True}), true, ""},
		{"keyValue joined lists", FormatKeyValue, obj(map[string]cty.Value{"listSeparator": cty.StringVal(",")}), true, ""},
		{"keyValue both", FormatKeyValue, obj(map[string]cty.Value{"listSeparator": cty.StringVal(","), "listsAsDuplicateKeys": cty.True}), false, "exclude each other"},
		{"ini unknown parameter", FormatINI, obj(map[string]cty.Value{"mkKeyValue": cty.StringVal("x")}), false, `unknown option "mkKeyValue"`},
		{"unknown kind", "xml", cty.EmptyObjectVal, false, `unknown format "xml" (expected one of ini, iniWithGlobalSection, json, keyValue, toml, yaml)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := NewFormat(tt.kind, tt.params)
			if checkError(t, err, tt.wantErr) {
				return
			}
			if f.Lists() != tt.lists {
				t.Errorf("Lists() = %v, want %v", f.Lists(), tt.lists)
			}
			back, err := FormatOf(f.Value())
			if err != nil || back.Kind != f.Kind || back.kv != f.kv {
				t.Errorf("FormatOf(Value()) = %+v, %v; want %+v", back, err, f)
			}
		})
	}
}

// checkError fails t if err is not what wantErr asks for: an error
// containing wantErr, or none when wantErr is empty. It reports whether
// there was an error (so the test has nothing more to check).
func checkError(t *testing.T, err error, wantErr string) bool {
	t.Helper()
	switch {
	case wantErr == "" && err != nil:
		t.Fatal(err)
	case wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr)):
		t.Fatalf("error %v, want one containing %q", err, wantErr)
	}
	return err != nil
}
