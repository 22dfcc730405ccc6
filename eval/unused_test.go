package eval

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/internal/parsecache"
	"github.com/nodegen/nodegen/options"
)

// readsRecord is what a caller that reads the options reads of ev gets,
// as text: each one's value (or diagnostics), then the warnings and
// diagnostics of the assertions, as evalprofile.Build reads them; failed
// says there were errors.
func readsRecord(t *testing.T, ev *Evaluator, diags hcl.Diagnostics, reads []options.Path) (record string, failed bool) {
	t.Helper()
	var b strings.Builder
	if !diags.HasErrors() {
		for _, p := range reads {
			v, d := ev.Get(p)
			diags = append(diags, d...)
			if d.HasErrors() {
				continue
			}
			js, err := JSON(v)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s = %s", p, js)
		}
		warns, d := ev.Assertions()
		diags = append(diags, d...)
		for _, w := range warns {
			fmt.Fprintf(&b, "warning: %s (%s)\n", w.Message, w.Range)
		}
	}
	var buf bytes.Buffer
	wr := hcl.NewDiagnosticTextWriter(&buf, ev.Files(), 0, false)
	_ = wr.WriteDiagnostics(dedupe(diags))
	b.Write(buf.Bytes())
	return b.String(), diags.HasErrors()
}

