package eval_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/parsecache"
	"github.com/nodegen/nodegen/internal/parsediag"
	"github.com/nodegen/nodegen/options"
)

// benchSizes are the module counts of the generated sets.
var benchSizes = []int{10, 100, 1000}

// genModules writes a deterministic module set of n modules into a MapFS:
// m0000.hcl ... and a main.hcl that imports them all and declares the
// shared submodule type. Module i declares ten options under its own
// namespace mIIII and defines options of module j = i+1 (mod n) with
// cross-references to module k = i+7 (mod n), mkIf on k's enable, mkDefault,
// mkMerge and lists. A module is about 2.4 KB, so n = 1000 is about 2.4 MB.
// The set has no cycle: the options read across modules (enable, name,
// port, mode) are defined only by defaults and by the module itself.
func genModules(n int) fstest.MapFS {
	fsys := fstest.MapFS{}
	var main strings.Builder
	main.WriteString("# Generated benchmark module set.\nimports = [\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&main, "  \"./m%04d.hcl\",\n", i)
	}
	main.WriteString(`]

submodule "endpoint" {
  option "address" {
    type        = str
    description = "Address the endpoint listens on."
  }
  option "port" {
    type        = port
    description = "Port the endpoint listens on."
  }
  option "label" {
    type        = str
    default     = name
    description = "Label of the endpoint; its attribute name by default."
  }
  option "url" {
    type        = str
    default     = "tcp://${config.address}:${config.port}"
    description = "URL of the endpoint, derived from address and port."
  }
}
`)
	fsys["main.hcl"] = &fstest.MapFile{Data: []byte(main.String())}
	for i := 0; i < n; i++ {
		fsys[fmt.Sprintf("m%04d.hcl", i)] = &fstest.MapFile{Data: []byte(genModule(i, n))}
	}
	return fsys
}

var modes = []string{"blue", "green", "canary"}

func genModule(i, n int) string {
	j, k := (i+1)%n, (i+7)%n
	me, next, peer := fmt.Sprintf("m%04d", i), fmt.Sprintf("m%04d", j), fmt.Sprintf("m%04d", k)
	r := strings.NewReplacer("ME", me, "NEXT", next, "PEER", peer,
		"IDX", fmt.Sprint(i),
		"ENABLE", fmt.Sprint(i%4 != 0),
		"PORT", fmt.Sprint(10000+i),
		"MODE", modes[i%3],
		"ADDR", fmt.Sprintf("10.%d.%d.1", i/256, i%256))
	return r.Replace(`# Generated module ME: defines NEXT, reads PEER.
locals {
  cfg  = config.ME
  peer = config.PEER
}

options "ME" {
  option "enable" {
    type        = bool
    default     = ENABLE
    description = "Whether to enable service ME; other modules read it in mkIf."
  }
  option "name" {
    type        = str
    default     = "service-ME"
    description = "Name of service ME, referenced in URLs and labels."
  }
  option "port" {
    type        = port
    default     = PORT
    description = "TCP port service ME listens on."
  }
  option "replicas" {
    type        = int
    description = "Replicas of ME: a mkDefault, overridden when the peer is enabled."
  }
  option "url" {
    type        = str
    description = "URL of the upstream of ME, set by the previous module."
  }
  option "mode" {
    type        = enum(["blue", "green", "canary"])
    default     = "blue"
    description = "Deployment mode of ME."
  }
  option "tags" {
    type        = listOf(str)
    default     = []
    description = "Tags of ME, concatenated from every definition."
  }
  option "labels" {
    type        = attrsOf(str)
    default     = {}
    description = "Labels of ME, merged key by key."
  }
  option "endpoints" {
    type        = attrsOf(submodule.endpoint)
    default     = {}
    description = "Endpoints of ME, one submodule instance per attribute."
  }
  option "summary" {
    type        = str
    description = "A one-line summary of ME computed from its other options."
  }
}

config "ME" {
  mode    = mkDefault("MODE")
  summary = "${local.cfg.name} (${local.cfg.mode}) on port ${local.cfg.port}: ${length(local.cfg.tags)} tags, ${length(local.cfg.endpoints)} endpoints"
}

config "NEXT" {
  url      = "http://${local.peer.name}:${local.peer.port}/${local.cfg.mode}"
  replicas = mkDefault(local.cfg.port % 5 + 1)
  tags     = ["from-ME", local.cfg.name]
  labels = mkMerge([
    { owner = "ME", index = "IDX" },
    mkIf(local.peer.enable, { peer = local.peer.name }),
  ])
  endpoints = {
    eME = {
      address = "ADDR"
      port    = local.cfg.port
    }
  }
}

config "NEXT" {
  when     = local.peer.enable
  replicas = local.cfg.port % 3 + 1
  tags     = ["peer-${local.peer.name}"]
}

assert {
  condition = local.cfg.port > 0 && length(local.cfg.summary) > 0
  message   = "ME needs a port and a summary"
}
`)
}

