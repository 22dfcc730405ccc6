package eval_test

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/options"
)

// fuzzSeeds are hand-written inputs that reach corners of the evaluator:
// properties in odd places, cycles through locals and submodules, dynamic
// keys, splats, for expressions, type constructors, renames, deep nesting.
var fuzzSeeds = []string{
	``,
	`config {}`,
	`option "a" { type = int }`,
	`option "a" {
  type = attrsOf(submodule.s)
}
submodule "s" {
  option "x" {
    type    = int
    default = config.y + 1
  }
  option "y" {
    type    = int
    default = config.x + 1
  }
}
config "a" { k = {} }`,
	`option "l" { type = listOf(either(int, str)) }
config {
  l = mkMerge([mkIf(true, mkBefore([1])), mkAfter(["x"]), mkOrder(-5, [2])])
}`,
	`option "a" { type = attrs }
config {
  a = mkForce(mkIf(true, { x = 1 }))
}`,
	`option "a" { type = anything }
config {
  a = mkIf(config.a != null, 1)
}`,
	`option "a" {
  type  = str
  apply = upper(value)
}
config {
  (local.k) = "x"
}
locals { k = "a" }`,
	`locals {
  a = local.b
  b = local.a
}
assert {
  condition = local.a
  message   = "m"
}`,
	`option "x" { type = listOf(attrsOf(submodule.s)) }
submodule "s" {
  option "n" {
    type    = str
    default = "${name}-${root.y}"
  }
  config { n = mkDefault(throw("no")) }
}
option "y" { type = nullOr(str) }
config {
  x = [{ a = {} }, { b = { n = "z" } }]
  y = null
}`,
	`option "a" { type = int }
config {
  a = [for i in range(3) : i if i > 0][*].foo
}`,
	`option "a.b" { type = str }
renamed_option "c.d" { to = "a.b" }
removed_option "e" { message = "gone" }
config {
  c.d = "x"
  e   = 1
}`,
	`option "a" { type = oneOf([intBetween(0, 3), enum(["x"]), strMatching("[a-z]+")]) }
config { a = mkOverride(10, 4) }`,
	`option "a" { type = separatedString(",") }
config { a = mkMerge([mkMerge([]), "x", mkIf(false, throw("no"))]) }`,
	`option "a" { type = uniq(listOf(port)) }
config "a" { when = options.a.isDefined }
config { a = [70000] }`,
	`option "a" {
  type = attrsOf(attrsOf(submodule.s))
  default = { x = { y = {} } }
}
submodule "s" {
  option "v" {
    type    = int
    default = length(keys(root.a))
  }
  assert {
    condition = config.v > 1
    message   = "v is ${config.v}"
  }
}`,
	`option "a" { type = str }
config { a = "${config}${root}${options}" }`,
	`option "a" { type = number }
config { a = 1e400 * 1e400 - 1 / 0 }`,
	`option "a" { type = lines }
config { a = <<EOT
  ${join("\n", [for k, v in { x = 1 } : "${k}=${v}"])}
EOT
}`,
	`options "a" {
  options "b" {
    option "c" { type = bool }
  }
}
config "a" {
  b = { c = !config.a.b.c }
}`,
	`option "a" { type = attrsOf(int) }
config {
  a = { for k in ["x", "x"] : k => 1... }
}`,
	`option "\"q.r\".s" { type = int }
config "\"q.r\"" { s = 1 }`,
	`locals {
  x = [local.y, { z = local.y }]
  y = 1
}
option "a" { type = anything }
config { a = local.x }`,
	`removed_option "r" { message = "use a" }
option "a" { type = int }
config { a = 1 }`,
	`option "a" { type = attrsOf(submodule.s) }
submodule "s" {
  locals { me = config }
  option "c" {
    type    = anything
    default = [name, length(root.a)]
  }
}
config { a = { for k in ["x", "y"] : k => {} } }`,
	`option "a.b" { type = listOf(int) }
config {
  a = mkMerge([{ b = [1] }, mkIf(length(config.a.b) == 1, { b = [2] })])
}`,
	`option "a" { type = str }
config { a = "%{for x in [1, "y"]}${x}%{endfor}%{if true}z%{else}w%{endif}" }`,
	`option "a" { type = anything }
option "b" {
  type    = int
  default = 1
}
config { a = [[config][0].b, config.*.b, try(config.c, 2), can(config.b)] }`,
	`option "a" { type = attrsOf(anything) }
config { a = { x.y = 2, x.z = 1, (upper("k")) = 3 } }`,
	`option "a" {
  type      = nullOr(submodule.s)
  read_only = true
}
submodule "s" {
  option "v" {
    type    = anything
    default = root.a
  }
}
config { a = {} }`,
	`warning {
  condition = true
  message   = tostring(jsondecode("[1,{\"a\":null}]"))
}`,
	`option "a" { type = anything }
config { a = [split("", "abc"), regexall("a", "aaa"), jsondecode("[[1],[2]]"), csvdecode("a\n1\n")] }`,
	`locals { t = { x = ["p", "q"], y = [] } }
dynamic "options" {
  for_each = local.t
  iterator = r
  labels   = ["a.${r.key}"]
  content {
    dynamic "option" {
      for_each = toset(r.value)
      labels   = [option.value]
      content {
        type        = str
        default     = "${r.key}${option.key}"
        description = "${option.value} of ${r.key}"
      }
    }
  }
}`,
}