// TestUnusedModules evaluates hosts over NewInertLibrary and a module or
// two more, as a caller that reads `files` does (Config.Reads), and checks
// which library modules are left out before declaring, and that the
// values read, the warnings and the diagnostics are those of the
// evaluation of every module. A module whose assertion fails, whose
// warning fires or whose `when` holds at its defaults is kept, though
// nothing reads it: its checks apply to every host, as in NixOS. own.hcl,
// whose blocks define its own option, is never left out.
func TestUnusedModules(t *testing.T) {
	reads := []options.Path{{"files"}}
	tests := []struct {
		name  string
		host  string
		extra map[string]string
		left  []string
		// leftFacts, when set, are the modules the run that reads the
		// library's facts leaves out, where it keeps more: the facts
		// keep the common prefix of a module's options (commonPrefix)
		leftFacts []string
	}{
		{name: "nothing read", host: ``, left: []string{"chain.hcl", "pull.hcl", "svc.hcl"}},
		{name: "host enables svc", host: `config "svc" { enable = true }`, left: []string{"chain.hcl", "pull.hcl"}},
		{name: "host enables svc at a namespace above", host: `config { svc = { enable = true } }`, left: []string{"chain.hcl", "pull.hcl"}},
		{name: "host reads svc.port", host: `config "files" { x = "${config.svc.port}" }`, left: []string{"chain.hcl", "pull.hcl"}},
		{name: "host reads a namespace above svc", host: `config "files" { x = jsonencode(root.svc) }`, left: []string{"chain.hcl", "pull.hcl"}},
		{name: "host reads through a dynamic index", host: `
locals { name = "svc" }
config "files" { x = jsonencode(config[local.name]) }
`, left: nil},
		{name: "host enables chain, which enables svc", host: `config "chain" { enable = true }`, left: []string{"pull.hcl"}},
		{name: "host sets base.mode strict: watch's assertion fails", host: `config "base" { mode = "strict" }`, left: []string{"chain.hcl", "pull.hcl", "svc.hcl"}},
		{name: "an assertion that fails at the defaults", extra: map[string]string{"bad.hcl": `
option "bad.x" {
  type    = int
  default = 1
}
assert {
  condition = config.bad.x != 1
  message   = "bad.x is 1"
}
`}, left: []string{"chain.hcl", "pull.hcl", "svc.hcl"}},
		{name: "a warning that fires at the defaults", extra: map[string]string{"loud.hcl": `
option "loud.x" {
  type    = int
  default = 1
}
warning {
  condition = config.loud.x == 1
  message   = "loud.x is 1"
}
`}, left: []string{"chain.hcl", "pull.hcl", "svc.hcl"}},
		{name: "a when that holds at the defaults", extra: map[string]string{"on.hcl": `
option "on.enable" {
  type    = bool
  default = true
}
config "files" {
  when = config.on.enable
  on   = "yes"
}
`}, left: []string{"chain.hcl", "pull.hcl", "svc.hcl"}},
		{name: "a when over another module's option", extra: map[string]string{"follow.hcl": `
option "follow.enable" {
  type    = bool
  default = false
}
config "files" {
  when   = config.follow.enable || config.own.enable
  follow = "yes"
}
`}, left: []string{"chain.hcl", "pull.hcl", "svc.hcl"}},
		{name: "a block defining an option nothing declares", extra: map[string]string{"stray.hcl": `
option "stray.enable" {
  type    = bool
  default = false
}
config "nowhere" {
  when = config.stray.enable
  x    = 1
}
`}, left: nil}, // an error: evaluated again with every module
		{name: "a block defining through a renamed option", extra: map[string]string{"ren.hcl": `
option "new.x" {
  type    = attrsOf(int)
  default = {}
}
renamed_option "old.x" { to = "new.x" }
`, "cand.hcl": `
option "cand.enable" {
  type    = bool
  default = false
}
config "old.x" {
  when = config.cand.enable
  y    = 1
}
`}, left: []string{"chain.hcl", "pull.hcl", "svc.hcl"}},
		{name: "two modules declare one option", extra: map[string]string{"dup1.hcl": `
option "dup.x" {
  type    = int
  default = 1
}
`, "dup2.hcl": `
option "dup.x" {
  type    = int
  default = 2
}
`}, left: nil},
		{name: "host declares an option of svc", host: `
option "svc.port" {
  type    = int
  default = 1
}
`, left: nil},
		{name: "host misspells an option of svc", host: `config "svc" { enabel = true }`, left: nil},
		// svc.prot is along no option: svc is left out, and the error
		// is reported by the evaluation of every module (Whole)
		{name: "host reads an option nothing declares", host: `config "files" { x = config.svc.prot }`, left: []string{"chain.hcl", "pull.hcl", "svc.hcl"},
			leftFacts: []string{"chain.hcl", "pull.hcl"}},
	}
	base := NewInertLibrary().(*inertLibrary)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lib := &inertLibrary{maps.Clone(base.MapFS)}
			for name, src := range tt.extra {
				lib.MapFS[name] = &fstest.MapFile{Data: []byte(src)}
			}
			hostFS := fstest.MapFS{"host.hcl": {Data: []byte(tt.host)}}
			// (a Fleet of its own: the process's, libraryTrees, keeps a
			// few trees, which the other tests want)
			cfg := Config{Library: lib, FS: hostFS, Files: []string{"host.hcl"}, Reads: reads, Fleet: NewFleet()}
			ev, diags := New(cfg)
			var left []string
			for _, m := range ev.left {
				left = append(left, m.Src.Path)
			}
			slices.Sort(left)
			if diff := cmp.Diff(tt.left, left); diff != "" {
				t.Errorf("modules left out (-want +got):\n%s", diff)
			}
			got := callerRecord(t, ev, diags, reads)
			whole := cfg
			whole.Reads = nil
			wev, wdiags := New(whole)
			if len(wev.left) != 0 {
				t.Fatalf("an evaluation without Reads left out %d modules", len(wev.left))
			}
			want, _ := readsRecord(t, wev, wdiags, reads)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("leaving the unused modules out changed what is read (-every module +left out):\n%s", diff)
			}

			// With a parse cache: a first run writes the library's facts,
			// and a run over another library of the same files (which
			// the process has not decoded) reads them, and does not
			// decode the modules it leaves out.
			cached := cfg
			cached.ParseCache = parsecache.New(t.TempDir())
			t.Cleanup(cached.ParseCache.Wait) // before the directory goes
			New(cached)
			cached.ParseCache.Wait()
			cached.Library = &inertLibrary{maps.Clone(lib.MapFS)}
			sev, sdiags := New(cached)
			if !sev.stubbed && len(tt.left) > 0 {
				t.Error("the second run found no facts of the library")
			}
			left = left[:0]
			for _, m := range sev.left {
				left = append(left, m.Src.Path)
			}
			slices.Sort(left)
			wantLeft := tt.left
			if tt.leftFacts != nil {
				wantLeft = tt.leftFacts
			}
			if diff := cmp.Diff(wantLeft, left, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("modules left out by the run that read the facts (-want +got):\n%s", diff)
			}
			if n, undecoded := sev.LeftOut(); undecoded != n {
				t.Errorf("the run that read the facts decoded %d of the %d modules it left out", n-undecoded, n)
			}
			if diff := cmp.Diff(want, callerRecord(t, sev, sdiags, reads)); diff != "" {
				t.Errorf("leaving the unused modules out by the facts changed what is read (-every module +left out):\n%s", diff)
			}
		})
	}
}

