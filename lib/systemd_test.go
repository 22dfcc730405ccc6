package lib

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/internal/suitereport"
	"github.com/nodegen/nodegen/property"
)

func TestRenderUnitGolden(t *testing.T) {
	tests := []struct {
		name string
		in   cty.Value
		want string
	}{
		{
			name: "service",
			in: cty.ObjectVal(map[string]cty.Value{
				"Install": cty.ObjectVal(map[string]cty.Value{
					"WantedBy": cty.TupleVal([]cty.Value{cty.StringVal("multi-user.target")}),
				}),
				"Service": cty.ObjectVal(map[string]cty.Value{
					"ExecStart": cty.StringVal("/bin/x --flag"),
					"Environment": cty.ObjectVal(map[string]cty.Value{
						"B": cty.StringVal("with space"),
						"A": cty.StringVal("1"),
						"Q": cty.StringVal(`say "hi" \ bye`),
						"N": cty.NullVal(cty.String),
						"T": cty.StringVal("a\tb\nc"),
						"I": cty.NumberIntVal(3),
						"P": cty.StringVal("%n 100%"),
					}),
					"Restart":         cty.StringVal("always"),
					"RemainAfterExit": cty.True,
					"NoNewPrivileges": cty.False,
					"RestartSec":      cty.NumberFloatVal(2.5),
					"LimitNOFILE":     cty.NumberIntVal(65536),
					"ExecStartPre": cty.TupleVal([]cty.Value{
						cty.StringVal("/bin/a"), cty.StringVal("-/bin/b"),
					}),
					"ExecStop": cty.ListValEmpty(cty.String),
					"User":     cty.NullVal(cty.String),
				}),
				"Unit": cty.ObjectVal(map[string]cty.Value{
					"Description": cty.StringVal("x"),
					"After":       cty.TupleVal([]cty.Value{cty.StringVal("a.target"), cty.StringVal("b.service")}),
					"Wants":       cty.ListVal([]cty.Value{cty.StringVal("b.service")}),
					"Documentation": cty.TupleVal([]cty.Value{
						cty.StringVal("man:x(8)"), cty.StringVal("https://example.com/x"),
					}),
					"ConditionPathExists": cty.TupleVal([]cty.Value{cty.StringVal("/a"), cty.StringVal("!/b")}),
					"Requires":            cty.TupleVal(nil),
				}),
			}),
			want: `[Unit]
After=a.target b.service
ConditionPathExists=/a
ConditionPathExists=!/b
Description=x
Documentation=man:x(8) https://example.com/x
Wants=b.service

[Service]
Environment="A=1"
Environment="B=with space"
Environment="I=3"
Environment="P=%%n 100%%"
Environment="Q=say \"hi\" \\ bye"
Environment="T=a\tb\nc"
ExecStart=/bin/x --flag
ExecStartPre=/bin/a
ExecStartPre=-/bin/b
LimitNOFILE=65536
NoNewPrivileges=false
RemainAfterExit=true
Restart=always
RestartSec=2.5

[Install]
WantedBy=multi-user.target
`,
		},
		{
			name: "section order and empty sections",
			in: cty.ObjectVal(map[string]cty.Value{
				"X-Zeta":  cty.ObjectVal(map[string]cty.Value{"A": cty.StringVal("z")}),
				"X-Alpha": cty.ObjectVal(map[string]cty.Value{"A": cty.StringVal("a")}),
				"Install": cty.ObjectVal(map[string]cty.Value{"WantedBy": cty.TupleVal(nil)}),
				"Timer":   cty.ObjectVal(map[string]cty.Value{"OnCalendar": cty.StringVal("daily"), "Persistent": cty.True}),
				"Unit":    cty.EmptyObjectVal,
				"Service": cty.NullVal(cty.DynamicPseudoType),
			}),
			want: `[Timer]
OnCalendar=daily
Persistent=true

[X-Alpha]
A=a

[X-Zeta]
A=z
`,
		},
		{
			name: "map input",
			in: cty.MapVal(map[string]cty.Value{
				"Socket": cty.MapVal(map[string]cty.Value{"ListenStream": cty.StringVal("/run/x.sock")}),
				"Unit":   cty.MapVal(map[string]cty.Value{"Description": cty.StringVal("sock")}),
			}),
			want: "[Unit]\nDescription=sock\n\n[Socket]\nListenStream=/run/x.sock\n",
		},
		{
			name: "specifiers verbatim",
			in: cty.ObjectVal(map[string]cty.Value{
				"Service": cty.ObjectVal(map[string]cty.Value{
					"ExecStart":   cty.StringVal("/bin/x %i"),
					"Environment": cty.TupleVal([]cty.Value{cty.StringVal("A=1"), cty.StringVal(`"B=2 3"`)}),
				}),
			}),
			want: "[Service]\nEnvironment=A=1\nEnvironment=\"B=2 3\"\nExecStart=/bin/x %i\n",
		},
		{
			name: "nothing",
			in:   cty.EmptyObjectVal,
			want: "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := RenderUnit(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("RenderUnit:\n--- got\n%s--- want\n%s", got, tt.want)
			}
		})
	}
}

