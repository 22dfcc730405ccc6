package lib

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty-debug/ctydebug"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/nodegen/nodegen/property"
)

// funcCase is one call of a library function, by its name in Functions:
// it returns want, or fails with an error containing wantErr.
type funcCase struct {
	fn      string
	args    []cty.Value
	want    cty.Value
	wantErr string
}

// runFuncCases runs the cases as subtests named after the function.
func runFuncCases(t *testing.T, cases []funcCase) {
	t.Helper()
	funcs := Functions()
	for i, c := range cases {
		t.Run(fmt.Sprintf("%s/%d", c.fn, i), func(t *testing.T) {
			f, ok := funcs[c.fn]
			if !ok {
				t.Fatalf("no function %q", c.fn)
			}
			got, err := Call(f, c.args)
			if c.wantErr != "" {
				if err == nil {
					t.Fatalf("succeeded with %#v; want an error containing %q", got, c.wantErr)
				}
				if !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %q; want one containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %s", err)
			}
			if diff := cmp.Diff(c.want, got, ctydebug.CmpOptions); diff != "" {
				t.Errorf("wrong result (-want +got):\n%s", diff)
			}
		})
	}
}

// Shorthands for the tables.
var (
	str  = cty.StringVal
	num  = cty.NumberIntVal
	flt  = cty.NumberFloatVal
	tup  = func(vs ...cty.Value) cty.Value { return cty.TupleVal(vs) }
	list = func(vs ...cty.Value) cty.Value { return cty.ListVal(vs) }
	strs = func(ss ...string) cty.Value {
		vs := make([]cty.Value, len(ss))
		for i, s := range ss {
			vs[i] = cty.StringVal(s)
		}
		return cty.ListVal(vs)
	}
	obj = cty.ObjectVal
)

// args is a shorthand for an argument list.
func args(vs ...cty.Value) []cty.Value { return vs }

func TestFunctionsNames(t *testing.T) {
	want := strings.Fields(`abs ceil floor log max min parseint pow signum
		chomp format formatlist indent join lower regex regexall replace shellquote split
		strrev substr title trim trimprefix trimsuffix trimspace upper
		startswith endswith strcontains dirname basename cidrcontains
		alltrue anytrue chunklist coalesce coalescelist compact concat contains
		distinct element flatten index keys length lookup merge range reverse
		setintersection setproduct setsubtract setunion slice sort sum
		transpose values zipmap
		jsonencode jsondecode csvdecode base64encode base64decode urlencode
		sha256 sha1 md5 tostring tonumber tobool tolist toset tomap
		throw yamlencode tomlencode iniencode keyvalueencode formatencode systemdunit systemdexecarg`)
	funcs := Functions()
	for _, name := range want {
		if _, ok := funcs[name]; !ok {
			t.Errorf("missing function %q", name)
		}
	}
	if len(funcs) != len(want) {
		t.Errorf("Functions has %d functions; want %d", len(funcs), len(want))
	}
	for _, name := range []string{"file", "try", "can", "mkIf", "mkMerge", "mkOverride", "mkDefault", "mkForce", "mkOrder", "mkBefore", "mkAfter", "formatdate"} {
		if _, ok := funcs[name]; ok {
			t.Errorf("Functions has %q; it must not", name)
		}
	}
	for name, f := range funcs {
		if f.Description() == "" {
			t.Errorf("function %q has no description", name)
		}
	}
	// Each call returns a map of its own.
	funcs["file"] = ThrowFunc
	if _, ok := Functions()["file"]; ok {
		t.Error("Functions returned a shared map")
	}
}

func TestThrow(t *testing.T) {
	_, err := ThrowFunc.Call(args(str("port must be set")))
	var te *ThrowError
	if !errors.As(err, &te) {
		t.Fatalf("error %#v is not a *ThrowError", err)
	}
	if te.Msg != "port must be set" || err.Error() != "port must be set" {
		t.Errorf("message %q, error %q; want %q", te.Msg, err.Error(), "port must be set")
	}
	// Its type is dynamic, so that it fits anywhere.
	ty, err := ThrowFunc.ReturnType([]cty.Type{cty.String})
	if err != nil || ty != cty.DynamicPseudoType {
		t.Errorf("return type %#v, %v; want dynamic", ty, err)
	}
	// A number converts to a message.
	_, err = Call(Functions()["throw"], args(num(42)))
	if !errors.As(err, &te) || te.Msg != "42" {
		t.Errorf("throw(42): %#v", err)
	}
	// Null is not a message.
	_, err = ThrowFunc.Call(args(cty.NullVal(cty.String)))
	if errors.As(err, &te) || err == nil {
		t.Errorf("throw(null): %#v; want an argument error", err)
	}
	// An unknown message gives an unknown value, as for any function.
	v, err := ThrowFunc.Call(args(cty.UnknownVal(cty.String)))
	if err != nil || v.IsKnown() {
		t.Errorf("throw(unknown) = %#v, %v", v, err)
	}
}