// callerRecord is readsRecord of ev as a caller reads it
// (evalprofile.BuildFor): an error is reported as the evaluation of every
// module reports it (Whole).
func callerRecord(t *testing.T, ev *Evaluator, diags hcl.Diagnostics, reads []options.Path) string {
	t.Helper()
	got, failed := readsRecord(t, ev, diags, reads)
	if failed && ev.Whole() != ev {
		got, _ = readsRecord(t, ev.Whole(), diags, reads)
	}
	return got
}

// explainFiles evaluates cfg and lists the definitions Explain gives of
// files, each as FILE:LINE and whether it is under a condition.
func explainFiles(t *testing.T, cfg Config) []string {
	t.Helper()
	ev, diags := New(cfg)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	x, diags := ev.Explain(options.Path{"files"})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var defs []string
	for _, d := range x.Definitions {
		defs = append(defs, fmt.Sprintf("%s:%d %v", d.Range.Filename, d.Range.Start.Line, d.Condition != (hcl.Range{})))
	}
	return defs
}

// TestUnusedExplained checks that Explain of an evaluation that left
// modules out lists their definitions under a false condition, as that of
// every module does.
func TestUnusedExplained(t *testing.T) {
	cfg := Config{Library: NewInertLibrary(), FS: fstest.MapFS{"host.hcl": {Data: nil}}, Files: []string{"host.hcl"}, Fleet: NewFleet()}
	explain := func(cfg Config) []string { return explainFiles(t, cfg) }
	want := explain(cfg)
	if !slices.ContainsFunc(want, func(d string) bool { return strings.HasPrefix(d, "<nodegen>/modules/svc.hcl:") }) {
		t.Fatalf("svc.hcl's definition of files is not listed: %q", want)
	}
	cfg.Reads = []options.Path{{"files"}}
	if diff := cmp.Diff(want, explain(cfg)); diff != "" {
		t.Errorf("definitions of files (-every module +left out):\n%s", diff)
	}
}

// TestUnusedDefinitions checks that Definitions of an evaluation that
// left modules out answers for their options as that of every module
// does: a profile's origin may name any option, and its problems are
// located by it (evalprofile's locate). The host defines the option of a
// left-out module only by a string (an origin), which reads nothing.
func TestUnusedDefinitions(t *testing.T) {
	host := fstest.MapFS{"host.hcl": {Data: []byte(`config "files" { x = "svc.port" }`)}}
	cfg := Config{Library: NewInertLibrary(), FS: host, Files: []string{"host.hcl"}, Fleet: NewFleet()}
	paths := []options.Path{{"svc", "port"}, {"svc"}, {"pull", "registry"}, {"files"}}
	definitions := func(cfg Config) (left []string, defs [][]Definition) {
		ev, diags := New(cfg)
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		for _, m := range ev.left {
			left = append(left, m.Src.Path)
		}
		for _, p := range paths {
			defs = append(defs, ev.Definitions(p))
		}
		return left, defs
	}
	_, want := definitions(cfg)
	if len(want[0]) == 0 {
		t.Fatalf("no definition of svc.port with every module: %v", want)
	}
	cfg.Reads = []options.Path{{"files"}}
	left, got := definitions(cfg)
	if !slices.Contains(left, "svc.hcl") || !slices.Contains(left, "pull.hcl") {
		t.Fatalf("svc.hcl and pull.hcl not left out: %q", left)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("definitions (-every module +left out):\n%s", diff)
	}
}

// TestUnusedFactsKey checks that the facts of a library are those of its
// files and limits: a library with a module changed, or an evaluation
// with other limits, finds none, and writes its own.
func TestUnusedFactsKey(t *testing.T) {
	base := NewInertLibrary().(*inertLibrary)
	cache := parsecache.New(t.TempDir())
	t.Cleanup(cache.Wait)
	stubbed := func(files fstest.MapFS, limits Limits) bool {
		t.Helper()
		ev, diags := New(Config{Library: &inertLibrary{files}, Reads: []options.Path{{"files"}}, ParseCache: cache, Limits: limits, Fleet: NewFleet()})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		cache.Wait()
		return ev.stubbed
	}
	if stubbed(base.MapFS, Limits{}) {
		t.Fatal("facts found in a new cache")
	}
	if !stubbed(maps.Clone(base.MapFS), Limits{}) {
		t.Fatal("no facts for the same files")
	}
	changed := maps.Clone(base.MapFS)
	changed["svc.hcl"] = &fstest.MapFile{Data: append(slices.Clone(base.MapFS["svc.hcl"].Data), "\n# changed\n"...)}
	if stubbed(changed, Limits{}) {
		t.Error("facts found for a library with a module changed")
	}
	if !stubbed(maps.Clone(changed), Limits{}) {
		t.Error("no facts for the changed library once evaluated")
	}
	if stubbed(maps.Clone(base.MapFS), Limits{Depth: 1000}) {
		t.Error("facts found for other limits")
	}
}