// limitSeeds are inputs that grow without bound, deep or wide, as the
// bad-input corpus has them (cmd/nodegen/testdata/badinput): each must end
// in an error at one of the limits.
var limitSeeds = []string{
	`option "a" { type = anything }
config { a = jsonencode([for a in range(1000) : [for b in range(1000) : [for c in range(1000) : c]]]) }`,
	`option "a" { type = anything }
config { a = length(setproduct(range(1000), range(1000), range(1000))) }`,
	`option "a" { type = anything }
locals {
  k = join("", [for i in range(1000) : "x"])
  m = join("", [for i in range(1000) : local.k])
}
config { a = join("", [for i in range(1000) : local.m]) }`,
	`option "a" { type = anything }
locals {
  s0 = "ab"
  s1 = "${local.s0}${local.s0}"
  s2 = "${local.s1}${local.s1}"
  s3 = "${local.s2}${local.s2}"
  s4 = "${local.s3}${local.s3}"
  s5 = "${local.s4}${local.s4}"
}
config { a = [local.s5, jsonencode([for i in range(1000) : [for j in range(1000) : local.s5]])] }`,
	`option "a" { type = anything }
config { a = [format("%99999999d", 1), format("%[1]s%[1]s", "x"), indent(1000000, "a\nb"), replace("aaaa", "a", "bb")] }`,
	`option "a" { type = anything }
config { a = flatten([for i in range(1000) : [for j in range(1000) : [i, j]]]) }`,
	"option \"a\" { type = anything }\nlocals {\n  l0 = 1\n" + chain(12000) + "}\nconfig { a = local.l12000 }",
	"option \"a\" { type = anything }\nconfig { a = " + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + " }",
	`dynamic "options" {
  for_each = range(1000)
  labels   = ["a${options.key}"]
  content {
    dynamic "option" {
      for_each = range(1000)
      labels   = ["b${option.key}"]
      content {
        type = str
      }
    }
  }
}`,
}

// chain is n locals, each the one before: an evaluation chain n steps
// long.
func chain(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  l%d = local.l%d\n", i+1, i)
	}
	return b.String()
}

// fuzzLimits are lower than the defaults, so that an input that grows
// without bound stops in a fraction of a second and the fuzzer keeps its
// pace; they are checked the same way.
var fuzzLimits = eval.Limits{Elements: 1 << 14, StringBytes: 1 << 20, Allocation: 32 << 20, FileBytes: 1 << 20, Time: time.Second}

// FuzzEvaluate evaluates one main.hcl, bare, and must never panic: errors
// are fine. Its seeds are the evaluator's golden cases, the hand-written
// seeds above and the modules of the bad-input corpus.
func FuzzEvaluate(f *testing.F) {
	for _, p := range txtarCases(f) {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range ar.Files {
			if file.Name == "main.hcl" {
				f.Add(string(file.Data))
			}
		}
	}
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	for _, s := range limitSeeds {
		f.Add(s)
	}
	for _, src := range badInputModules(f) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		fsys := fstest.MapFS{"main.hcl": &fstest.MapFile{Data: []byte(src)}}
		ev, diags := eval.New(eval.Config{FS: fsys, Files: []string{"main.hcl"}, Limits: fuzzLimits})
		if diags.HasErrors() {
			return
		}
		ev.Check()
		v, diags := ev.Config()
		if diags.HasErrors() {
			return
		}
		// What the CLI prints; an error (a number JSON cannot hold) is fine.
		eval.JSON(v)
	})
}