// wantModule is what the generated set must evaluate to for module j.
func wantModule(j, n int) map[string]any {
	i := (j - 1 + n) % n // the module that defines j's values
	k := (i + 7) % n     // i's peer
	mi, mj, mk := fmt.Sprintf("m%04d", i), fmt.Sprintf("m%04d", j), fmt.Sprintf("m%04d", k)
	peerOn := k%4 != 0
	replicas := int64((10000+i)%5 + 1)
	tags := []any{"from-" + mi, "service-" + mi}
	labels := map[string]any{"owner": mi, "index": fmt.Sprint(i)}
	if peerOn {
		replicas = int64((10000+i)%3 + 1)
		tags = append(tags, "peer-service-"+mk)
		labels["peer"] = "service-" + mk
	}
	// Within one module, two config blocks' list definitions come in
	// source order; the default [] contributes nothing.
	return map[string]any{
		"enable":   j%4 != 0,
		"name":     "service-" + mj,
		"port":     int64(10000 + j),
		"replicas": replicas,
		"url":      fmt.Sprintf("http://service-%s:%d/%s", mk, 10000+k, modes[i%3]),
		"mode":     modes[j%3],
		"tags":     tags,
		"labels":   labels,
		"endpoints": map[string]any{
			"e" + mi: map[string]any{
				"address": fmt.Sprintf("10.%d.%d.1", i/256, i%256),
				"port":    int64(10000 + i),
				"label":   "e" + mi,
				"url":     fmt.Sprintf("tcp://10.%d.%d.1:%d", i/256, i%256, 10000+i),
			},
		},
		"summary": fmt.Sprintf("service-%s (%s) on port %d: %d tags, 1 endpoints", mj, modes[j%3], 10000+j, len(tags)),
	}
}

func setSize(fsys fstest.MapFS) int {
	total := 0
	for _, f := range fsys {
		total += len(f.Data)
	}
	return total
}

// checkSet evaluates a generated set the way `nodegen eval --json` does
// and compares a few modules with wantModule.
func checkSet(tb testing.TB, n int, fsys fstest.MapFS) {
	tb.Helper()
	ev, diags := eval.New(eval.Config{FS: fsys, Files: []string{"main.hcl"}})
	if diags.HasErrors() {
		tb.Fatalf("New: %s", diags.Error())
	}
	warns, diags := ev.Check()
	if diags.HasErrors() {
		tb.Fatalf("Check: %s", diags.Error())
	}
	if len(warns) > 0 {
		tb.Fatalf("unexpected warnings: %v", warns)
	}
	v, diags := ev.Config()
	if diags.HasErrors() {
		tb.Fatalf("Config: %s", diags.Error())
	}
	top, ok := eval.GoValue(v).(map[string]any)
	if !ok || len(top) != n {
		tb.Fatalf("config has %d namespaces, want %d", len(top), n)
	}
	for _, j := range []int{0, 1, 3, 7, n / 2, n - 1} {
		name := fmt.Sprintf("m%04d", j)
		if diff := cmp.Diff(wantModule(j, n), top[name]); diff != "" {
			tb.Fatalf("%s differs (-want +got):\n%s", name, diff)
		}
		// Get reads the same value as the whole config.
		p, err := options.ParsePath(name + ".url")
		if err != nil {
			tb.Fatal(err)
		}
		ev2, _ := eval.New(eval.Config{FS: fsys, Files: []string{"main.hcl"}})
		got, diags := ev2.Get(p)
		if diags.HasErrors() {
			tb.Fatalf("Get %s: %s", p, diags.Error())
		}
		if want := wantModule(j, n)["url"]; eval.GoValue(got) != want {
			tb.Fatalf("Get %s = %v, want %v", p, eval.GoValue(got), want)
		}
	}
}

// TestGeneratedSet checks that the benchmark's module set of 100 modules
// evaluates without errors to the expected values.
func TestGeneratedSet(t *testing.T) {
	for _, n := range []int{10, 100} {
		fsys := genModules(n)
		if n == 100 {
			if size := setSize(fsys); size < 200_000 || size > 300_000 {
				t.Errorf("a set of 100 modules has %d bytes, want about 240 KB", size)
			}
		}
		checkSet(t, n, fsys)
	}
}

// TestWriteGeneratedSet writes the set of NODEGEN_GENSET_N modules to the
// directory NODEGEN_GENSET_DIR, for timing the CLI on it. It is skipped
// unless both are set.
func TestWriteGeneratedSet(t *testing.T) {
	dir := os.Getenv("NODEGEN_GENSET_DIR")
	var n int
	if _, err := fmt.Sscan(os.Getenv("NODEGEN_GENSET_N"), &n); err != nil || dir == "" {
		t.Skip("NODEGEN_GENSET_DIR and NODEGEN_GENSET_N not set")
	}
	fsys := genModules(n)
	names := make([]string, 0, len(fsys))
	for name := range fsys {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), fsys[name].Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("wrote %d files, %d bytes", len(fsys), setSize(fsys))
}

var benchSets = map[int]fstest.MapFS{}

func benchSet(b *testing.B, n int) fstest.MapFS {
	b.Helper()
	if fsys, ok := benchSets[n]; ok {
		return fsys
	}
	fsys := genModules(n)
	checkSet(b, n, fsys)
	benchSets[n] = fsys
	return fsys
}

