package eval

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nodegen/nodegen/eval/internal/declare"
)

// fleetFiles are the modules of a small fleet: roles that declare options
// (with a submodule type, a format, a path option, a rename and a dynamic
// block), a role with a declaration error, a role that only defines, and
// hosts that import them in various sets, one declaring an option of its
// own.
var fleetFiles = map[string]string{
	"roles/site.hcl": `
locals {
  tiers = ["web", "db"]
}
submodule "user" {
  option "uid" { type = int }
  option "shell" {
    type    = str
    default = "/bin/sh"
  }
}
format "props" "keyValue" {}
options "site" {
  option "name" {
    type    = str
    default = "example"
  }
  option "users" {
    type    = attrsOf(submodule.user)
    default = {}
  }
  option "key" {
    type    = nullOr(path)
    default = null
  }
  option "settings" {
    type    = format.props
    default = {}
  }
  dynamic "option" {
    for_each = local.tiers
    labels   = [tier.value]
    iterator = tier
    content {
      type    = int
      default = length(tier.value)
    }
  }
}
renamed_option "site.title" {
  to = "site.name"
}
`,
	"roles/broken.hcl": `
option "broken.port" {
  default = 1
}
option "broken.name" {
  type = submodule.nosuch
}
`,
	"roles/plain.hcl": `
config "site" {
  users = { bob = { uid = 1001 } }
}
`,
	"hosts/a.hcl": `
imports = ["../roles/site.hcl", "../roles/plain.hcl"]
config "site" {
  title = "a"
  key   = "./a.pub"
}
`,
	"hosts/b.hcl": `
imports = ["../roles/site.hcl"]
config "site" {
  name  = "b"
  users = { alice = { uid = 1000, shell = "/bin/zsh" } }
  key   = "./b.pub"
}
`,
	"hosts/c.hcl": `
imports = ["../roles/site.hcl", "../roles/plain.hcl"]
config "site" { web = 7 }
`,
	"hosts/own.hcl": `
imports = ["../roles/site.hcl"]
option "own.flag" {
  type    = bool
  default = true
}
config "site" { name = "own" }
`,
	"hosts/broken1.hcl": `
imports = ["../roles/site.hcl", "../roles/broken.hcl"]
`,
	"hosts/broken2.hcl": `
imports = ["../roles/broken.hcl", "../roles/site.hcl"]
`,
	"hosts/broken3.hcl": `
imports = ["../roles/site.hcl", "../roles/broken.hcl"]
config "site" { name = 3 }
`,
}

// TestFleet evaluates the hosts of a fleet in parallel, sharing their
// declared trees, and each alone: every evaluation records the same
// (diagnostics, located, the configuration, every definition), and the
// hosts that declare the same share one tree from the second on, while a
// host that declares options of its own has its own. Run it with -race.
func TestFleet(t *testing.T) {
	dir := t.TempDir()
	for name, text := range fleetFiles {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hosts := []string{"a", "b", "c", "own", "broken1", "broken2", "broken3", "a", "b", "c", "broken1", "broken3"}
	cfgOf := func(h string) Config {
		return Config{Files: []string{filepath.Join(dir, "hosts", h+".hcl")}}
	}
	alone := map[string]string{}
	for _, h := range hosts {
		alone[h] = evaluationRecord(cfgOf(h))
	}

	for _, want := range []struct{ host, has string }{
		{"broken1", "roles/broken.hcl line 2"}, // the option without a type
		{"broken3", "Unknown submodule"},       // submodule.nosuch
		{"b", "/bin/zsh"},                      // alice's shell
		{"a", "hosts/a.pub"},                   // the key, resolved
		{"c", "bob"},                           // plain's user
	} {
		if !strings.Contains(alone[want.host], want.has) {
			t.Fatalf("host %s alone records no %q:\n%s", want.host, want.has, alone[want.host])
		}
	}

	fleet := NewFleet()
	type result struct {
		record string
		decl   *declare.Declared
	}
	results := make([]result, len(hosts))
	var wg sync.WaitGroup
	for i, h := range hosts {
		wg.Go(func() {
			cfg := cfgOf(h)
			cfg.Fleet = fleet
			var decl *declare.Declared
			rec := evaluationRecordOf(cfg, func(ev *Evaluator) { decl = ev.decl })
			results[i] = result{rec, decl}
		})
	}
	wg.Wait()
	for i, h := range hosts {
		if diff := cmp.Diff(alone[h], results[i].record); diff != "" {
			t.Errorf("host %s (#%d) in the fleet (-alone +fleet):\n%s", h, i, diff)
		}
	}
	shared := map[*declare.Declared]int{}
	for _, r := range results {
		shared[r.decl]++
	}
	if len(shared) == len(hosts) {
		t.Error("no two hosts evaluated in parallel shared a declared tree")
	}

	// Evaluated in turn, twice, the hosts that declare the same share a
	// tree the second time (a module and a tree are kept once two
	// evaluations had them).
	fleet = NewFleet()
	trees := map[string]*declare.Declared{}
	for _, h := range []string{"a", "b", "c", "own", "broken1", "broken3", "a", "b", "c", "own", "broken1", "broken3", "broken2"} {
		cfg := cfgOf(h)
		cfg.Fleet = fleet
		ev, _ := New(cfg)
		trees[h] = ev.decl
	}
	for _, same := range [][]string{{"a", "b", "c"}, {"broken1", "broken3"}} {
		for _, h := range same[1:] {
			if trees[h] != trees[same[0]] {
				t.Errorf("hosts %s and %s declare the same but do not share a tree", same[0], h)
			}
		}
	}
	for _, h := range []string{"own", "broken1", "broken2"} {
		if trees[h] == trees["a"] {
			t.Errorf("host %s shares the tree of host a, which declares less", h)
		}
	}
	if trees["broken2"] == trees["broken1"] {
		t.Error("hosts broken1 and broken2 share a tree, but their modules declare in another order")
	}
}