func TestNumberFunctions(t *testing.T) {
	runFuncCases(t, []funcCase{
		{fn: "abs", args: args(num(-3)), want: num(3)},
		{fn: "abs", args: args(str("x")), wantErr: "a number is required"},
		{fn: "ceil", args: args(flt(1.2)), want: num(2)},
		{fn: "floor", args: args(flt(-1.2)), want: num(-2)},
		{fn: "log", args: args(num(8), num(2)), want: num(3)},
		{fn: "max", args: args(num(1), num(7), num(3)), want: num(7)},
		{fn: "max", args: args(), wantErr: "must pass at least one number"},
		{fn: "min", args: args(num(1), num(7), num(-3)), want: num(-3)},
		{fn: "parseint", args: args(str("ff"), num(16)), want: num(255)},
		{fn: "parseint", args: args(str("zz"), num(10)), wantErr: "cannot parse"},
		{fn: "pow", args: args(num(2), num(10)), want: num(1024)},
		{fn: "signum", args: args(num(-9)), want: num(-1)},
	})
}

func TestStringFunctions(t *testing.T) {
	runFuncCases(t, []funcCase{
		{fn: "chomp", args: args(str("x\n\n")), want: str("x")},
		{fn: "format", args: args(str("%s:%d"), str("host"), num(80)), want: str("host:80")},
		{fn: "format", args: args(str("%d"), str("x")), wantErr: "unsupported value"},
		{fn: "formatlist", args: args(str("-%s"), strs("a", "b")), want: strs("-a", "-b")},
		{fn: "indent", args: args(num(2), str("a\nb")), want: str("a\n  b")},
		{fn: "join", args: args(str(","), tup(str("a"), str("b"))), want: str("a,b")},
		{fn: "join", args: args(str(","), tup(str("a"), obj(map[string]cty.Value{}))), wantErr: "string required"},
		{fn: "lower", args: args(str("AbC")), want: str("abc")},
		{fn: "upper", args: args(str("AbC")), want: str("ABC")},
		{fn: "regex", args: args(str("[0-9]+"), str("port 8080")), want: str("8080")},
		{fn: "regex", args: args(str("[0-9]+"), str("none")), wantErr: "pattern did not match"},
		{fn: "regexall", args: args(str("[0-9]"), str("a1b2")), want: strs("1", "2")},
		{fn: "replace", args: args(str("a.b.c"), str("."), str("-")), want: str("a-b-c")},
		{fn: "shellquote", args: args(str("/etc/ssh/k$(touch x)")), want: str("'/etc/ssh/k$(touch x)'")},
		{fn: "shellquote", args: args(str("a'; echo '")), want: str(`'a'\''; echo '\'''`)},
		{fn: "replace", args: args(str("a.b.c"), str("/[.]b/"), str("")), want: str("a.c")},
		{fn: "replace", args: args(str("port=80"), str("/(\\w+)=(\\d+)/"), str("$2:$1")), want: str("80:port")},
		{fn: "replace", args: args(str("a/b"), str("/"), str("|")), want: str("a|b")},
		{fn: "replace", args: args(str("x"), str("/(/"), str("")), wantErr: "invalid regular expression"},
		{fn: "split", args: args(str(","), str("a,b")), want: strs("a", "b")},
		{fn: "strrev", args: args(str("abc")), want: str("cba")},
		{fn: "dirname", args: args(str("/var/lib/kubernetes/ca.pem")), want: str("/var/lib/kubernetes")},
		{fn: "dirname", args: args(str("ca.pem")), want: str(".")},
		{fn: "dirname", args: args(str("/ca.pem")), want: str("/")},
		{fn: "basename", args: args(str("/var/lib/kubernetes/ca.pem")), want: str("ca.pem")},
		{fn: "basename", args: args(str("/var/lib/")), want: str("lib")},
		{fn: "substr", args: args(str("hello"), num(1), num(3)), want: str("ell")},
		{fn: "title", args: args(str("hello world")), want: str("Hello World")},
		{fn: "trim", args: args(str("--x--"), str("-")), want: str("x")},
		{fn: "trimprefix", args: args(str("v1.2"), str("v")), want: str("1.2")},
		{fn: "trimsuffix", args: args(str("a.hcl"), str(".hcl")), want: str("a")},
		{fn: "trimspace", args: args(str(" \tx\n")), want: str("x")},
		{fn: "startswith", args: args(str("kubelet"), str("kube")), want: cty.True},
		{fn: "startswith", args: args(str("kubelet"), str("let")), want: cty.False},
		{fn: "startswith", args: args(obj(map[string]cty.Value{}), str("a")), wantErr: "string required"},
		{fn: "endswith", args: args(str("kubelet"), str("let")), want: cty.True},
		{fn: "endswith", args: args(str("kubelet"), str("kube")), want: cty.False},
		{fn: "strcontains", args: args(str("kubelet"), str("bel")), want: cty.True},
		{fn: "strcontains", args: args(str("kubelet"), str("x")), want: cty.False},
		{fn: "strcontains", args: args(cty.NullVal(cty.String), str("x")), wantErr: "must not be null"},
	})
}