// TestUnusedChangesNothing evaluates hosts over NewInertLibrary and
// modules more, with every module, leaving the unused out, and leaving
// them out by the parse cache's facts (written by a run of a host that
// reads nothing, then read over another library of the same files): what
// is read, warned and reported is the same each time. The cases are those
// where a module that looks unused is not: its `when` reads an option it
// defines itself, it reads another module's option through try, can,
// keys or isDefined, its checks read a file, an option it declares is
// renamed or removed elsewhere, a block defines a path no option has, the
// host disables a module it defines into, a block under a false `when`
// defines a read-only option (which counts the definition all the same),
// a check or `when` reads a format (which another module declares).
func TestUnusedChangesNothing(t *testing.T) {
	reads := []options.Path{{"files"}}
	const ff = `
option "ff.enable" {
  type    = bool
  default = false
}
`
	tests := []struct {
		name string
		host string
		lib  map[string]string
	}{
		{"a when over an option the module defines itself", "", map[string]string{"cyc.hcl": `
option "cyc.enable" {
  type    = bool
  default = false
}
config "cyc" {
  when   = config.cyc.enable
  enable = true
}
assert {
  condition = !config.cyc.enable
  message   = "cyc on"
}
`}},
		{"a when through try over another module's option", `config "gg" { x = 1 }`, map[string]string{
			"gg.hcl": `
option "gg.x" {
  type    = int
  default = 0
}
`,
			"ff.hcl": ff + `
config "files" {
  when = try(config.gg.x, 0) > 0
  ff   = "on"
}
`}},
		{"a warning through can over another module's option", "", map[string]string{
			"gg.hcl": `
option "gg.x" {
  type    = int
  default = 1
}
config "files" { gg = "x" }
`,
			"ff.hcl": ff + `
warning {
  condition = can(config.gg.x)
  message   = "gg is here"
}
`}},
		{"a warning over the keys of another module's namespace", `config "gg" { x = 1 }`, map[string]string{
			"gg.hcl": `
option "gg.x" { type = int }
`,
			"ff.hcl": ff + `
warning {
  condition = length(keys(config.gg)) > 0
  message   = "gg has options"
}
`}},
		{"a warning over isDefined of another module's option", `config "gg" { x = 1 }`, map[string]string{
			"gg.hcl": `
option "gg.x" { type = int }
`,
			"ff.hcl": ff + `
warning {
  condition = options.gg.x.isDefined
  message   = "gg.x is defined"
}
`}},
		{"a warning over a file", "", map[string]string{
			"ff.hcl": ff + `
warning {
  condition = trimspace(file("ff.flag")) == "on"
  message   = "ff.flag is on"
}
`,
			"ff.flag": "on\n"}},
		{"an option another module renames", "", map[string]string{
			"ren.hcl": `
option "new.x" {
  type    = int
  default = 0
}
renamed_option "old.x" { to = "new.x" }
`,
			"old.hcl": `
option "old.x" {
  type    = int
  default = 0
}
`}},
		{"an option the host removes", `removed_option "svc.port" { message = "gone" }`, nil},
		{"an option the host renames", `renamed_option "svc.port" { to = "files" }`, nil},
		{"a block defining a path no option has", "", map[string]string{"ff.hcl": ff + `
config "svc" {
  when  = config.ff.enable
  bogus = 1
}
`}},
		{"a block defining a key no option has, in an object", "", map[string]string{"ff.hcl": ff + `
config {
  when = config.ff.enable
  svc  = { bogus = 1 }
}
`}},
		{"the host disables the module another defines into", `disabled_modules = ["gg.hcl"]`, map[string]string{
			"gg.hcl": `
option "gg.x" {
  type    = int
  default = 0
}
`,
			"ff.hcl": ff + `
config "gg" {
  when = config.ff.enable
  x    = 1
}
`}},
		{"a read-only option another module defines under a false when", `config "files" { x = "${config.ro.x}" }`, map[string]string{
			"ro.hcl": `
option "ro.x" {
  type      = int
  default   = 1
  read_only = true
}
`,
			"ff.hcl": ff + `
config "ro" {
  when = config.ff.enable
  x    = 2
}
`}},
		{"a read-only option defined at a namespace above, under a false when", `config "files" { x = "${config.ro.x}" }`, map[string]string{
			"ro.hcl": `
option "ro.x" {
  type      = int
  default   = 1
  read_only = true
}
`,
			"ff.hcl": ff + `
config {
  when = config.ff.enable
  ro   = { x = 2 }
}
`}},
		{"a warning over a format another module declares", "", map[string]string{
			"fmt.hcl": `
format "myfmt" "json" {}
`,
			"ff.hcl": ff + `
warning {
  condition = can(format.myfmt)
  message   = "myfmt is declared"
}
`}},
		{"a when over a format the host declares", `format "myfmt" "json" {}`, map[string]string{
			"ff.hcl": ff + `
config "files" {
  when = can(format.myfmt)
  ff   = "on"
}
`}},
	}
	base := NewInertLibrary().(*inertLibrary)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := maps.Clone(base.MapFS)
			for name, src := range tt.lib {
				files[name] = &fstest.MapFile{Data: []byte(src)}
			}
			host := func(src string) fstest.MapFS { return fstest.MapFS{"host.hcl": {Data: []byte(src)}} }
			cfg := Config{Library: &inertLibrary{files}, FS: host(tt.host), Files: []string{"host.hcl"}, Fleet: NewFleet()}
			wev, wdiags := New(cfg)
			want, _ := readsRecord(t, wev, wdiags, reads)

			cfg.Reads = reads
			ev, diags := New(cfg)
			if diff := cmp.Diff(want, callerRecord(t, ev, diags, reads)); diff != "" {
				t.Errorf("leaving the unused modules out changed what is read (-every module +left out):\n%s", diff)
			}

			cfg.ParseCache = parsecache.New(t.TempDir())
			t.Cleanup(cfg.ParseCache.Wait)
			first := cfg
			first.Library, first.FS = &inertLibrary{maps.Clone(files)}, host("")
			New(first)
			cfg.ParseCache.Wait()
			cfg.Library = &inertLibrary{maps.Clone(files)}
			sev, sdiags := New(cfg)
			if diff := cmp.Diff(want, callerRecord(t, sev, sdiags, reads)); diff != "" {
				t.Errorf("leaving the unused modules out by the facts changed what is read (-every module +left out):\n%s", diff)
			}
		})
	}
}

