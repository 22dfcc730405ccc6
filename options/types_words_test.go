package options

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestWordTypes checks the types of package lib's word rules: each is a
// type name, accepts what its rule accepts, and a refused value's error
// says what breaks the rule, also inside nullOr, listOf and either.
func TestWordTypes(t *testing.T) {
	tests := []struct {
		typ     string
		value   cty.Value
		problem string // "" when the value is accepted
	}{
		{"userName", str("alice"), ""},
		{"userName", str("evil root"), "It is refused because it holds a space"},
		{"nullOr(pathWord)", str("/bin/sh\nm evil root"), "It is refused because it holds a newline"},
		{"nullOr(pathWord)", cty.NullVal(cty.String), ""},
		{`either(enum([""]), userName)`, str(""), ""},
		{`either(enum([""]), userName)`, str("a;b"), "It is refused because it holds ';'"},
		{"unitName", str("-x.service"), "It is refused because it starts with -, which systemctl reads as an option"},
		{"interfaceName", str(`eth"0`), `It is refused because it holds '"'`},
		{"host", str("pool.example iburst"), "It is refused because it holds a space"},
		{"word", str("%u"), ""},
		{"fileName", str("../../etc/cron.d/x"), "It is refused because it holds /, which makes it a path"},
		{"listOf(word)", cty.TupleVal([]cty.Value{str("a"), str("b c")}), "It is refused because it holds a space"},
	}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			typ, diags := parseSrc(t, tt.typ, nil)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			_, diags = MergeDefinitions(Path{"o"}, typ, []Def{{Value: tt.value, Range: at(1)}})
			switch {
			case tt.problem == "" && diags.HasErrors():
				t.Fatalf("refused: %s", diags.Error())
			case tt.problem != "" && !diags.HasErrors():
				t.Fatalf("accepted %#v", tt.value)
			case tt.problem != "" && !strings.Contains(diags[0].Detail, tt.problem):
				t.Fatalf("the error does not say %q:\n%s", tt.problem, diags[0].Detail)
			}
		})
	}
}