func TestCIDRContains(t *testing.T) {
	runFuncCases(t, []funcCase{
		{fn: "cidrcontains", args: args(str("10.0.0.0/24"), str("10.0.0.1")), want: cty.True},
		{fn: "cidrcontains", args: args(str("10.0.0.0/24"), str("10.0.1.1")), want: cty.False},
		{fn: "cidrcontains", args: args(str("10.0.0.7/24"), str("10.0.0.200")), want: cty.True},
		{fn: "cidrcontains", args: args(str("10.0.0.0/8"), str("10.1.0.0/16")), want: cty.True},
		{fn: "cidrcontains", args: args(str("10.1.0.0/16"), str("10.0.0.0/8")), want: cty.False},
		{fn: "cidrcontains", args: args(str("10.0.0.0/24"), str("10.0.0.0/24")), want: cty.True},
		{fn: "cidrcontains", args: args(str("fd00::/108"), str("fd00::10")), want: cty.True},
		{fn: "cidrcontains", args: args(str("fd00::/108"), str("fd01::10")), want: cty.False},
		{fn: "cidrcontains", args: args(str("0.0.0.0/0"), str("192.168.50.10")), want: cty.True},
		{fn: "cidrcontains", args: args(str("10.0.0.0/24"), str("fd00::1")), wantErr: "fd00::1 is IPv6 and 10.0.0.0/24 is IPv4"},
		{fn: "cidrcontains", args: args(str("10.0.0.0"), str("10.0.0.1")), wantErr: `"10.0.0.0" is not a CIDR prefix`},
		{fn: "cidrcontains", args: args(str("10.0.0.0/24"), str("master01")), wantErr: `"master01" is not an IP address`},
		{fn: "cidrcontains", args: args(str("10.0.0.0/24"), str("10.0.0.0/33")), wantErr: `"10.0.0.0/33" is not a CIDR prefix`},
	})
}

