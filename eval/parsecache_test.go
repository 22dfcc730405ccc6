package eval_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/parsecache"
	"github.com/nodegen/nodegen/modules"
)

// configJSON evaluates cfg and renders the whole configuration.
func configJSON(t *testing.T, cfg eval.Config) string {
	t.Helper()
	ev, diags := eval.New(cfg)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	v, diags := ev.Config()
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	out, err := eval.JSON(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestParseCacheSameConfig evaluates configurations without the parse
// cache, with an empty one (which parses and writes every file) and with
// the one so filled (which decodes every file): the three are the same.
func TestParseCacheSameConfig(t *testing.T) {
	hosts, err := filepath.Glob("../fixtures/*/host.hcl")
	if err != nil || len(hosts) < 10 {
		t.Fatalf("fixtures: %v, %v", hosts, err)
	}
	cases := map[string]eval.Config{
		"generated set of 100": {FS: genModules(100), Files: []string{"main.hcl"}},
	}
	for _, h := range hosts {
		cases[filepath.Base(filepath.Dir(h))] = eval.Config{Files: []string{h}, Library: modules.FS()}
	}
	for name, cfg := range cases {
		t.Run(name, func(t *testing.T) {
			want := configJSON(t, cfg)
			dir := t.TempDir()
			cold := parsecache.New(dir)
			cfg.ParseCache = cold
			if got := configJSON(t, cfg); got != want {
				t.Errorf("with an empty cache: %s", cmp.Diff(want, got))
			}
			cold.Wait() // as nodegen does before it exits
			warm := parsecache.New(dir)
			cfg.ParseCache = warm
			if got := configJSON(t, cfg); got != want {
				t.Errorf("decoded from the cache: %s", cmp.Diff(want, got))
			}
			// The library's files come from the process's own cache
			// (parsed once per process), the others from the disk.
			if w, h := cold.Stats().Written, warm.Stats().Hits; w == 0 || h != w {
				t.Errorf("%d files written to the cache, %d decoded from it; want the same, more than none", w, h)
			}
		})
	}
}

// TestParseCacheErrorsUnchanged checks that a module with an error reads
// the same with the cache as without: it is parsed every time.
func TestParseCacheErrorsUnchanged(t *testing.T) {
	dir := t.TempDir()
	host := filepath.Join(dir, "host.hcl")
	if err := os.WriteFile(host, []byte("imports = [\"./bad.hcl\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.hcl"), []byte("config {\n  a = \n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := eval.Config{Files: []string{host}}
	_, want := eval.New(cfg)
	if !want.HasErrors() {
		t.Fatal("no error")
	}
	cache := parsecache.New(filepath.Join(dir, "cache"))
	cfg.ParseCache = cache
	for range 2 {
		_, got := eval.New(cfg)
		if got.Error() != want.Error() {
			t.Errorf("with the cache: %s, want %s", got.Error(), want.Error())
		}
	}
	cache.Wait() // for host.hcl's entry, before the directory is removed
	if !strings.Contains(want.Error(), "bad.hcl:2") {
		t.Errorf("the error %q does not point at bad.hcl", want.Error())
	}
}