func TestRenderUnitLazy(t *testing.T) {
	in := cty.ObjectVal(map[string]cty.Value{
		"Unit": property.LazyVal(&property.Forced{Value: cty.ObjectVal(map[string]cty.Value{
			"Description": property.LazyVal(&property.Forced{Value: cty.StringVal("lazy")}),
		})}),
	})
	got, err := RenderUnit(in)
	if err != nil {
		t.Fatal(err)
	}
	if want := "[Unit]\nDescription=lazy\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestRenderUnitErrors(t *testing.T) {
	sec := func(k string, v cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"Service": cty.ObjectVal(map[string]cty.Value{k: v})})
	}
	tests := []struct {
		name string
		in   cty.Value
		want string
	}{
		{"not an object", cty.StringVal("x"), "must be an object"},
		{"null", cty.NullVal(cty.DynamicPseudoType), "must not be null"},
		{"unknown", cty.UnknownVal(cty.DynamicPseudoType), "must be known"},
		{"section not object", cty.ObjectVal(map[string]cty.Value{"Unit": cty.StringVal("x")}), "section Unit must be an object"},
		{"object value", sec("User", cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("b")})), "only as the value of Environment"},
		{"newline", sec("ExecStart", cty.StringVal("/bin/a\n/bin/b")), "ExecStart in section Service: value \"/bin/a\\n/bin/b\" contains a line break"},
		{"NUL in a list", sec("ExecStartPre", cty.TupleVal([]cty.Value{cty.StringVal("a\x00")})), "ExecStartPre in section Service: value contains a NUL byte"},
		{"NUL in a variable", sec("Environment", cty.ObjectVal(map[string]cty.Value{"A": cty.StringVal("a\x00")})), "Environment in section Service, variable A: value contains a NUL byte"},
		{"bad env name, where", sec("Environment", cty.ObjectVal(map[string]cty.Value{"": cty.StringVal("x")})), `Environment in section Service: bad variable name ""`},
		{"carriage return", sec("ExecStart", cty.StringVal("/bin/a \\\r\n--b")), "line break"},
		{"continuation", sec("ExecStart", cty.StringVal(`/bin/a \`)), "line continuation"},
		{"nested list", sec("ExecStart", cty.TupleVal([]cty.Value{cty.TupleVal([]cty.Value{cty.StringVal("a")})})), "must be a string"},
		{"bad key", sec("A B", cty.StringVal("x")), `bad key "A B"`},
		{"bad env name", sec("Environment", cty.ObjectVal(map[string]cty.Value{"A=B": cty.StringVal("x")})), "bad variable name"},
		{"bad section", cty.ObjectVal(map[string]cty.Value{"A]": cty.ObjectVal(map[string]cty.Value{"K": cty.StringVal("v")})}), "bad unit section name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := RenderUnit(tt.in)
			if err == nil {
				t.Fatalf("no error; got %q", got)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestSystemdUnitFunc(t *testing.T) {
	got, err := SystemdUnitFunc.Call([]cty.Value{cty.ObjectVal(map[string]cty.Value{
		"Unit": cty.ObjectVal(map[string]cty.Value{"Description": cty.StringVal("x")}),
	})})
	if err != nil {
		t.Fatal(err)
	}
	if !got.RawEquals(cty.StringVal("[Unit]\nDescription=x\n")) {
		t.Errorf("got %#v", got)
	}
	if _, err := SystemdUnitFunc.Call([]cty.Value{cty.StringVal("x")}); err == nil {
		t.Error("no error for a string argument")
	}
	got, err = SystemdUnitFunc.Call([]cty.Value{cty.UnknownVal(cty.DynamicPseudoType)})
	if err != nil || got.IsKnown() {
		t.Errorf("unknown argument: got %#v, %v; want an unknown string", got, err)
	}
}

// systemdVerify runs systemd-analyze verify on the unit name inside root,
// which must hold it at etc/systemd/system/<name>. It works without a running
// systemd: --root makes systemd-analyze read units and executables below
// root, --recursive-errors=no ignores the missing dependencies (sysinit.target
// and the like), --man=no skips checking Documentation=man: pages and
// --generators=no skips the generators.
func systemdVerify(t *testing.T, root, name string) (string, error) {
	t.Helper()
	cmd := exec.Command("/usr/bin/systemd-analyze", "verify",
		"--man=no", "--generators=no", "--recursive-errors=no",
		"--root="+root, name)
	cmd.Env = append(os.Environ(), "SYSTEMD_LOG_LEVEL=notice", "SYSTEMD_COLORS=0")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestSystemdAnalyzeVerify(t *testing.T) {
	suitereport.Program(t, "systemd-analyze verify (lib)", "systemd-analyze", "Debian's systemd")
	root := t.TempDir()
	unitDir := filepath.Join(root, "etc/systemd/system")
	if err := os.MkdirAll(unitDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, stub := range []string{"bin/server", "bin/prepare"} {
		p := filepath.Join(root, stub)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	service := func(execStart string, extra map[string]cty.Value) cty.Value {
		secs := map[string]cty.Value{
			"Unit": cty.ObjectVal(map[string]cty.Value{
				"Description":   cty.StringVal("test server"),
				"After":         cty.TupleVal([]cty.Value{cty.StringVal("network.target"), cty.StringVal("prepare.service")}),
				"Wants":         cty.TupleVal([]cty.Value{cty.StringVal("network.target")}),
				"Documentation": cty.TupleVal([]cty.Value{cty.StringVal("man:server(8)"), cty.StringVal("https://example.com")}),
			}),
			"Service": cty.ObjectVal(map[string]cty.Value{
				"Type":         cty.StringVal("simple"),
				"ExecStart":    cty.StringVal(execStart),
				"ExecStartPre": cty.TupleVal([]cty.Value{cty.StringVal("/bin/prepare one"), cty.StringVal("-/bin/prepare two")}),
				"Environment": cty.ObjectVal(map[string]cty.Value{
					"PLAIN": cty.StringVal("1"),
					"SPACE": cty.StringVal("with space"),
					"QUOTE": cty.StringVal(`a "b" \c`),
					"LINES": cty.StringVal("a\nb"),
				}),
				"Restart":         cty.StringVal("always"),
				"RestartSec":      cty.NumberFloatVal(1.5),
				"NoNewPrivileges": cty.True,
				"LimitNOFILE":     cty.NumberIntVal(65536),
			}),
			"Install": cty.ObjectVal(map[string]cty.Value{
				"WantedBy": cty.TupleVal([]cty.Value{cty.StringVal("multi-user.target")}),
			}),
		}
		for k, v := range extra {
			secs[k] = v
		}
		return cty.ObjectVal(secs)
	}
	tests := []struct {
		name string
		unit cty.Value
		ok   bool
		why  string // what the output of a failure says
	}{
		{"good.service", service("/bin/server --listen 127.0.0.1:80", nil), true, ""},
		{"relative.service", service("relative/path", nil), false, "relative/path"},
		{"missing.service", service("/bin/missing", nil), false, "/bin/missing"},
		{"section.service", service("/bin/server", map[string]cty.Value{
			"Frobnicate": cty.ObjectVal(map[string]cty.Value{"Foo": cty.StringVal("bar")}),
		}), false, "Frobnicate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, err := RenderUnit(tt.unit)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(unitDir, tt.name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := systemdVerify(t, root, tt.name)
			if tt.ok && err != nil {
				t.Errorf("systemd-analyze verify failed on a valid unit: %v\n%s\nunit:\n%s", err, out, text)
			}
			if !tt.ok && err == nil {
				t.Errorf("systemd-analyze verify accepted a broken unit:\n%s", text)
			}
			if !tt.ok && !strings.Contains(out, tt.why) {
				t.Errorf("systemd-analyze verify failed, but its output does not mention %q:\n%s", tt.why, out)
			}
		})
	}
}

func TestContinuedLines(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{"/bin/a --b", true},
		{"/bin/a \\\n  --b \\\n  --c", true},
		{"/bin/a\n--b", false},
		{"\n/bin/a", false},
		{"/bin/a \\\r\n--b", false},
		{"/bin/a \\\n--b\n--c", false},
		{"/bin/a \\\n  --b\n", true},
		{"/bin/a\n", true},
		{"/bin/a\n\n", false},
		{"\n", true},
	} {
		if got := ContinuedLines(tt.in); got != tt.want {
			t.Errorf("ContinuedLines(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
	// systemd reads the continued setting as one line; the unit keeps it.
	got, err := RenderUnit(cty.ObjectVal(map[string]cty.Value{"Service": cty.ObjectVal(map[string]cty.Value{
		"ExecStart": cty.StringVal("/bin/a \\\n  --b"),
	})}))
	if err != nil || got != "[Service]\nExecStart=/bin/a \\\n  --b\n" {
		t.Errorf("RenderUnit: %q, %v", got, err)
	}
	// A heredoc's final newline ends the value: it is not written.
	got, err = RenderUnit(cty.ObjectVal(map[string]cty.Value{"Service": cty.ObjectVal(map[string]cty.Value{
		"ExecStart": cty.StringVal("/bin/a \\\n  --b\n"),
	})}))
	if err != nil || got != "[Service]\nExecStart=/bin/a \\\n  --b\n" {
		t.Errorf("RenderUnit: %q, %v", got, err)
	}
	// A backslash before it still continues onto the next key: refused.
	if _, err := RenderUnit(cty.ObjectVal(map[string]cty.Value{"Service": cty.ObjectVal(map[string]cty.Value{
		"ExecStart": cty.StringVal("/bin/a \\\n"),
	})})); err == nil || !strings.Contains(err.Error(), "ends with a backslash") {
		t.Errorf("RenderUnit of a value ending in a backslash and a newline: %v", err)
	}
}
