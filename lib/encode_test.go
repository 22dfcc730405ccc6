package lib

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"go.yaml.in/yaml/v3"

	"github.com/nodegen/nodegen/property"
)

// encodeFixture is one value that exercises every encoder: nested objects,
// lists, whole and fractional numbers, bools, null, and keys and strings
// that need quotes.
var encodeFixture = cty.ObjectVal(map[string]cty.Value{
	"name":     cty.StringVal("kubelet"),
	"port":     cty.NumberIntVal(10250),
	"ratio":    cty.NumberFloatVal(0.25),
	"computed": cty.NumberFloatVal(4.2e1),
	"huge":     cty.MustParseNumberVal("1e20"),
	"negative": cty.NumberIntVal(-3),
	"enable":   cty.True,
	"unset":    cty.NullVal(cty.String),
	"args":     cty.TupleVal([]cty.Value{cty.StringVal("--v=2"), cty.NumberIntVal(3), cty.False}),
	"a.b":      cty.StringVal("dotted key"),
	"true":     cty.StringVal("yes"),
	"digits":   cty.StringVal("42"),
	"empty":    cty.StringVal(""),
	"script":   cty.StringVal("#!/bin/sh\nexec kubelet\n"),
	"servers": cty.TupleVal([]cty.Value{
		cty.ObjectVal(map[string]cty.Value{"host": cty.StringVal("a"), "weight": cty.NumberIntVal(1)}),
		cty.ObjectVal(map[string]cty.Value{"host": cty.StringVal("b"), "weight": cty.NumberIntVal(2)}),
	}),
	"cluster": cty.ObjectVal(map[string]cty.Value{
		"dns":    cty.ListVal([]cty.Value{cty.StringVal("10.0.0.10")}),
		"domain": cty.StringVal("cluster.local"),
		"auth": cty.ObjectVal(map[string]cty.Value{
			"anonymous": cty.False,
			"mode":      cty.StringVal("Webhook"),
		}),
		"labels": cty.MapValEmpty(cty.String),
	}),
})

// withoutAttr returns an object without one attribute.
func withoutAttr(v cty.Value, name string) cty.Value {
	m := v.AsValueMap()
	delete(m, name)
	return cty.ObjectVal(m)
}

func TestYAMLEncodeGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		in   cty.Value
		want string
	}{
		{"fixture", encodeFixture, `a.b: dotted key
args:
  - --v=2
  - 3
  - false
cluster:
  auth:
    anonymous: false
    mode: Webhook
  dns:
    - "10.0.0.10"
  domain: cluster.local
  labels: {}
computed: 42
digits: "42"
empty: ""
enable: true
huge: 100000000000000000000
name: kubelet
negative: -3
port: 10250
ratio: 0.25
script: |
  #!/bin/sh
  exec kubelet
servers:
  - host: a
    weight: 1
  - host: b
    weight: 2
"true": "yes"
unset: null
`},
		{"null", cty.NullVal(cty.DynamicPseudoType), "null\n"},
		{"string", cty.StringVal("hello"), "hello\n"},
		{"number", cty.NumberFloatVal(1e3), "1000\n"},
		{"empty list", cty.EmptyTupleVal, "[]\n"},
		{"set", cty.SetVal([]cty.Value{cty.StringVal("b"), cty.StringVal("a")}), "- a\n- b\n"},
		{"map", cty.MapVal(map[string]cty.Value{"z": cty.NumberIntVal(1), "a": cty.NumberIntVal(2)}), "a: 2\nz: 1\n"},
		{"infinity", cty.PositiveInfinity, ".inf\n"},
		{"old booleans", cty.TupleVal([]cty.Value{cty.StringVal("on"), cty.StringVal("No"), cty.StringVal("y"), cty.StringVal("TRUE"), cty.StringVal("null"), cty.StringVal("~")}), `- "on"
- "No"
- "y"
- "TRUE"
- "null"
- "~"
`},
		{"old numbers", cty.TupleVal([]cty.Value{cty.StringVal("0755"), cty.StringVal("0x1F"), cty.StringVal("1e3"), cty.StringVal("12:30"), cty.StringVal("1_000"), cty.StringVal(".5"), cty.StringVal("-1")}), `- "0755"
- "0x1F"
- "1e3"
- "12:30"
- "1_000"
- ".5"
- "-1"
`},
		{"plain strings", cty.TupleVal([]cty.Value{cty.StringVal("10s"), cty.StringVal("100Mi"), cty.StringVal("a: b"), cty.StringVal("- x"), cty.StringVal(" padded ")}), `- 10s
- 100Mi
- 'a: b'
- '- x'
- ' padded '
`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Call(YAMLEncodeFunc, []cty.Value{c.in})
			if err != nil {
				t.Fatal(err)
			}
			if got.AsString() != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got.AsString(), c.want)
			}
		})
	}
}

func TestTOMLEncodeGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		in   cty.Value
		want string
	}{
		{"fixture", withoutAttr(encodeFixture, "huge"), `'a.b' = 'dotted key'
args = ['--v=2', 3, false]
computed = 42
digits = '42'
empty = ''
enable = true
name = 'kubelet'
negative = -3
port = 10250
ratio = 0.25
script = "#!/bin/sh\nexec kubelet\n"
true = 'yes'

[cluster]
dns = ['10.0.0.10']
domain = 'cluster.local'

[cluster.auth]
anonymous = false
mode = 'Webhook'

[cluster.labels]
[[servers]]
host = 'a'
weight = 1

[[servers]]
host = 'b'
weight = 2
`},
		{"empty", cty.EmptyObjectVal, ""},
		{"map", cty.MapVal(map[string]cty.Value{"b": cty.NumberIntVal(1), "a": cty.NumberIntVal(2)}), "a = 2\nb = 1\n"},
		{"mixed list", cty.ObjectVal(map[string]cty.Value{"l": cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("v")})})}), "l = [1, {k = 'v'}]\n"},
		{"float", cty.ObjectVal(map[string]cty.Value{"f": cty.NumberFloatVal(-1.5), "inf": cty.PositiveInfinity}), "f = -1.5\ninf = inf\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Call(TOMLEncodeFunc, []cty.Value{c.in})
			if err != nil {
				t.Fatal(err)
			}
			if got.AsString() != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got.AsString(), c.want)
			}
		})
	}
}

func TestINIEncodeGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		in   cty.Value
		want string
	}{
		{"sections", cty.ObjectVal(map[string]cty.Value{
			"verbose": cty.True,
			"level":   cty.NumberIntVal(3),
			"unset":   cty.NullVal(cty.String),
			"include": cty.TupleVal([]cty.Value{cty.StringVal("a.conf"), cty.StringVal("b.conf")}),
			"Service": cty.ObjectVal(map[string]cty.Value{
				"ExecStart":   cty.StringVal("/bin/kubelet --v=2"),
				"Environment": cty.ListVal([]cty.Value{cty.StringVal("A=1"), cty.StringVal("B=2")}),
				"Restart":     cty.StringVal("always"),
				"Nice":        cty.NumberFloatVal(-5),
				"CPUWeight":   cty.NumberFloatVal(0.5),
				"Empty":       cty.EmptyTupleVal,
				"Unset":       cty.NullVal(cty.Bool),
			}),
			"Unit": cty.ObjectVal(map[string]cty.Value{
				"After":    cty.StringVal("network.target"),
				"Optional": cty.False,
			}),
			"Empty section": cty.EmptyObjectVal,
			"null section":  cty.NullVal(cty.EmptyObject),
		}), `include=a.conf
include=b.conf
level=3
verbose=true

[Empty section]

[Service]
CPUWeight=0.5
Environment=A=1
Environment=B=2
ExecStart=/bin/kubelet --v=2
Nice=-5
Restart=always

[Unit]
After=network.target
Optional=false
`},
		{"sections only", cty.ObjectVal(map[string]cty.Value{
			"b": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
			"a": cty.ObjectVal(map[string]cty.Value{"k": cty.NumberIntVal(1)}),
		}), "[a]\nk=1\n\n[b]\nk=v\n"},
		{"no sections", cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}), "k=v\n"},
		{"empty", cty.EmptyObjectVal, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Call(INIEncodeFunc, []cty.Value{c.in})
			if err != nil {
				t.Fatal(err)
			}
			if got.AsString() != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", got.AsString(), c.want)
			}
		})
	}
}

func TestJSONEncodeGolden(t *testing.T) {
	got, err := Call(Functions()["jsonencode"], []cty.Value{encodeFixture})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a.b":"dotted key","args":["--v=2",3,false],"cluster":{"auth":{"anonymous":false,"mode":"Webhook"},"dns":["10.0.0.10"],"domain":"cluster.local","labels":{}},"computed":42,"digits":"42","empty":"","enable":true,"huge":100000000000000000000,"name":"kubelet","negative":-3,"port":10250,"ratio":0.25,"script":"#!/bin/sh\nexec kubelet\n","servers":[{"host":"a","weight":1},{"host":"b","weight":2}],"true":"yes","unset":null}`
	if got.AsString() != want {
		t.Errorf("got:\n%s\nwant:\n%s", got.AsString(), want)
	}
}