// TestUnusedKeepsInertSkipped checks that an evaluation of a shared tree
// that leaves unused modules out keeps the inert modules it skipped too,
// so that Explain lists their definitions under a false condition.
func TestUnusedKeepsInertSkipped(t *testing.T) {
	host := fstest.MapFS{"host.hcl": {Data: []byte(`config "files" { x = "${config.svc.port}${config.pull.registry}${config.own.level}" }`)}}
	cfg := Config{Library: NewInertLibrary(), FS: host, Files: []string{"host.hcl"}, Fleet: NewFleet()}
	explain := func(cfg Config) []string { return explainFiles(t, cfg) }
	want := explain(cfg)
	cfg.Reads = []options.Path{{"files"}}
	var got []string
	for range 4 { // the tree kept from the second, the inert known after
		got = explain(cfg)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("definitions of files (-every module +left out, shared tree):\n%s", diff)
	}
}

// TestUnusedFactsAndFiles checks that a module whose checks read a file
// is not left out by facts written while the file said otherwise: what a
// module does by itself is a fact of its source only if it reads no file.
func TestUnusedFactsAndFiles(t *testing.T) {
	reads := []options.Path{{"files"}}
	base := NewInertLibrary().(*inertLibrary)
	library := func(flag string) *inertLibrary {
		l := &inertLibrary{maps.Clone(base.MapFS)}
		l.MapFS["ff.hcl"] = &fstest.MapFile{Data: []byte(`
option "ff.enable" {
  type    = bool
  default = false
}
warning {
  condition = trimspace(file("ff.flag")) == "on"
  message   = "ff.flag is on"
}
`)}
		l.MapFS["ff.flag"] = &fstest.MapFile{Data: []byte(flag)}
		return l
	}
	cache := parsecache.New(t.TempDir())
	t.Cleanup(cache.Wait)
	cfg := Config{Library: library("off"), FS: fstest.MapFS{"host.hcl": {}}, Files: []string{"host.hcl"}, Reads: reads, Fleet: NewFleet(), ParseCache: cache}
	New(cfg)
	cache.Wait()
	cfg.Library = library("on")
	ev, diags := New(cfg)
	got := callerRecord(t, ev, diags, reads)
	if !strings.Contains(got, "ff.flag is on") {
		t.Errorf("the warning of a module whose file changed since the facts were written is lost:\n%s", got)
	}
}
