package eval_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/evalprofile"
	"github.com/nodegen/nodegen/internal/parsecache"
	"github.com/nodegen/nodegen/profile"
)

// TestUnusedProfiles builds the profile of every fixture host over the
// built-in library and 50 generated service modules that no host reads
// (newLargeLibrary), as nodegen eval does (Config.Reads: the library
// modules nothing reads are left out) and with every module: the profiles,
// their warnings and the diagnostics are the same, and the generated
// modules are left out of every host that evaluates; the same when the
// parse cache's facts of the library say which modules it does not use,
// and these are not decoded.
func TestUnusedProfiles(t *testing.T) {
	hosts, err := filepath.Glob(filepath.Join("..", "fixtures", "*", "host.hcl"))
	if err != nil || len(hosts) < 20 {
		t.Fatalf("fixture hosts: %v, %v", hosts, err)
	}
	lib := newLargeLibrary(t, 50)
	build := func(cfg eval.Config) (profile.Profile, string, *eval.Evaluator) {
		cfg.Fleet = eval.NewFleet() // (the process's keeps a few trees, which other tests want)
		ev, diags := eval.New(cfg)
		var p profile.Profile
		if !diags.HasErrors() {
			var d hcl.Diagnostics
			p, d = evalprofile.Build(ev)
			diags = append(diags, d...)
		}
		var buf bytes.Buffer
		_ = hcl.NewDiagnosticTextWriter(&buf, ev.Files(), 0, false).WriteDiagnostics(diags)
		return p, buf.String(), ev
	}
	// The library's facts, written by a first run, and the same files
	// again, which the process has not decoded: the runs over it read the
	// facts and do not decode the modules they leave out.
	cache := parsecache.New(t.TempDir())
	t.Cleanup(cache.Wait)
	if _, diags := eval.New(eval.Config{Library: lib, Files: hosts[:1], Reads: evalprofile.Reads(), ParseCache: cache, Fleet: eval.NewFleet()}); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	cache.Wait()
	again := newLargeLibrary(t, 50)
	for _, host := range hosts {
		t.Run(filepath.Base(filepath.Dir(host)), func(t *testing.T) {
			cfg := eval.Config{Library: lib, Files: []string{host}}
			want, wantDiags, _ := build(cfg)
			cfg.Reads = evalprofile.Reads()
			got, gotDiags, ev := build(cfg)
			cfg.Library, cfg.ParseCache = again, cache
			gotFacts, gotFactsDiags, fev := build(cfg)
			for _, run := range []struct {
				how          string
				p            profile.Profile
				diags        string
				ev           *eval.Evaluator
				minUndecoded int
			}{{"", got, gotDiags, ev, 0}, {" by the facts", gotFacts, gotFactsDiags, fev, 50}} {
				if diff := cmp.Diff(want, run.p); diff != "" {
					t.Errorf("leaving the unused modules out%s changed the profile (-every module +left out):\n%s", run.how, diff)
				}
				if diff := cmp.Diff(wantDiags, run.diags); diff != "" {
					t.Errorf("leaving the unused modules out%s changed the diagnostics (-every module +left out):\n%s", run.how, diff)
				}
				if n, undecoded := run.ev.LeftOut(); wantDiags == "" && (n < 50 || undecoded < run.minUndecoded) {
					t.Errorf("%d modules left out%s (%d not decoded), want the 50 generated ones at least", n, run.how, undecoded)
				}
			}
		})
	}
}
