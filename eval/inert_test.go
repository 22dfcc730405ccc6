package eval

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/modules"
	"github.com/nodegen/nodegen/options"
)

// checkRecord is what checking an evaluation gives, as text: its
// warnings, its diagnostics and the whole configuration.
func checkRecord(t *testing.T, ev *Evaluator, diags hcl.Diagnostics) string {
	t.Helper()
	var b strings.Builder
	warns, d := ev.Check()
	diags = append(diags, d...)
	for _, w := range warns {
		fmt.Fprintf(&b, "warning: %s (%s)\n", w.Message, w.Range)
	}
	if !diags.HasErrors() {
		v, d := ev.Config()
		diags = append(diags, d...)
		js, err := JSON(v)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(js)
	}
	var buf bytes.Buffer
	wr := hcl.NewDiagnosticTextWriter(&buf, ev.Files(), 0, false)
	_ = wr.WriteDiagnostics(diags)
	b.Write(buf.Bytes())
	return b.String()
}

// TestSharedTreesChangeNothing evaluates every fixture host with the
// built-in library as a process that evaluates again does (its tree kept,
// its inert modules known and left out, its constant defaults merged once)
// and as one nodegen eval does (a tree of its own, every module split):
// the warnings, the diagnostics and the whole configuration are the same,
// and the first leaves modules out.
func TestSharedTreesChangeNothing(t *testing.T) {
	hosts, err := filepath.Glob(filepath.Join("..", "fixtures", "*", "host.hcl"))
	if err != nil || len(hosts) < 20 {
		t.Fatalf("fixture hosts: %v, %v", hosts, err)
	}
	for _, host := range hosts {
		t.Run(filepath.Base(filepath.Dir(host)), func(t *testing.T) {
			cfg := Config{Library: modules.FS(), Files: []string{host}}
			var ev *Evaluator
			var diags hcl.Diagnostics
			for range 3 { // the second keeps the tree, the third skips
				ev, diags = New(cfg)
			}
			if len(ev.skipped) == 0 && !declaresOwn(ev) {
				t.Errorf("no module left out of the third evaluation of %s", host)
			}
			got := checkRecord(t, ev, diags)
			// As one nodegen eval evaluates it: a tree of its own (a new
			// Fleet keeps none from its first evaluation), every module.
			once := cfg
			once.Fleet = NewFleet()
			full, diags := New(once)
			if len(full.skipped) != 0 || full.defaults != nil {
				t.Fatalf("a first evaluation of a tree left out %d modules or shares defaults", len(full.skipped))
			}
			want := checkRecord(t, full, diags)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("leaving the inert modules out changed the evaluation (-all +skipping):\n%s", diff)
			}
		})
	}
}

// TestInertKeepsReadOnlyDefinitions checks that a module whose block,
// under a false `when`, defines a read-only option (at it, or at a
// namespace above) is not skipped by the evaluations of a shared tree: a
// read-only option counts that definition too, and the error of a second
// one is the same as one nodegen eval's.
func TestInertKeepsReadOnlyDefinitions(t *testing.T) {
	const ro = `
option "ro.x" {
  type      = int
  default   = 1
  read_only = true
}
`
	const ff = `
option "ff.enable" {
  type    = bool
  default = false
}
`
	for name, block := range map[string]string{
		"at the option":        "config \"ro\" {\n  when = config.ff.enable\n  x    = 2\n}\n",
		"at a namespace above": "config {\n  when = config.ff.enable\n  ro   = { x = 2 }\n}\n",
	} {
		t.Run(name, func(t *testing.T) {
			files := maps.Clone(NewInertLibrary().(*inertLibrary).MapFS)
			files["ro.hcl"] = &fstest.MapFile{Data: []byte(ro)}
			files["ff.hcl"] = &fstest.MapFile{Data: []byte(ff + block)}
			host := fstest.MapFS{"host.hcl": {Data: []byte(`config "files" { x = "${config.ro.x}" }`)}}
			cfg := Config{Library: &inertLibrary{files}, FS: host, Files: []string{"host.hcl"}}
			var ev *Evaluator
			var diags hcl.Diagnostics
			for range 3 { // the second keeps the tree, the third skips
				ev, diags = New(cfg)
			}
			if slices.Contains(SkippedModules(ev), "ff.hcl") {
				t.Errorf("ff.hcl skipped: %q", SkippedModules(ev))
			}
			once := cfg
			once.Fleet = NewFleet()
			full, fullDiags := New(once)
			want := checkRecord(t, full, fullDiags)
			if !strings.Contains(want, `Option "ro.x" is read-only`) {
				t.Fatalf("no read-only error with every module:\n%s", want)
			}
			if diff := cmp.Diff(want, checkRecord(t, ev, diags)); diff != "" {
				t.Errorf("skipping changed the evaluation (-all +skipping):\n%s", diff)
			}
		})
	}
}