// badInputModules are the .hcl files of the bad-input corpus.
func badInputModules(tb testing.TB) []string {
	paths, err := filepath.Glob("../cmd/nodegen/testdata/badinput/*.txtar")
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no bad-input corpus (%v)", err)
	}
	var out []string
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		for _, file := range ar.Files {
			if strings.HasSuffix(file.Name, ".hcl") {
				out = append(out, string(file.Data))
			}
		}
	}
	return out
}

// txtarCases lists every testdata/**/*.txtar.
func txtarCases(tb testing.TB) []string {
	var out []string
	err := filepath.WalkDir("testdata", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".txtar") {
			out = append(out, p)
		}
		return err
	})
	if err != nil || len(out) == 0 {
		tb.Fatalf("no txtar cases under testdata (%v)", err)
	}
	return out
}

// TestFuzzSeeds runs the hand-written seeds a little further than the fuzz
// target does, to check that the order in which options are forced does
// not change the outcome: each seed is evaluated twice, once as the fuzz
// target does (Check, then the whole config) and once with one value
// read with Get first, which forces options in another order. Both must
// fail with the same errors (their summaries) or give the same config.
func TestFuzzSeeds(t *testing.T) {
	evaluated := 0
	for i, src := range fuzzSeeds {
		run := func(first bool) (string, []string, bool) {
			fsys := fstest.MapFS{"main.hcl": &fstest.MapFile{Data: []byte(src)}}
			ev, diags := eval.New(eval.Config{FS: fsys, Files: []string{"main.hcl"}})
			if diags.HasErrors() {
				return "", nil, false
			}
			if first {
				ev.Get(options.Path{"a"})
			}
			_, diags = ev.Check()
			v, d := ev.Config()
			diags = append(diags, d...)
			if diags.HasErrors() {
				return "", errorSummaries(diags), true
			}
			b, err := eval.JSON(v)
			if err != nil {
				return "error: " + err.Error(), nil, true
			}
			return string(b), nil, true
		}
		plain, plainErrs, ok := run(false)
		if !ok {
			continue
		}
		evaluated++
		got, gotErrs, _ := run(true)
		if diff := cmp.Diff(plainErrs, gotErrs); diff != "" {
			t.Errorf("seed %d: the errors with a first read of a differ (-without +with):\n%s\nseed:\n%s", i, diff, src)
		}
		if got != plain {
			t.Errorf("seed %d: the config with a first read of a is\n%s\nwithout it\n%s\nseed:\n%s", i, got, plain, src)
		}
	}
	if evaluated < len(fuzzSeeds)/2 {
		t.Errorf("only %d of the %d seeds got past loading; the seeds are meant to reach the evaluator", evaluated, len(fuzzSeeds))
	}
}

// errorSummaries is the sorted, distinct summaries of the errors in diags.
func errorSummaries(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			out = append(out, d.Summary)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestLimitSeeds: each of the limit seeds ends in an error at one of the
// limits (eval.LimitOf), under the fuzz target's limits and under the
// defaults.
func TestLimitSeeds(t *testing.T) {
	for i, src := range limitSeeds {
		for _, lim := range []eval.Limits{fuzzLimits, {}} {
			fsys := fstest.MapFS{"main.hcl": &fstest.MapFile{Data: []byte(src)}}
			ev, diags := eval.New(eval.Config{FS: fsys, Files: []string{"main.hcl"}, Limits: lim})
			if !diags.HasErrors() {
				_, diags = ev.Get(options.Path{"a"})
			}
			if !diags.HasErrors() {
				t.Errorf("seed %d with limits %+v: no error", i, lim)
				continue
			}
			over := false
			for _, d := range diags {
				over = over || eval.LimitOf(d) != 0
			}
			if !over {
				t.Errorf("seed %d with limits %+v: %s, want an error at a limit", i, lim, diags.Error())
			}
		}
	}
}
