package options

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/property"
)

func TestShowValue(t *testing.T) {
	long := strings.Repeat("é", 100)
	tests := []struct {
		v    cty.Value
		want string
	}{
		{str("x"), `"x"`},
		{str("a \"q\" \\ \n\t ${x} %{y} $z"), `"a \"q\" \\ \n\t $${x} %%{y} $z"`},
		{str("\x01"), `"\u0001"`},
		{num(42), "42"},
		{num(-3), "-3"},
		{cty.NumberFloatVal(1.5), "1.5"},
		{cty.True, "true"},
		{cty.False, "false"},
		{cty.NullVal(cty.String), "null"},
		{cty.DynamicVal, "<unknown>"},
		{cty.UnknownVal(cty.String), "<unknown>"},
		{cty.NilVal, "<nothing>"},
		{tuple(num(1), num(2)), "[1, 2]"},
		{cty.EmptyTupleVal, "[]"},
		{cty.ListVal([]cty.Value{str("a")}), `["a"]`},
		{obj("a", num(1), "b", str("x")), `{ a = 1, b = "x" }`},
		{obj("a/b", num(1)), `{ "a/b" = 1 }`},
		{cty.EmptyObjectVal, "{}"},
		{cty.MapVal(map[string]cty.Value{"k": num(1)}), "{ k = 1 }"},
		{lazy(num(1), 1), "<lazy>"},
		{tuple(lazy(num(1), 1)), "[<lazy>]"},
		{property.RefVal(fakeRef{obj()}), "<namespace>"},
		{mkIf(cty.True, num(1)), "mkIf(..., ...)"},
		{mkForce(num(1)), "mkOverride(50, 1)"},
		{mkBefore(strs("a")), `mkOrder(500, ["a"])`},
		{mkMerge(num(1)), "mkMerge([1])"},
		{str(long), `"` + strings.Repeat("é", 38) + "..."},
	}
	for _, tt := range tests {
		got := ShowValue(tt.v)
		if got != tt.want {
			t.Errorf("ShowValue = %s, want %s", got, tt.want)
		}
		if !utf8.ValidString(got) || len(got) > showLimit {
			t.Errorf("ShowValue = %q: invalid or too long", got)
		}
	}
	// Long collections stop early and are cut.
	var many []cty.Value
	for i := 0; i < 1000; i++ {
		many = append(many, num(int64(i)))
	}
	if got := ShowValue(cty.TupleVal(many)); len(got) != showLimit || !strings.HasSuffix(got, "...") {
		t.Errorf("long tuple: %q", got)
	}
	// showForced forces thunks but not namespaces, and not mkIf bodies.
	p := &probe{v: num(1)}
	if got := showForced(tuple(lazy(str("x"), 1), property.RefVal(fakeRef{obj()}), mkIf(cty.True, property.LazyVal(p)))); got != `["x", <namespace>, mkIf(..., ...)]` {
		t.Errorf("showForced = %s", got)
	}
	if p.forced {
		t.Errorf("showForced forced an mkIf body")
	}
}

func TestDidYouMean(t *testing.T) {
	candidates := []string{"enable", "port", "ports", "address", "hostname"}
	tests := map[string]string{
		"enabel":     "enable",
		"prot":       "port",
		"portz":      "port",  // a tie with "ports"
		"port":       "ports", // the exact name is never suggested
		"adress":     "address",
		"hostName":   "hostname",
		"xyz":        "",
		"":           "",
		"completely": "",
	}
	for name, want := range tests {
		if got := DidYouMean(name, candidates); got != want {
			t.Errorf("DidYouMean(%q) = %q, want %q", name, got, want)
		}
	}
	// Ties go to the candidate that sorts first, whatever the order.
	if a, b := DidYouMean("ab", []string{"ac", "aa"}), DidYouMean("ab", []string{"aa", "ac"}); a != "aa" || b != "aa" {
		t.Errorf("ties: %q %q", a, b)
	}
}