// SkippedModules lists the paths of the modules ev left out, sorted
// (exported for the package's external tests).
func SkippedModules(ev *Evaluator) []string {
	var out []string
	for m := range ev.skipped {
		out = append(out, m.Src.Path)
	}
	slices.Sort(out)
	return out
}

// declaresOwn says a module of ev that is not the library's declares
// something: its tree is its own, which evaluations without a Fleet do
// not keep (nor learn inert modules of).
func declaresOwn(ev *Evaluator) bool {
	return slices.ContainsFunc(ev.Mods, func(m *syntax.Module) bool { return !m.Shared && m.Declares() })
}

// inertLibrary is a library file system that the process parses once (a
// pointer, as the built-in library is an embedded file system), so that
// its tree is kept and its inert modules known.
type inertLibrary struct{ fstest.MapFS }

// NewInertLibrary is the library of TestInertModuleChecks (exported for
// the package's external tests): base declares
// what the others define; svc is a service module (inert while disabled,
// its assertion reading only its own options); chain enables svc when it
// is enabled (inert too, defining into svc's options, so that svc is
// learned inert by the evaluation after the one that learns chain's);
// pull's config block has no prefix (inert while disabled, its attribute
// naming the option it targets); own's blocks define its own option and
// another's (inert while disabled); watch asserts over another module's
// option (never inert).
func NewInertLibrary() fs.FS {
	return &inertLibrary{fstest.MapFS{
		"base.hcl": {Data: []byte(`
option "files" {
  type    = attrsOf(str)
  default = {}
}
option "base.mode" {
  type    = str
  default = "off"
}
`)},
		"svc.hcl": {Data: []byte(`
locals {
  cfg = config.svc
}
option "svc.enable" {
  type    = bool
  default = false
}
option "svc.port" {
  type    = int
  default = 22
}
config "files" {
  when = local.cfg.enable
  svc  = "port ${local.cfg.port}"
}
assert {
  condition = !local.cfg.enable || local.cfg.port != 22
  message   = "svc.port: 22 is sshd's"
}
warning {
  condition = local.cfg.enable && local.cfg.port > 1000
  message   = "svc listens on a high port"
}
`)},
		"chain.hcl": {Data: []byte(`
option "chain.enable" {
  type    = bool
  default = false
}
config "svc" {
  when   = config.chain.enable
  enable = true
}
`)},
		"pull.hcl": {Data: []byte(`
option "pull.enable" {
  type    = bool
  default = false
}
option "pull.registry" {
  type    = str
  default = "registry.example"
}
config {
  when  = config.pull.enable
  files = { pull = config.pull.registry }
}
`)},
		"own.hcl": {Data: []byte(`
option "own.enable" {
  type    = bool
  default = false
}
option "own.level" {
  type    = int
  default = 1
}
config {
  when = config.own.enable
  own  = { level = 5 }
}
config "files" {
  when = config.own.enable
  own  = "level ${config.own.level}"
}
`)},
		"watch.hcl": {Data: []byte(`
option "watch.level" {
  type    = int
  default = 1
}
assert {
  condition = config.base.mode != "strict" || config.watch.level > 1
  message   = "a strict base needs watch.level above 1"
}
`)},
	}}
}

// TestInertModuleExplained checks that Explain lists the definitions of a
// module left out, under their false condition, as it does those of a
// module that is split, and evaluates anew only for the options such a
// definition reaches.
func TestInertModuleExplained(t *testing.T) {
	lib := NewInertLibrary()
	var ev *Evaluator
	for range 4 {
		var diags hcl.Diagnostics
		ev, diags = New(Config{Library: lib})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
	}
	if !slices.ContainsFunc(ev.Mods, func(m *syntax.Module) bool { return ev.skipped[m] && m.Src.Path == "svc.hcl" }) {
		t.Fatal("svc.hcl is not left out of the third evaluation")
	}
	if _, diags := ev.Explain(options.Path{"base", "mode"}); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if ev.full != nil {
		t.Error("Explain of base.mode, which no module left out defines, made an evaluation of every module")
	}
	x, diags := ev.Explain(options.Path{"files"})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var disabled []string
	for _, d := range x.Definitions {
		if d.Condition != (hcl.Range{}) {
			disabled = append(disabled, fmt.Sprintf("%s:%d", d.Range.Filename, d.Range.Start.Line))
		}
	}
	want := []string{"<nodegen>/modules/own.hcl:14", "<nodegen>/modules/pull.hcl:12", "<nodegen>/modules/svc.hcl:13"}
	slices.Sort(disabled)
	if diff := cmp.Diff(want, disabled); diff != "" {
		t.Errorf("definitions under a false condition (-want +got):\n%s", diff)
	}
}