func TestCollectionFunctions(t *testing.T) {
	tru, fls := cty.True, cty.False
	ab := obj(map[string]cty.Value{"a": num(1), "b": str("x")})
	runFuncCases(t, []funcCase{
		{fn: "alltrue", args: args(tup(tru, tru)), want: tru},
		{fn: "alltrue", args: args(tup(tru, fls)), want: fls},
		{fn: "alltrue", args: args(cty.EmptyTupleVal), want: tru},
		{fn: "alltrue", args: args(tup(tru, cty.NullVal(cty.Bool))), want: fls},
		{fn: "alltrue", args: args(tup(str("x"))), wantErr: "a bool is required"},
		{fn: "anytrue", args: args(tup(fls, tru)), want: tru},
		{fn: "anytrue", args: args(tup(fls, fls)), want: fls},
		{fn: "anytrue", args: args(cty.EmptyTupleVal), want: fls},
		{fn: "anytrue", args: args(tup(cty.UnknownVal(cty.Bool), tru)), want: tru},
		{fn: "anytrue", args: args(tup(cty.UnknownVal(cty.Bool), fls)), want: cty.UnknownVal(cty.Bool).RefineNotNull()},
		{fn: "chunklist", args: args(strs("a", "b", "c"), num(2)), want: list(strs("a", "b"), strs("c"))},
		{fn: "coalesce", args: args(cty.NullVal(cty.String), str(""), str("x")), want: str("x")},
		{fn: "coalesce", args: args(cty.NullVal(cty.String), str("")), wantErr: "neither null nor an empty string"},
		{fn: "coalesce", args: args(cty.NullVal(cty.Number), num(0), num(1)), want: num(0)},
		{fn: "coalesce", args: args(num(1), str("x")), want: str("1")},
		{fn: "coalesce", args: args(num(1), cty.EmptyObjectVal), wantErr: "same type"},
		{fn: "coalesce", args: args(), wantErr: "at least one argument"},
		{fn: "coalescelist", args: args(cty.EmptyTupleVal, tup(num(1))), want: tup(num(1))},
		{fn: "compact", args: args(tup(str("a"), str(""), str("b"))), want: strs("a", "b")},
		{fn: "concat", args: args(tup(num(1)), tup(str("x"))), want: tup(num(1), str("x"))},
		{fn: "contains", args: args(tup(str("a"), str("b")), str("b")), want: tru},
		{fn: "contains", args: args(tup(str("a")), str("c")), want: fls},
		{fn: "distinct", args: args(strs("a", "b", "a")), want: strs("a", "b")},
		{fn: "element", args: args(tup(str("a"), str("b")), num(3)), want: str("b")},
		{fn: "element", args: args(cty.EmptyTupleVal, num(0)), wantErr: "empty"},
		{fn: "flatten", args: args(tup(tup(num(1)), tup(num(2), tup(num(3))))), want: tup(num(1), num(2), num(3))},
		{fn: "index", args: args(tup(str("a"), str("b")), str("b")), want: num(1)},
		{fn: "index", args: args(strs("a", "b"), str("a")), want: num(0)},
		{fn: "index", args: args(tup(str("a")), str("z")), wantErr: "not in the list"},
		{fn: "index", args: args(str("ab"), str("a")), wantErr: "must be a list or a tuple"},
		{fn: "keys", args: args(ab), want: tup(str("a"), str("b"))},
		{fn: "keys", args: args(cty.MapVal(map[string]cty.Value{"y": num(1), "x": num(2)})), want: strs("x", "y")},
		{fn: "keys", args: args(str("x")), wantErr: "must have map or object type"},
		{fn: "length", args: args(str("héllo")), want: num(5)},
		{fn: "length", args: args(str("ab\r\nc\n")), want: num(5)},
		{fn: "length", args: args(str("e\u0301\r\n")), want: num(2)},
		{fn: "length", args: args(tup(num(1), str("x"))), want: num(2)},
		{fn: "length", args: args(strs("a", "b", "c")), want: num(3)},
		{fn: "length", args: args(cty.SetVal([]cty.Value{str("a")})), want: num(1)},
		{fn: "length", args: args(ab), want: num(2)},
		{fn: "length", args: args(cty.MapValEmpty(cty.String)), want: num(0)},
		{fn: "length", args: args(cty.UnknownVal(cty.Tuple([]cty.Type{cty.String, cty.Bool}))), want: cty.UnknownVal(cty.Number).RefineNotNull()},
		{fn: "length", args: args(cty.UnknownVal(cty.List(cty.String))), want: cty.UnknownVal(cty.Number).RefineNotNull()},
		{fn: "length", args: args(cty.ListVal([]cty.Value{str("a"), cty.UnknownVal(cty.String)})), want: num(2)},
		{fn: "length", args: args(cty.ObjectVal(map[string]cty.Value{"a": cty.UnknownVal(cty.String)})), want: num(1)},
		{fn: "length", args: args(cty.TupleVal(make([]cty.Value, 1500))), want: num(1500)},
		{fn: "length", args: args(num(3)), wantErr: "must be a string, a list"},
		{fn: "length", args: args(cty.NullVal(cty.String)), wantErr: "must not be null"},
		{fn: "lookup", args: args(ab, str("a"), num(0)), want: num(1)},
		{fn: "lookup", args: args(ab, str("z"), num(0)), want: num(0)},
		{fn: "lookup", args: args(cty.MapVal(map[string]cty.Value{"a": str("x")}), str("z"), str("d")), want: str("d")},
		{fn: "lookup", args: args(str("x"), str("z"), num(0)), wantErr: "requires a map"},
		{fn: "merge", args: args(ab, obj(map[string]cty.Value{"b": cty.True, "c": num(3)})), want: obj(map[string]cty.Value{"a": num(1), "b": cty.True, "c": num(3)})},
		{fn: "merge", args: args(ab, str("x")), wantErr: "must be maps or objects"},
		{fn: "range", args: args(num(3)), want: list(num(0), num(1), num(2))},
		{fn: "reverse", args: args(tup(num(1), str("x"))), want: tup(str("x"), num(1))},
		{fn: "setintersection", args: args(tup(str("a"), str("b")), tup(str("b"))), want: cty.SetVal([]cty.Value{str("b")})},
		{fn: "setproduct", args: args(strs("a"), strs("x", "y")), want: list(tup(str("a"), str("x")), tup(str("a"), str("y")))},
		{fn: "setsubtract", args: args(strs("a", "b"), strs("a")), want: cty.SetVal([]cty.Value{str("b")})},
		{fn: "setunion", args: args(strs("a"), strs("b")), want: cty.SetVal([]cty.Value{str("a"), str("b")})},
		{fn: "slice", args: args(tup(num(1), num(2), num(3)), num(1), num(3)), want: tup(num(2), num(3))},
		{fn: "slice", args: args(tup(num(1)), num(0), num(5)), wantErr: "must not be greater than the length"},
		{fn: "sort", args: args(strs("b", "a")), want: strs("a", "b")},
		{fn: "sum", args: args(tup(num(1), num(2), flt(0.5))), want: flt(3.5)},
		{fn: "sum", args: args(cty.SetVal([]cty.Value{num(4), num(5)})), want: num(9)},
		{fn: "sum", args: args(cty.EmptyTupleVal), want: num(0)},
		{fn: "sum", args: args(tup(num(1), str("2"))), want: num(3)},
		{fn: "sum", args: args(tup(num(1), str("x"))), wantErr: "element 1 must be a number"},
		{fn: "sum", args: args(tup(num(1), cty.NullVal(cty.Number))), wantErr: "element 1 is null"},
		{fn: "sum", args: args(num(1)), wantErr: "must be a list, a set or a tuple"},
		{
			fn: "transpose",
			args: args(obj(map[string]cty.Value{
				"a": tup(str("x"), str("y")),
				"b": tup(str("x")),
			})),
			want: cty.MapVal(map[string]cty.Value{"x": strs("a", "b"), "y": strs("a")}),
		},
		{fn: "transpose", args: args(cty.EmptyObjectVal), want: cty.MapValEmpty(cty.List(cty.String))},
		{fn: "transpose", args: args(obj(map[string]cty.Value{"a": tup(cty.NullVal(cty.String))})), wantErr: "contains null"},
		{fn: "transpose", args: args(str("x")), wantErr: "map of list of string required"},
		{fn: "values", args: args(ab), want: tup(num(1), str("x"))},
		{fn: "zipmap", args: args(strs("a", "b"), tup(num(1), num(2))), want: obj(map[string]cty.Value{"a": num(1), "b": num(2)})},
		{fn: "zipmap", args: args(strs("a"), tup()), wantErr: "does not match number of values"},
	})
}

