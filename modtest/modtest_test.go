package modtest

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/modules"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		src  string
		// runs are the names of the runs; fileDiags and runDiags the
		// summaries of the file's and of each run's errors.
		runs      []string
		fileDiags []string
		runDiags  map[string][]string
	}{
		{
			name: "two runs",
			src: `run "a" {
  imports = ["./m.hcl"]
  config "x" { y = 1 }
  assert {
    condition     = true
    error_message = "m"
  }
}
run "b" {
  expect_error = "boom"
}`,
			runs: []string{"a", "b"},
		},
		{
			name:      "syntax error",
			src:       "run \"a\" {\n  imports = [\n}\n",
			fileDiags: []string{"Invalid expression"},
		},
		{
			name:      "items other than runs",
			src:       "x = 1\noption \"a\" { type = str }\nrun \"a\" {}\n",
			runs:      []string{"a"},
			fileDiags: []string{"Unsupported argument", "Unsupported block type"},
		},
		{
			name:      "labels",
			src:       "run {}\nrun \"a\" \"b\" {}\nrun \"c\" {}\nrun \"c\" {}\n",
			runs:      []string{"c"},
			fileDiags: []string{"Invalid run block", "Invalid run block", "Duplicate run block"},
		},
		{
			name: "run shape",
			src: `run "a" {
  expect_error = ""
  bare = true
  locals { x = 1 }
  assert {
    message = "x"
  }
  assert "named" {
    condition     = true
    error_message = "x"
  }
}
run "b" {
  expect_error = "x"
  assert {
    condition     = true
    error_message = "x"
  }
}
run "c" {
  expect_error = local.x
}`,
			runs: []string{"a", "b", "c"},
			runDiags: map[string][]string{
				"a": {"Invalid expect_error", "Unsupported argument", "Unsupported block type", "Unsupported argument", "Missing required argument", "Invalid assert block"},
				"b": {"Conflicting run checks"},
				"c": {"Invalid expect_error"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse([]byte(tt.src), "x.test.hcl")
			var runs []string
			runDiags := map[string][]string{}
			for _, r := range f.Runs {
				runs = append(runs, r.Name)
				if len(r.Diags) > 0 {
					runDiags[r.Name] = summaries(r.Diags)
				}
			}
			if diff := cmp.Diff(tt.runs, runs); diff != "" {
				t.Errorf("runs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.fileDiags, summaries(f.Diags)); diff != "" {
				t.Errorf("file diagnostics (-want +got):\n%s", diff)
			}
			if tt.runDiags == nil {
				tt.runDiags = map[string][]string{}
			}
			if diff := cmp.Diff(tt.runDiags, runDiags); diff != "" {
				t.Errorf("run diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

func summaries(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		out = append(out, d.Summary)
	}
	return out
}

// writeFiles writes files (name to content) below a new directory and
// makes it the working directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	return dir
}

func TestFind(t *testing.T) {
	writeFiles(t, map[string]string{
		"a.test.hcl":           "",
		"b/c.test.hcl":         "",
		"b/d.hcl":              "",
		"b/.hidden/e.test.hcl": "",
		"f.hcl":                "",
	})
	got, err := Find([]string{".", "f.hcl", "b/c.test.hcl"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.test.hcl", "b/c.test.hcl", "f.hcl"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Find (-want +got):\n%s", diff)
	}
	if _, err := Find([]string{"nothere"}); err == nil || !strings.Contains(err.Error(), "nothere") {
		t.Errorf("Find of a missing path: %v", err)
	}
}

const module = `
option "replicas" {
  type    = int
  default = 1
}
option "names" {
  type    = listOf(str)
  default = []
}
assert {
  condition = config.replicas <= 3
  message   = "at most 3 replicas"
}
`

func TestRun(t *testing.T) {
	writeFiles(t, map[string]string{
		"mod.hcl": module,
		"mod.test.hcl": `
run "pass" {
  imports = ["./mod.hcl"]
  config { names = ["a"] }
  assert {
    condition     = config.names == ["a"] && options.replicas.isDefined
    error_message = "x"
  }
}
run "fail" {
  imports = ["./mod.hcl"]
  config { replicas = 2 }
  assert {
    condition     = config.replicas == 1 || length(config.names) > 5
    error_message = "replicas is ${config.replicas}"
  }
  assert {
    condition     = true
    error_message = "never"
  }
  assert {
    condition     = config.names[0] == "x"
    error_message = "unreachable: names is empty"
  }
}
run "expected" {
  imports      = ["./mod.hcl"]
  config { replicas = 4 }
  expect_error = "at most 3"
}
run "unexpected" {
  imports      = ["./mod.hcl"]
  config { replicas = 4 }
  expect_error = "at most 2"
}
run "no error" {
  imports      = ["./mod.hcl"]
  expect_error = "at most 3"
}
run "eval error" {
  imports = ["./mod.hcl"]
  config { replicas = "x" }
}
`,
	})
	f := ParseFile("mod.test.hcl")
	if f.Diags.HasErrors() {
		t.Fatal(f.Diags.Error())
	}
	rn := &Runner{}
	got := map[string][]string{}
	var fail *Result
	for _, r := range f.Runs {
		res := rn.Run(f, r)
		if res.Passed != (len(res.Diags) == 0) {
			t.Errorf("%s: passed %v with diagnostics %v", r.Name, res.Passed, res.Diags)
		}
		got[r.Name] = summaries(res.Diags)
		if r.Name == "fail" {
			fail = res
		}
	}
	want := map[string][]string{
		"pass":       nil,
		"fail":       {SummaryAssertFailed, "Invalid index"},
		"expected":   nil,
		"unexpected": {SummaryWrongError, "Assertion failed: at most 3 replicas"},
		"no error":   {SummaryNoError},
		"eval error": {`Definition of option "replicas" is not of type "signed integer"`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	af, ok := fail.Diags[0].Extra.(*AssertFailure)
	if !ok {
		t.Fatalf("the failed assert has no AssertFailure: %#v", fail.Diags[0].Extra)
	}
	if af.Message != "replicas is 2" || af.Condition != "config.replicas == 1 || length(config.names) > 5" {
		t.Errorf("failure: %+v", af)
	}
	var vals []string
	for _, v := range af.Values {
		vals = append(vals, v.Expr+" = "+ShowValue(v.Value))
	}
	if diff := cmp.Diff([]string{"config.replicas = 2", "config.names = []"}, vals); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
	if s := fail.Diags[0].Subject; s == nil || s.Filename != "mod.test.hcl" || s.Start.Line != 14 {
		t.Errorf("the failure points at %v, want mod.test.hcl line 14", s)
	}
}

// TestAssertFile calls file() in asserts: relative to the test file, as
// in a module.
func TestAssertFile(t *testing.T) {
	writeFiles(t, map[string]string{
		"tests/mod.hcl":  "option \"motd\" {\n  type    = str\n  default = \"\"\n}\n",
		"tests/motd.txt": "hello\n",
		"tests/mod.test.hcl": `
run "file" {
  imports = ["./mod.hcl"]
  config { motd = "hello\n" }
  assert {
    condition     = config.motd == file("motd.txt")
    error_message = "motd is ${jsonencode(config.motd)}, not ${jsonencode(file("motd.txt"))}"
  }
}
run "missing" {
  imports = ["./mod.hcl"]
  assert {
    condition     = file("missing.txt") == ""
    error_message = "unreachable"
  }
}
`,
	})
	f := ParseFile("tests/mod.test.hcl")
	if f.Diags.HasErrors() {
		t.Fatal(f.Diags.Error())
	}
	rn := &Runner{}
	for _, r := range f.Runs {
		res := rn.Run(f, r)
		switch r.Name {
		case "file":
			if !res.Passed {
				t.Errorf("%s: %v", r.Name, res.Diags)
			}
		case "missing":
			if res.Passed || len(res.Diags) == 0 || !strings.Contains(res.Diags.Error(), "missing.txt") {
				t.Errorf("%s: want an error naming missing.txt, got %v", r.Name, res.Diags)
			}
		}
	}
}

// TestRunFiles runs files in parallel against the library and reports
// them in order (run it with -race).
func TestRunFiles(t *testing.T) {
	files := map[string]string{}
	var names []string
	for _, n := range []string{"a", "b", "c", "d"} {
		name := n + ".test.hcl"
		names = append(names, name)
		files[name] = `
run "one" {
  config "networking" { hostName = "` + n + `" }
  assert {
    condition     = config.environment.etc.hostname.text == "` + n + `\n"
    error_message = "hostname"
  }
}
run "two" {
  config "systemd.services.x" { script = "true" }
  assert {
    condition     = config.systemd.services.x.serviceConfig.ExecStart == "/etc/nodegen/scripts/x-start"
    error_message = "script"
  }
}
run "skipped" {
  assert {
    condition     = false
    error_message = "not selected"
  }
}
`
	}
	writeFiles(t, files)
	rn := &Runner{Library: modules.FS(), Parallel: 4, Match: regexp.MustCompile("one|two")}
	var out bytes.Buffer
	rep := NewTextReport(&out, nil)
	rn.RunFiles(names, rep.File)
	if rep.Close() {
		t.Errorf("failed:\n%s", out.String())
	}
	want := ""
	for _, n := range names {
		want += n + "\n  run \"one\"... pass\n  run \"two\"... pass\n"
	}
	want += "\n8 passed, 0 failed\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
}

func TestShowValue(t *testing.T) {
	var elems []cty.Value
	for i := 0; i < 50; i++ {
		elems = append(elems, cty.StringVal(strings.Repeat("x", 10)))
	}
	long := cty.ListVal(elems)
	tests := []struct {
		v    cty.Value
		want string
	}{
		{cty.StringVal("a\"b"), `"a\"b"`},
		{cty.NumberIntVal(3), "3"},
		{cty.NullVal(cty.String), "null"},
		{cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.True}), `["a", true]`},
		{cty.ObjectVal(map[string]cty.Value{"b": cty.NumberIntVal(1), "a": cty.StringVal("x")}), `{ a = "x", b = 1 }`},
		{cty.StringVal("line one\nline two\n"), "<<EOT\nline one\nline two\nEOT"},
		{cty.UnknownVal(cty.String), "(not known)"},
		{cty.ObjectVal(map[string]cty.Value{"a.b": cty.EmptyObjectVal}), `{ "a.b" = {} }`},
		{
			cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal(strings.Repeat("y", 40)), "l": cty.StringVal(strings.Repeat("z", 40))}),
			"{\n  k = \"" + strings.Repeat("y", 40) + "\"\n  l = \"" + strings.Repeat("z", 40) + "\"\n}",
		},
	}
	for _, tt := range tests {
		if got := ShowValue(tt.v); got != tt.want {
			t.Errorf("ShowValue(%#v) = %q, want %q", tt.v, got, tt.want)
		}
	}
	got := ShowValue(long)
	if !strings.HasPrefix(got, "[\n  \"xxxxxxxxxx\",\n") || !strings.HasSuffix(got, "... (12 more lines)") {
		t.Errorf("a long list:\n%s", got)
	}
}
