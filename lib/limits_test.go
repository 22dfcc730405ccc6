package lib

import (
	"errors"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

func strVal(s string) cty.Value { return cty.StringVal(s) }

// rangeList is [0, 1, ..., n-1].
func rangeList(n int) cty.Value {
	vals := make([]cty.Value, n)
	for i := range vals {
		vals[i] = cty.NumberIntVal(int64(i))
	}
	return cty.TupleVal(vals)
}

// repeated is a tuple holding v n times: large when written out, small in
// memory.
func repeated(v cty.Value, n int) cty.Value {
	vals := make([]cty.Value, n)
	for i := range vals {
		vals[i] = v
	}
	return cty.TupleVal(vals)
}

func TestCheckCall(t *testing.T) {
	l := Limits{Elements: 1000, StringBytes: 1 << 20}
	kilo := strVal(strings.Repeat("x", 1024))
	mega := strVal(strings.Repeat("x", 1<<20))
	for _, c := range []struct {
		name string
		fn   function.Function
		args []cty.Value
		want string // the limit passed ("elements", "string"), "bound" for a bound of the function (format's widths), "" for none
	}{
		{"setproduct fits", stdlib.SetProductFunc, []cty.Value{rangeList(10), rangeList(100)}, ""},
		{"setproduct over", stdlib.SetProductFunc, []cty.Value{rangeList(10), rangeList(10), rangeList(11)}, "elements"},
		{"setproduct empty", stdlib.SetProductFunc, []cty.Value{rangeList(0), rangeList(1000), rangeList(1000)}, ""},
		{"join fits", stdlib.JoinFunc, []cty.Value{strVal(","), repeated(kilo, 1000)}, ""},
		{"join over", stdlib.JoinFunc, []cty.Value{strVal(""), repeated(kilo, 1025)}, "string"},
		{"concat over", stdlib.ConcatFunc, []cty.Value{rangeList(600), rangeList(600)}, "elements"},
		{"flatten over", stdlib.FlattenFunc, []cty.Value{repeated(rangeList(100), 11)}, "elements"},
		{"flatten fits", stdlib.FlattenFunc, []cty.Value{repeated(rangeList(100), 10)}, ""},
		{"format width", stdlib.FormatFunc, []cty.Value{strVal("%99999999d"), cty.NumberIntVal(1)}, "bound"},
		{"format precision", stdlib.FormatFunc, []cty.Value{strVal("%.20000f"), cty.NumberIntVal(1)}, "bound"},
		{"format fits", stdlib.FormatFunc, []cty.Value{strVal("%-40s|%5.2f|%%|%[1]s"), strVal("a"), cty.NumberIntVal(1)}, ""},
		{"format repeats a large argument", stdlib.FormatFunc, []cty.Value{strVal("%[1]s%[1]s"), mega}, "string"},
		{"jsonencode of a shared value", JSONEncodeFunc, []cty.Value{repeated(kilo, 2000)}, "string"},
		{"indent", stdlib.IndentFunc, []cty.Value{cty.NumberIntVal(1 << 20), strVal("a\nb")}, "string"},
		{"split", stdlib.SplitFunc, []cty.Value{strVal(""), strVal(strings.Repeat("ab", 600))}, "elements"},
		{"replace literal", ReplaceFunc, []cty.Value{kilo, strVal("x"), kilo}, "string"},
		{"replace regex", ReplaceFunc, []cty.Value{kilo, strVal("/x/"), kilo}, "string"},
		{"replace fits", ReplaceFunc, []cty.Value{kilo, strVal("y"), kilo}, ""},
		{"regexall", stdlib.RegexAllFunc, []cty.Value{strVal("x"), kilo}, "elements"},
		{"jsondecode", stdlib.JSONDecodeFunc, []cty.Value{strVal("[" + strings.Repeat("1,", 1000) + "1]")}, "elements"},
		{"length is not checked", LengthFunc, []cty.Value{repeated(mega, 10000)}, ""},
		{"unknown arguments are not checked", stdlib.JoinFunc, []cty.Value{strVal(""), cty.UnknownVal(cty.List(cty.String))}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := CheckCall(c.fn, c.args, l)
			var tooLarge *TooLargeError
			var bound *BoundError
			got := ""
			switch {
			case errors.As(err, &tooLarge):
				got = tooLarge.Limit
			case errors.As(err, &bound):
				got = "bound"
			case err != nil:
				t.Fatalf("CheckCall: %v, neither a TooLargeError nor a BoundError", err)
			}
			if got != c.want {
				t.Fatalf("CheckCall: %v (%q), want %q", err, got, c.want)
			}
		})
	}
}

// TestCheckCallWrongTypes feeds every checked function arguments of every
// kind in every position (a fuzzer found indent("", "") panicking in its
// check): CheckCall must leave a wrong type to the function, which says
// what is wrong, and neither may panic.
func TestCheckCallWrongTypes(t *testing.T) {
	l := Limits{Elements: 1000, StringBytes: 1 << 20}
	kinds := []cty.Value{
		strVal(""), strVal("a\nb"), cty.NumberIntVal(3), cty.True,
		rangeList(2), cty.TupleVal([]cty.Value{strVal("a"), cty.NumberIntVal(1)}),
		cty.ObjectVal(map[string]cty.Value{"a": strVal("b")}),
		cty.NullVal(cty.String), cty.DynamicVal,
	}
	for fn := range callChecks {
		params, vp := ParamsAndVarParam(fn)
		n := len(params)
		if vp != nil {
			n++
		}
		for pos := 0; pos < n; pos++ {
			for _, k := range kinds {
				args := make([]cty.Value, n)
				for i := range args {
					args[i] = strVal("x")
				}
				args[pos] = k
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("%s with %#v at %d: panic %v", fn.Description(), k, pos, r)
						}
					}()
					if conv, err := CheckCall(fn, args, l); err == nil {
						Call(fn, conv)
					}
				}()
			}
		}
	}
}