func TestEncodingFunctions(t *testing.T) {
	runFuncCases(t, []funcCase{
		{fn: "base64encode", args: args(str("héllo")), want: str("aMOpbGxv")},
		{fn: "base64decode", args: args(str("aMOpbGxv")), want: str("héllo")},
		{fn: "base64decode", args: args(str("!!")), wantErr: "invalid Base64"},
		{fn: "base64decode", args: args(str("/w==")), wantErr: "not valid UTF-8"},
		{fn: "urlencode", args: args(str("Hello World!/a=b")), want: str("Hello+World%21%2Fa%3Db")},
		{fn: "md5", args: args(str("hello")), want: str("5d41402abc4b2a76b9719d911017c592")},
		{fn: "sha1", args: args(str("hello")), want: str("aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d")},
		{fn: "sha256", args: args(str("hello")), want: str("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")},
		{fn: "sha256", args: args(cty.EmptyObjectVal), wantErr: "string required"},
		{fn: "jsonencode", args: args(obj(map[string]cty.Value{"b": num(42), "a": tup(flt(0.5), cty.True, cty.NullVal(cty.String))})), want: str(`{"a":[0.5,true,null],"b":42}`)},
		{fn: "jsonencode", args: args(num(1e3)), want: str("1000")},
		{fn: "jsondecode", args: args(str(`{"a":[1,"x"]}`)), want: obj(map[string]cty.Value{"a": tup(num(1), str("x"))})},
		{fn: "jsondecode", args: args(str(`{`)), wantErr: "EOF"},
		{fn: "csvdecode", args: args(str("a,b\n1,2\n")), want: list(cty.ObjectVal(map[string]cty.Value{"a": str("1"), "b": str("2")}))},
		{fn: "csvdecode", args: args(str("a,b\n1\n")), wantErr: "wrong number of fields"},
	})
}

func TestConversionFunctions(t *testing.T) {
	runFuncCases(t, []funcCase{
		{fn: "tostring", args: args(num(42)), want: str("42")},
		{fn: "tostring", args: args(cty.True), want: str("true")},
		{fn: "tostring", args: args(cty.NullVal(cty.Number)), want: cty.NullVal(cty.String)},
		{fn: "tostring", args: args(cty.EmptyTupleVal), wantErr: "cannot convert tuple to string"},
		{fn: "tonumber", args: args(str("8080")), want: num(8080)},
		{fn: "tonumber", args: args(str("http")), wantErr: `cannot convert "http" to number`},
		{fn: "tobool", args: args(str("true")), want: cty.True},
		{fn: "tobool", args: args(str("yes")), wantErr: `cannot convert "yes" to bool`},
		{fn: "tolist", args: args(tup(str("a"), num(1))), want: strs("a", "1")},
		{fn: "tolist", args: args(tup(str("a"), cty.EmptyObjectVal)), wantErr: "cannot convert"},
		{fn: "toset", args: args(tup(str("b"), str("a"), str("b"))), want: cty.SetVal([]cty.Value{str("a"), str("b")})},
		{fn: "tomap", args: args(obj(map[string]cty.Value{"a": num(1)})), want: cty.MapVal(map[string]cty.Value{"a": num(1)})},
		{fn: "tomap", args: args(str("x")), wantErr: "cannot convert string to map"},
	})
}

// TestForeignParams checks that Call knows the parameters of every
// function of Functions without copying them on each call, for the
// functions of any one call of Functions (the conversions are not made
// anew each time), and that a function made elsewhere for one evaluation
// (as its file() is) is called with its own parameters and not kept.
func TestForeignParams(t *testing.T) {
	for name, f := range Functions() {
		if _, native := natives[f]; native {
			continue
		}
		if _, ok := foreignParams()[f]; !ok {
			t.Errorf("%s: its parameters are copied on every call", name)
		}
	}
	held := len(foreignParams())
	fresh := stdlib.MakeToFunc(cty.String)
	got, err := Call(fresh, []cty.Value{cty.NumberIntVal(7)})
	if err != nil || !got.RawEquals(cty.StringVal("7")) {
		t.Errorf("a function made for one evaluation: got %#v, %v; want \"7\"", got, err)
	}
	if len(foreignParams()) != held {
		t.Errorf("calling a function made for one evaluation kept its parameters (%d functions, then %d)", held, len(foreignParams()))
	}
}