func benchCfg(fsys fstest.MapFS) eval.Config {
	return eval.Config{FS: fsys, Files: []string{"main.hcl"}}
}

// BenchmarkParse measures eval.New: reading and parsing every file
// (concurrently), declaring the options and splitting the definitions.
// Nothing is evaluated.
func BenchmarkParse(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			fsys := benchSet(b, n)
			b.SetBytes(int64(setSize(fsys)))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, diags := eval.New(benchCfg(fsys)); diags.HasErrors() {
					b.Fatal(diags.Error())
				}
			}
		})
	}
}

// BenchmarkParseCached is BenchmarkParse with a warm parse cache
// (internal/parsecache, as the command has it from its second run on):
// every file is decoded rather than parsed.
func BenchmarkParseCached(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			fsys := benchSet(b, n)
			cfg := benchCfg(fsys)
			cfg.ParseCache = parsecache.New(b.TempDir())
			if _, diags := eval.New(cfg); diags.HasErrors() {
				b.Fatal(diags.Error())
			}
			cfg.ParseCache.Wait()
			b.SetBytes(int64(setSize(fsys)))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if _, diags := eval.New(cfg); diags.HasErrors() {
					b.Fatal(diags.Error())
				}
			}
			if st := cfg.ParseCache.Stats(); st.Written != int64(len(fsys)) || st.Hits < st.Written {
				b.Fatalf("parse cache: %+v, want every file written once and decoded", st)
			}
		})
	}
}

// BenchmarkHCLParse is the floor under BenchmarkParse: hcl's ParseConfig
// on every file and nothing else ("upstream"), and with what nodegen does
// around it (parsediag.Parse: hclguard's checks, the heredocs' line
// endings, "guarded"), on one goroutine (serial) and on GOMAXPROCS
// goroutines (parallel).
func BenchmarkHCLParse(b *testing.B) {
	guarded := func(src []byte, filename string, _ hcl.Pos) (*hcl.File, hcl.Diagnostics) {
		return parsediag.Parse(src, filename)
	}
	parsers := []struct {
		name  string
		parse func([]byte, string, hcl.Pos) (*hcl.File, hcl.Diagnostics)
	}{
		{"upstream", hclsyntax.ParseConfig},
		{"guarded", guarded},
	}
	for _, p := range parsers {
		b.Run(p.name, func(b *testing.B) { benchHCLParse(b, p.parse) })
	}
}

func benchHCLParse(b *testing.B, parse func([]byte, string, hcl.Pos) (*hcl.File, hcl.Diagnostics)) {
	for _, mode := range []string{"serial", "parallel"} {
		for _, n := range benchSizes {
			b.Run(fmt.Sprintf("%s/%d", mode, n), func(b *testing.B) {
				fsys := benchSet(b, n)
				var srcs [][]byte
				var names []string
				for name, f := range fsys {
					names = append(names, name)
					srcs = append(srcs, f.Data)
				}
				workers := 1
				if mode == "parallel" {
					workers = runtime.GOMAXPROCS(0)
				}
				b.SetBytes(int64(setSize(fsys)))
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					var wg sync.WaitGroup
					errs := make([]hcl.Diagnostics, workers)
					for w := 0; w < workers; w++ {
						wg.Add(1)
						go func() {
							defer wg.Done()
							for i := w; i < len(srcs); i += workers {
								_, d := parse(srcs[i], names[i], hcl.InitialPos)
								errs[w] = append(errs[w], d...)
							}
						}()
					}
					wg.Wait()
					for _, d := range errs {
						if d.HasErrors() {
							b.Fatal(d.Error())
						}
					}
				}
			})
		}
	}
}

// BenchmarkEvaluate measures what `nodegen eval --json` does after
// eval.New: ev.Check (the whole config, then every assertion) and
// ev.Config. eval.New runs with the timer stopped, which also leaves its
// allocations out of B/op and allocs/op, and the garbage of parsing is
// collected before the timer starts, so the figures are evaluation alone.
func BenchmarkEvaluate(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			fsys := benchSet(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				ev, diags := eval.New(benchCfg(fsys))
				if diags.HasErrors() {
					b.Fatal(diags.Error())
				}
				runtime.GC()
				b.StartTimer()
				evaluateAll(b, ev)
			}
		})
	}
}

// BenchmarkWhole measures eval.New, ev.Check and ev.Config together, and
// the JSON rendering the CLI prints.
func BenchmarkWhole(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			fsys := benchSet(b, n)
			b.SetBytes(int64(setSize(fsys)))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				ev, diags := eval.New(benchCfg(fsys))
				if diags.HasErrors() {
					b.Fatal(diags.Error())
				}
				v := evaluateAll(b, ev)
				if _, err := eval.JSON(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func evaluateAll(b *testing.B, ev *eval.Evaluator) ctyValue {
	if _, diags := ev.Check(); diags.HasErrors() {
		b.Fatal(diags.Error())
	}
	v, diags := ev.Config()
	if diags.HasErrors() {
		b.Fatal(diags.Error())
	}
	return v
}
