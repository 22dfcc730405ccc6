package lib

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestKeyValueEncode(t *testing.T) {
	str, num := cty.StringVal, cty.NumberIntVal
	obj := func(m map[string]cty.Value) cty.Value { return cty.ObjectVal(m) }
	list := func(vs ...cty.Value) cty.Value { return cty.TupleVal(vs) }
	sshd := obj(map[string]cty.Value{"separator": str(" "), "listsAsDuplicateKeys": cty.True, "true": str("yes"), "false": str("no")})
	tests := []struct {
		name          string
		value, opts   cty.Value
		want, wantErr string
	}{
		{"defaults", obj(map[string]cty.Value{"b": num(2), "a": str("x y"), "c": cty.True, "d": cty.NullVal(cty.String), "e": cty.NumberFloatVal(1.5)}), cty.EmptyObjectVal,
			"a=x y\nb=2\nc=true\ne=1.5\n", ""},
		{"sshd", obj(map[string]cty.Value{"PasswordAuthentication": cty.False, "AcceptEnv": list(str("LANG"), cty.NullVal(cty.String), str("LC_*")), "Port": num(22)}), sshd,
			"AcceptEnv LANG\nAcceptEnv LC_*\nPasswordAuthentication no\nPort 22\n", ""},
		{"joined lists", obj(map[string]cty.Value{"k": list(str("a"), str("b")), "empty": cty.EmptyTupleVal}), obj(map[string]cty.Value{"listSeparator": str(",")}),
			"k=a,b\n", ""},
		{"map", cty.MapVal(map[string]cty.Value{"z": str("1"), "y": str("2")}), obj(map[string]cty.Value{"separator": str(": ")}),
			"y: 2\nz: 1\n", ""},
		{"not an object", str("x"), cty.EmptyObjectVal, "", "is an object or a map"},
		{"nested object", obj(map[string]cty.Value{"a": obj(map[string]cty.Value{"b": num(1)})}), cty.EmptyObjectVal, "", "has no sections"},
		{"list in list", obj(map[string]cty.Value{"a": list(list(num(1)))}), cty.EmptyObjectVal, "", "list inside a list"},
		{"newline", obj(map[string]cty.Value{"a": str("x\ny")}), cty.EmptyObjectVal, "", "newline"},
		{"separator in key", obj(map[string]cty.Value{"a=b": num(1)}), cty.EmptyObjectVal, "", "cannot be a key"},
		{"unknown option", obj(map[string]cty.Value{"a": num(1)}), obj(map[string]cty.Value{"sep": str(" ")}), "", `unknown option "sep"`},
		{"empty separator", obj(map[string]cty.Value{"a": num(1)}), obj(map[string]cty.Value{"separator": str("")}), "", "cannot be empty"},
		{"options not an object", obj(map[string]cty.Value{"a": num(1)}), str(" "), "", "options are an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Call(KeyValueEncodeFunc, []cty.Value{tt.value, tt.opts})
			if checkError(t, err, tt.wantErr) {
				return
			}
			if got.AsString() != tt.want {
				t.Errorf("got %q, want %q", got.AsString(), tt.want)
			}
		})
	}
}