// TestArgErrors checks that argument errors say which argument is wrong,
// so that the evaluator can point at it.
func TestArgErrors(t *testing.T) {
	for _, c := range []struct {
		f    function.Function
		args []cty.Value
		idx  int
	}{
		{ReplaceFunc, args(str("x"), str("/(/"), str("")), 1},
		{IndexFunc, args(tup(str("a")), str("b")), 1},
		{SumFunc, args(tup(str("x"))), 0},
		{YAMLEncodeFunc, args(tup(cty.CapsuleVal(property.LazyType, new(property.Lazy)))), 0},
		{TOMLEncodeFunc, args(str("x")), 0},
		{INIEncodeFunc, args(str("x")), 0},
	} {
		_, err := c.f.Call(c.args)
		var ae function.ArgError
		if !errors.As(err, &ae) || ae.Index != c.idx {
			t.Errorf("%s: error %#v; want an ArgError for argument %d", c.f.Description(), err, c.idx)
		}
	}
}

// TestCallWithoutMarks checks that Call runs this package's functions from
// their specifications (so it skips cty's mark walks), and that it computes
// what function.Function.Call computes, errors included, for them and for
// go-cty's.
func TestCallWithoutMarks(t *testing.T) {
	for _, f := range []function.Function{JSONEncodeFunc, YAMLEncodeFunc, TOMLEncodeFunc, INIEncodeFunc, SystemdUnitFunc, LengthFunc, ThrowFunc, SHA256Func} {
		if _, ok := natives[f]; !ok {
			t.Errorf("%s is not run from its specification", f.Description())
		}
	}
	list := cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})
	obj := cty.ObjectVal(map[string]cty.Value{"k": list, "n": cty.NumberIntVal(3)})
	fns := Functions()
	tests := []struct {
		name string
		args []cty.Value
	}{
		{"join", []cty.Value{cty.StringVal(","), list}},
		{"join", []cty.Value{cty.StringVal(","), cty.UnknownVal(cty.List(cty.String))}},
		{"join", []cty.Value{cty.NullVal(cty.String), list}},
		{"join", []cty.Value{cty.StringVal(",")}},
		{"jsonencode", []cty.Value{obj}},
		{"jsonencode", []cty.Value{cty.DynamicVal}},
		{"length", []cty.Value{list}},
		{"length", []cty.Value{cty.UnknownVal(cty.String)}},
		{"merge", []cty.Value{obj, cty.ObjectVal(map[string]cty.Value{"x": cty.True})}},
		{"keys", []cty.Value{obj}},
		{"upper", []cty.Value{cty.StringVal("abc")}},
		{"upper", []cty.Value{cty.StringVal("a"), cty.StringVal("b")}},
		{"element", []cty.Value{list, cty.NumberIntVal(5)}},
		{"throw", []cty.Value{cty.StringVal("boom")}},
	}
	for _, tt := range tests {
		f := fns[tt.name]
		got, gerr := Call(f, tt.args)
		want, werr := callChecked(f, tt.args)
		if (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
			t.Errorf("%s%v: error %v, want %v", tt.name, tt.args, gerr, werr)
			continue
		}
		if gerr == nil && !got.RawEquals(want) {
			t.Errorf("%s%v = %#v, want %#v", tt.name, tt.args, got, want)
		}
	}
}

// goCtyFunctions are the functions of Functions() that are go-cty's, with
// no stand-in (standins.go): Call runs them through function.Function.Call.
var goCtyFunctions = []string{
	"abs", "ceil", "chomp", "chunklist", "coalescelist", "compact", "csvdecode", "element",
	"floor", "format", "formatlist", "indent", "jsondecode", "log", "lookup",
	"lower", "max", "min", "parseint", "pow", "range",
	"reverse", "setintersection", "setproduct", "setsubtract", "setunion", "signum", "slice", "sort",
	"split", "strrev", "substr", "title", "tobool", "tolist", "tomap", "tonumber",
	"toset", "tostring", "trim", "trimprefix", "trimspace", "trimsuffix", "values", "zipmap",
}

// TestFunctionsAreNative checks that every function of Functions() that
// this package makes is made with native (or has a stand-in), so that
// Call runs it from its specification: the only others are go-cty's
// (goCtyFunctions), and those are not.
func TestFunctionsAreNative(t *testing.T) {
	foreign := map[string]bool{}
	for _, n := range goCtyFunctions {
		foreign[n] = true
	}
	fns := Functions()
	for name, f := range fns {
		_, ok := natives[f]
		switch {
		case !ok && !foreign[name]:
			t.Errorf("%s is neither made with native nor one of go-cty's functions (goCtyFunctions)", name)
		case ok && foreign[name]:
			t.Errorf("%s is listed as go-cty's, but Call runs it natively: take it off goCtyFunctions", name)
		}
	}
	for _, n := range goCtyFunctions {
		if _, ok := fns[n]; !ok {
			t.Errorf("goCtyFunctions lists %s, which Functions() does not have", n)
		}
	}
}

