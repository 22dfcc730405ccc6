package eval_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/options"
)

// hostsCommon declares the options the test hosts set.
const hostsCommon = `
option "address" { type = str }
option "peer" {
  type    = str
  default = ""
}
option "range" {
  type    = str
  default = "10.1.0.0/16"
}
option "broken" {
  type    = str
  default = config.undefined
}
option "undefined" { type = str }
option "names" {
  type    = listOf(str)
  default = []
}
option "net.cidr" {
  type    = str
  default = "10.0.0.0/8"
}
`

// writeHosts writes common.hcl and each host's file (NAME.hcl, which
// imports common.hcl) to a new directory, and returns the fleet's hosts.
func writeHosts(t *testing.T, hosts map[string]string) (string, []eval.HostFile) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "common.hcl"), []byte(hostsCommon), 0o644); err != nil {
		t.Fatal(err)
	}
	var files []eval.HostFile
	for name, src := range hosts {
		f := filepath.Join(dir, name+".hcl")
		if err := os.WriteFile(f, []byte("imports = [\"./common.hcl\"]\n"+src), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, eval.HostFile{Name: name, Files: []string{f}})
	}
	return dir, files
}

// TestHosts reads other hosts' options from a fleet: values, names,
// namespaces, what is not read left unevaluated, cycles, unknown hosts,
// and a host evaluated alone.
func TestHosts(t *testing.T) {
	tests := []struct {
		name  string
		hosts map[string]string
		host  string
		alone bool // evaluate host without the fleet
		path  string
		want  any
		// errs are the errors, each as "file:line:col: summary"
		// (file relative to the directory) and a part of its detail.
		errs []string
	}{
		{
			name: "an option of another host",
			hosts: map[string]string{
				"a": `config { peer = hosts.b.config.address }` + "\n",
				"b": `config { address = "10.0.0.2" }` + "\n",
			},
			host: "a", path: "peer", want: "10.0.0.2",
		},
		{
			name: "hosts lists the names; hosts.NAME.name",
			hosts: map[string]string{
				"a": `config { names = [for n in keys(hosts) : hosts[n].name] }` + "\n",
				"b": ``,
				"c": ``,
			},
			host: "a", path: "names", want: []any{"a", "b", "c"},
		},
		{
			name: "a host reads itself through hosts",
			hosts: map[string]string{
				"a": "config {\n  address = \"10.0.0.1\"\n  peer = hosts.a.config.address\n}\n",
			},
			host: "a", path: "peer", want: "10.0.0.1",
		},
		{
			name: "a namespace read lazily, and through an index",
			hosts: map[string]string{
				"a": `config { peer = hosts["b"].config.net["cidr"] }` + "\n",
				"b": `config "net" { cidr = "192.168.0.0/16" }` + "\n",
			},
			host: "a", path: "peer", want: "192.168.0.0/16",
		},
		{
			name: "what is not read is not evaluated: b's broken option",
			hosts: map[string]string{
				"a": `config { peer = hosts.b.config.range }` + "\n",
				"b": `config { range = "10.9.0.0/16" }` + "\n",
			},
			host: "a", path: "peer", want: "10.9.0.0/16",
		},
		{
			name: "an error of the other host, located there and at the read",
			hosts: map[string]string{
				"a": `config { peer = hosts.b.config.broken }` + "\n",
				"b": ``,
			},
			host: "a", path: "peer",
			errs: []string{
				"common.hcl:13:13: Option \"undefined\" is used but not defined|has no default and no definition",
				"a.hcl:2:17: Cannot read another host|hosts.b.config.broken",
			},
		},
		{
			name: "a cycle between hosts, at the expressions that form it",
			hosts: map[string]string{
				"a": `config { peer = hosts.b.config.peer }` + "\n",
				"b": `config { peer = hosts.a.config.peer }` + "\n",
			},
			host: "a", path: "peer",
			errs: []string{
				"a.hcl:2:17: Cycle between hosts|host a reads hosts.b.config.peer at DIR/a.hcl:2:17\n  host b reads hosts.a.config.peer at DIR/b.hcl:2:17\n  host a reads hosts.b.config.peer at DIR/a.hcl:2:17",
				"b.hcl:2:17: Cannot read another host|hosts.a.config.peer",
				"a.hcl:2:17: Cannot read another host|hosts.b.config.peer",
			},
		},
		{
			name: "an unknown host",
			hosts: map[string]string{
				"a": `config { peer = hosts.bb.config.address }` + "\n",
				"b": ``,
			},
			host: "a", path: "peer",
			errs: []string{`a.hcl:2:17: Unknown host|Did you mean "b"?`},
		},
		{
			name: "alone, reading another host needs a fleet",
			hosts: map[string]string{
				"a": `config { peer = hosts.b.config.address }` + "\n",
			},
			host: "a", alone: true, path: "peer",
			errs: []string{"a.hcl:2:17: Reading another host needs a fleet|--fleet FLEET.hcl"},
		},
		{
			name: "alone, hosts lists the host itself",
			hosts: map[string]string{
				"a": `config { names = keys(hosts) }` + "\n",
			},
			host: "a", alone: true, path: "names", want: []any{"a"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, files := writeHosts(t, tt.hosts)
			hosts := eval.NewHosts(files, eval.Config{Fleet: eval.NewFleet()})
			cfg := hosts.Config(tt.host)
			if tt.alone {
				cfg.Hosts = nil
			}
			ev, diags := eval.New(cfg)
			if diags.HasErrors() {
				t.Fatalf("New: %s", diags.Error())
			}
			v, diags := ev.Get(options.Path{tt.path})
			var errs []string
			for _, d := range diags {
				at := ""
				if d.Subject != nil {
					rel, _ := filepath.Rel(dir, d.Subject.Filename)
					at = rel + ":" + strings.TrimPrefix(options.ShowPos(*d.Subject), d.Subject.Filename+":") + ": "
				}
				errs = append(errs, at+d.Summary+"|"+strings.ReplaceAll(d.Detail, dir, "DIR"))
			}
			if tt.errs == nil {
				if len(errs) > 0 {
					t.Fatalf("errors: %q", errs)
				}
				if diff := cmp.Diff(tt.want, eval.GoValue(v)); diff != "" {
					t.Errorf("value (-want +got):\n%s", diff)
				}
				return
			}
			if len(errs) != len(tt.errs) {
				t.Fatalf("got %d errors, want %d: %q", len(errs), len(tt.errs), errs)
			}
			for i, want := range tt.errs {
				head, part, _ := strings.Cut(want, "|")
				if !strings.HasPrefix(errs[i], head+"|") || !strings.Contains(errs[i], part) {
					t.Errorf("error %d = %q, want %q with %q", i, errs[i], head, part)
				}
			}
		})
	}
}

