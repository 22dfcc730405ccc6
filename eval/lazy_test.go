package eval_test

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/options"
)

// TestLaziness checks how much work reading one value does: each option is
// evaluated at most once, and only the options a value needs are.
func TestLaziness(t *testing.T) {
	const mods = `
locals {
  cfg = config.svc
}
option "svc.port" {
  type    = port
  default = 80
}
option "svc.other" {
  type    = str
  default = "other"
}
option "svc.third" {
  type    = str
  default = "${config.svc.port}"
}
option "out" { type = str }
option "twice" { type = listOf(str) }
option "unitNames" { type = listOf(str) }
option "unitCount" { type = int }
option "unitFor" { type = listOf(str) }
option "listAfter" { type = listOf(listOf(str)) }
option "unitList" {
  type    = listOf(submodule.unit)
  default = [{ after = ["l"] }, {}]
}
option "afters" {
  type  = attrsOf(submodule.unit)
  apply = [for u in values(value) : u.after]
}
submodule "unit" {
  option "after" {
    type    = listOf(str)
    default = []
  }
  option "script" {
    type    = str
    default = "script of ${name}"
  }
}
option "units" {
  type    = attrsOf(submodule.unit)
  default = {}
}
config "units" {
  a = { after = ["x"] }
  b = { after = ["y"] }
}
config {
  unitNames = keys(config.units)
  unitCount = length(config.units) + length(config.unitList)
  unitFor   = [for k, u in config.units : k]
  listAfter = config.unitList[*].after
  afters    = { c = { after = ["z"] } }
  out   = "port ${local.cfg.port}"
  twice = ["${config.svc.port}", "${config.svc.port}", local.cfg.third]
}
`
	tests := []struct {
		path string
		want any
		// options evaluated to get it
		options   int
		instances int
	}{
		{"out", "port 80", 2, 0},                 // out, svc.port
		{"twice", []any{"80", "80", "80"}, 3, 0}, // twice, svc.port (once), svc.third
		{"units.a.after", []any{"x"}, 2, 1},      // units, units.a.after
		{"svc.other", "other", 1, 0},
		// Structure: keys, counts and splats force no instance's other
		// options (script is never evaluated).
		{"unitNames", []any{"a", "b"}, 2, 0},            // unitNames, units
		{"unitCount", int64(4), 3, 0},                   // unitCount, units, unitList
		{"unitFor", []any{"a", "b"}, 2, 0},              // unitFor, units
		{"listAfter", []any{[]any{"l"}, []any{}}, 4, 2}, // listAfter, unitList, after of each
		{"afters", []any{[]any{"z"}}, 2, 1},             // afters, afters.c.after
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			ev, diags := eval.New(eval.Config{FS: fstest.MapFS{"main.hcl": {Data: []byte(mods)}}, Files: []string{"main.hcl"}})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			p, err := options.ParsePath(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			v, diags := ev.Get(p)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if diff := cmp.Diff(tt.want, eval.GoValue(v)); diff != "" {
				t.Errorf("value (-want +got):\n%s", diff)
			}
			st := ev.Stats()
			if st.Options != tt.options || st.Instances != tt.instances {
				t.Errorf("evaluated %d options and %d instances, want %d and %d", st.Options, st.Instances, tt.options, tt.instances)
			}
			// Reading again evaluates nothing more.
			if _, diags := ev.Get(p); diags.HasErrors() {
				t.Fatal(diags)
			}
			if again := ev.Stats(); again != st {
				t.Errorf("second read did more work: %+v, then %+v", st, again)
			}
		})
	}
}