// TestStandIns checks that each stand-in computes what the go-cty function
// it stands in for computes through go-cty's own Call, errors included.
func TestStandIns(t *testing.T) {
	str, num := cty.StringVal, cty.NumberIntVal
	list := cty.ListVal([]cty.Value{str("a"), str("b")})
	nums := cty.ListVal([]cty.Value{num(1)})
	obj := cty.ObjectVal(map[string]cty.Value{"k": list, "n": num(3)})
	obj2 := cty.ObjectVal(map[string]cty.Value{"n": str("x"), "m": cty.True})
	m := cty.MapVal(map[string]cty.Value{"a": str("1"), "b": str("2")})
	tup := cty.TupleVal([]cty.Value{str("a"), num(1)})
	unknownList := cty.UnknownVal(cty.List(cty.String))
	values := []cty.Value{str("a"), str("b"), num(1), num(2), cty.True, cty.False, list, obj, obj2, m, tup,
		cty.NullVal(cty.String), cty.NullVal(cty.Bool), cty.NullVal(cty.DynamicPseudoType), cty.UnknownVal(cty.Bool),
		cty.UnknownVal(cty.Number), cty.DynamicVal, cty.EmptyObjectVal, cty.EmptyTupleVal, unknownList, nums}
	tests := []struct {
		f    function.Function
		args [][]cty.Value
	}{
		{stdlib.MergeFunc, [][]cty.Value{{}, {obj}, {obj, obj2}, {m, m}, {m, obj}, {obj, cty.NullVal(obj.Type())},
			{m, cty.UnknownVal(m.Type()), obj}, {cty.DynamicVal, obj}, {list}, {m, cty.MapValEmpty(cty.String)},
			{cty.MapValEmpty(cty.String)}, {cty.NullVal(m.Type())}}},
		{stdlib.UpperFunc, [][]cty.Value{{str("abc")}, {str("straße")}, {str("")}, {cty.UnknownVal(cty.String)}, {cty.NullVal(cty.String)}, {num(1)}, {cty.DynamicVal}}},
		{stdlib.ContainsFunc, [][]cty.Value{{list, str("a")}, {list, str("z")}, {list, num(1)}, {nums, num(1)}, {tup, num(1)}, {cty.EmptyTupleVal, str("a")},
			{unknownList, str("a")}, {list, cty.UnknownVal(cty.String)}, {cty.ListVal([]cty.Value{str("a"), cty.UnknownVal(cty.String)}), str("b")},
			{cty.ListVal([]cty.Value{str("a"), cty.UnknownVal(cty.String)}), str("a")}, {cty.NullVal(list.Type()), str("a")}, {obj, str("a")},
			{cty.SetVal([]cty.Value{str("a")}), str("a")}, {list, cty.NullVal(cty.String)}}},
		{stdlib.DistinctFunc, [][]cty.Value{{list}, {cty.ListVal([]cty.Value{str("a"), str("b"), str("a")})}, {cty.ListValEmpty(cty.String)},
			{tup}, {cty.TupleVal([]cty.Value{str("a"), str("a")})}, {unknownList}, {cty.ListVal([]cty.Value{str("a"), cty.UnknownVal(cty.String)})},
			{cty.NullVal(list.Type())}, {cty.ListVal([]cty.Value{obj, obj})}}},
		{stdlib.ConcatFunc, [][]cty.Value{{}, {list}, {list, list}, {list, nums}, {list, tup}, {tup, tup}, {list, unknownList},
			{cty.ListValEmpty(cty.String), cty.ListValEmpty(cty.String)}, {list, obj}, {str("a")}, {cty.EmptyTupleVal}}},
		{stdlib.FlattenFunc, [][]cty.Value{{list}, {tup}, {cty.EmptyTupleVal}, {cty.ListValEmpty(cty.String)},
			{cty.TupleVal([]cty.Value{list, tup, str("c"), cty.TupleVal([]cty.Value{nums, cty.EmptyTupleVal, cty.TupleVal([]cty.Value{str("d")})})})},
			{cty.ListVal([]cty.Value{list, list})}, {cty.TupleVal([]cty.Value{obj, list, m})},
			{cty.SetVal([]cty.Value{str("b"), str("a")})}, {cty.TupleVal([]cty.Value{cty.SetVal([]cty.Value{num(2), num(1)}), list})},
			{cty.SetVal([]cty.Value{str("a"), cty.UnknownVal(cty.String)})}, {cty.SetVal([]cty.Value{cty.UnknownVal(cty.String)})},
			{cty.TupleVal([]cty.Value{cty.SetVal([]cty.Value{str("a"), cty.UnknownVal(cty.String)}), list})},
			{unknownList}, {cty.TupleVal([]cty.Value{list, unknownList})}, {cty.TupleVal([]cty.Value{str("a"), cty.UnknownVal(cty.String)})},
			{cty.TupleVal([]cty.Value{str("a"), cty.DynamicVal})}, {cty.DynamicVal},
			{cty.TupleVal([]cty.Value{cty.NullVal(list.Type()), list, cty.NullVal(cty.String)})},
			{cty.TupleVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"u": cty.UnknownVal(cty.String)}), list})},
			{cty.TupleVal([]cty.Value{cty.MapVal(map[string]cty.Value{"u": cty.UnknownVal(cty.String)})})},
			{cty.NullVal(list.Type())}, {obj}, {m}, {str("a")}, {num(1)}}},
		{stdlib.JoinFunc, [][]cty.Value{{str(",")}, {str(","), list}, {str("-"), list, list}, {str(""), tup}, {str(","), nums},
			{str(","), cty.ListValEmpty(cty.String)}, {str(","), cty.EmptyTupleVal}, {str(","), unknownList},
			{str(","), cty.ListVal([]cty.Value{str("a"), cty.UnknownVal(cty.String)})}, {cty.UnknownVal(cty.String), list},
			{str(","), cty.TupleVal([]cty.Value{str("a"), cty.NullVal(cty.String)})},
			{str(","), list, cty.TupleVal([]cty.Value{str("a"), cty.NullVal(cty.String)})},
			{cty.NullVal(cty.String), list}, {str(","), cty.NullVal(list.Type())}, {str(","), obj}, {str(","), cty.DynamicVal}}},
		{stdlib.KeysFunc, [][]cty.Value{{obj}, {obj2}, {m}, {cty.EmptyObjectVal}, {cty.MapValEmpty(cty.String)},
			{cty.UnknownVal(obj.Type())}, {cty.UnknownVal(m.Type())}, {cty.DynamicVal}, {list}, {str("a")},
			{cty.NullVal(obj.Type())}, {cty.NullVal(m.Type())}}},
	}
	var regexArgs [][]cty.Value
	for _, p := range []string{"[0-9]+", "^a", "(a)(b)?", "(?P<k>[a-z]+)=(?P<v>[0-9]*)", "(a)(?P<n>b)", "a(", "", "(x)|y", "[[:digit:]]"} {
		for _, s := range []string{"port 8080", "ab a", "k=1 j= x=22", "", "y", "x", "abab"} {
			regexArgs = append(regexArgs, []cty.Value{str(p), str(s)})
		}
	}
	regexArgs = append(regexArgs, []cty.Value{cty.UnknownVal(cty.String), str("a")}, []cty.Value{str("a"), cty.UnknownVal(cty.String)},
		[]cty.Value{str("(a)"), cty.UnknownVal(cty.String)}, []cty.Value{cty.NullVal(cty.String), str("a")}, []cty.Value{str("a"), cty.NullVal(cty.String)},
		[]cty.Value{str("1"), num(1)}, []cty.Value{cty.DynamicVal, str("a")}, []cty.Value{list, str("a")})
	tests = append(tests, struct {
		f    function.Function
		args [][]cty.Value
	}{stdlib.RegexFunc, regexArgs}, struct {
		f    function.Function
		args [][]cty.Value
	}{stdlib.RegexAllFunc, regexArgs})
	for _, f := range []function.Function{stdlib.EqualFunc, stdlib.NotEqualFunc, stdlib.AndFunc, stdlib.OrFunc,
		stdlib.GreaterThanFunc, stdlib.GreaterThanOrEqualToFunc, stdlib.LessThanFunc, stdlib.LessThanOrEqualToFunc} {
		var args [][]cty.Value
		for _, a := range values {
			for _, b := range values {
				args = append(args, []cty.Value{a, b})
			}
		}
		tests = append(tests, struct {
			f    function.Function
			args [][]cty.Value
		}{f, args})
	}
	var nots [][]cty.Value
	for _, a := range values {
		nots = append(nots, []cty.Value{a})
	}
	tests = append(tests, struct {
		f    function.Function
		args [][]cty.Value
	}{stdlib.NotFunc, nots})
	for _, tt := range tests {
		if _, ok := natives[tt.f]; !ok {
			t.Errorf("%s has no stand-in", tt.f.Description())
			continue
		}
		for _, args := range tt.args {
			got, gerr := Call(tt.f, args)
			want, werr := callChecked(tt.f, args)
			if (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
				t.Errorf("%.20s%#v: error %v, want %v", tt.f.Description(), args, gerr, werr)
				continue
			}
			if gerr == nil && !got.RawEquals(want) {
				t.Errorf("%.20s%#v = %#v, want %#v", tt.f.Description(), args, got, want)
			}
		}
	}
}