// TestHostsAssert checks that an assertion over several hosts names each
// host's value and where that host defined it.
func TestHostsAssert(t *testing.T) {
	dir, files := writeHosts(t, map[string]string{
		"a": "config { range = \"10.1.0.0/16\" }\nassert {\n  condition = config.range == hosts.b.config.range\n  message = \"the hosts disagree on the range\"\n}\n",
		"b": "config { range = \"10.2.0.0/16\" }\n",
	})
	hosts := eval.NewHosts(files, eval.Config{})
	ev, diags := eval.New(hosts.Config("a"))
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	_, diags = ev.Assertions()
	if len(diags) != 1 {
		t.Fatalf("got %d diagnostics, want 1: %s", len(diags), diags.Error())
	}
	d := diags[0]
	for _, want := range []string{
		"range, defined at " + filepath.Join(dir, "a.hcl") + ":2:18",
		`hosts.b.config.range = "10.2.0.0/16", defined at ` + filepath.Join(dir, "b.hcl") + ":2:18",
	} {
		if !strings.Contains(d.Detail, want) {
			t.Errorf("detail lacks %q:\n%s", want, d.Detail)
		}
	}
	if d.Summary != "Assertion failed: the hosts disagree on the range" {
		t.Errorf("summary = %q", d.Summary)
	}
}

// TestHostsParallel evaluates the hosts of a fleet in parallel, as nodegen
// build does, each reading the next host and the first: the values are
// right, whichever evaluation made a view first (run with -race).
func TestHostsParallel(t *testing.T) {
	const n = 12
	srcs := map[string]string{}
	for i := range n {
		srcs[fmt.Sprintf("h%02d", i)] = fmt.Sprintf("config {\n  address = \"10.0.0.%d\"\n  peer = \"${hosts.h%02d.config.address} ${hosts.h00.config.range}\"\n}\n", i, (i+1)%n)
	}
	_, files := writeHosts(t, srcs)
	hosts := eval.NewHosts(files, eval.Config{Fleet: eval.NewFleet()})
	got := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ev, diags := eval.New(hosts.Config(fmt.Sprintf("h%02d", i)))
			if diags.HasErrors() {
				t.Error(diags.Error())
				return
			}
			v, diags := ev.Get(options.Path{"peer"})
			if diags.HasErrors() {
				t.Error(diags.Error())
				return
			}
			got[i] = v.AsString()
		}()
	}
	wg.Wait()
	for i := range n {
		if want := fmt.Sprintf("10.0.0.%d 10.1.0.0/16", (i+1)%n); got[i] != want {
			t.Errorf("h%02d: peer = %q, want %q", i, got[i], want)
		}
	}
}