func TestEncodeErrors(t *testing.T) {
	lazy := cty.CapsuleVal(property.LazyType, new(property.Lazy))
	for _, c := range []struct {
		name string
		f    function.Function
		in   cty.Value
		want string
	}{
		{"yaml capsule", YAMLEncodeFunc, cty.ObjectVal(map[string]cty.Value{"a": cty.TupleVal([]cty.Value{lazy})}), "at a[0]: cannot encode a value of type lazy value"},
		{"toml top string", TOMLEncodeFunc, cty.StringVal("x"), "a TOML document is an object or a map, not string"},
		{"toml top list", TOMLEncodeFunc, cty.EmptyTupleVal, "not tuple"},
		{"toml null in list", TOMLEncodeFunc, cty.ObjectVal(map[string]cty.Value{"l": cty.TupleVal([]cty.Value{cty.NullVal(cty.String)})}), "at l[0]: TOML has no null"},
		{"toml too large", TOMLEncodeFunc, cty.ObjectVal(map[string]cty.Value{"n": cty.MustParseNumberVal("1e20")}), "at n: 100000000000000000000 is too large for a TOML integer"},
		{"toml capsule", TOMLEncodeFunc, cty.ObjectVal(map[string]cty.Value{"weird key": lazy}), `at ["weird key"]: cannot encode`},
		{"ini top", INIEncodeFunc, cty.NumberIntVal(1), "an INI file is an object or a map, not number"},
		{"ini nested", INIEncodeFunc, cty.ObjectVal(map[string]cty.Value{"s": cty.ObjectVal(map[string]cty.Value{"t": cty.EmptyObjectVal})}), "at s.t: an INI value cannot be an object"},
		{"ini list of lists", INIEncodeFunc, cty.ObjectVal(map[string]cty.Value{"k": cty.TupleVal([]cty.Value{cty.EmptyTupleVal})}), "at k[0]: an INI value cannot be a list inside a list"},
		{"ini newline", INIEncodeFunc, cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("a\nb")}), "at k: an INI value cannot contain a newline"},
		{"ini key with =", INIEncodeFunc, cty.ObjectVal(map[string]cty.Value{"s": cty.ObjectVal(map[string]cty.Value{"a=b": cty.True})}), `at s["a=b"]: "a=b" cannot be an INI key`},
		{"ini padded key", INIEncodeFunc, cty.ObjectVal(map[string]cty.Value{" k": cty.True}), `" k" cannot be an INI key`},
		{"ini empty key", INIEncodeFunc, cty.ObjectVal(map[string]cty.Value{"": cty.True}), `"" cannot be an INI key`},
		{"ini section", INIEncodeFunc, cty.ObjectVal(map[string]cty.Value{"a]b": cty.EmptyObjectVal}), `"a]b" cannot be an INI section name`},
		{"ini capsule", INIEncodeFunc, cty.ObjectVal(map[string]cty.Value{"k": lazy}), "at k: cannot encode a value of type lazy value"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Call(c.f, []cty.Value{c.in})
			if err == nil {
				t.Fatalf("succeeded with %q; want an error containing %q", got.AsString(), c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q; want one containing %q", err, c.want)
			}
		})
	}
}

// TestEncodeUnknown checks that an encoder gives an unknown string for a
// value that is not wholly known, rather than failing.
func TestEncodeUnknown(t *testing.T) {
	in := cty.ObjectVal(map[string]cty.Value{"a": cty.UnknownVal(cty.String)})
	for name, f := range map[string]function.Function{"yaml": YAMLEncodeFunc, "toml": TOMLEncodeFunc, "ini": INIEncodeFunc} {
		got, err := Call(f, []cty.Value{in})
		if err != nil || got.IsKnown() || got.Type() != cty.String {
			t.Errorf("%s: %#v, %v; want an unknown string", name, got, err)
		}
	}
}

// TestEncodeRoundTrip reads the YAML and TOML of the fixture back, and
// checks that they hold the same data as its JSON.
func TestEncodeRoundTrip(t *testing.T) {
	long := strings.Repeat("word ", 40) + "\n  indented line \nlast"
	in := cty.ObjectVal(map[string]cty.Value{
		"fixture": withoutAttr(withoutAttr(encodeFixture, "huge"), "unset"),
		"long":    cty.StringVal(long),
		"odd":     cty.TupleVal([]cty.Value{cty.StringVal("yes"), cty.StringVal("0o17"), cty.StringVal("@x"), cty.StringVal("'q'"), cty.StringVal("\"dq\""), cty.StringVal("a #b"), cty.StringVal("{x}"), cty.StringVal("tab\there")}),
	})
	wantJSON := func() string {
		v, err := Call(Functions()["jsonencode"], []cty.Value{in})
		if err != nil {
			t.Fatal(err)
		}
		var data any
		if err := json.Unmarshal([]byte(v.AsString()), &data); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(data)
		return string(b)
	}()
	for _, c := range []struct {
		name   string
		f      function.Function
		decode func([]byte, any) error
	}{
		{"yaml", YAMLEncodeFunc, yaml.Unmarshal},
		{"toml", TOMLEncodeFunc, toml.Unmarshal},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := Call(c.f, []cty.Value{in})
			if err != nil {
				t.Fatal(err)
			}
			var data map[string]any
			if err := c.decode([]byte(out.AsString()), &data); err != nil {
				t.Fatalf("cannot read back:\n%s\n%s", out.AsString(), err)
			}
			b, err := json.Marshal(data)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != wantJSON {
				t.Errorf("read back:\n%s\nwant:\n%s\nfrom:\n%s", b, wantJSON, out.AsString())
			}
		})
	}
}
