package eval_test

import (
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/options"
)

// TestExplainKey checks what Explain says about one key inside the value
// of an option: the definitions that set it, with their value, priority
// and state, decided level by level as merging does.
func TestExplainKey(t *testing.T) {
	const mods = `
option "zones" {
  type    = attrsOf(attrsOf(int))
  default = { a = { x = 1 } }
}
option "tree" {
  type    = anything
  default = {}
}
config {
  zones = { a = { x = 2, y = 3 } }
  tree  = { "k.1" = { v = mkDefault("d") } }
}
config {
  zones = { a = mkForce({ x = 5 }), b = { z = 1 } }
  tree  = { "k.1" = { v = "plain" } }
}
config {
  zones = { a = { x = mkForce(7) }, b = { z = mkOverride(10, 2) } }
}
config {
  zones = mkIf(false, { a = { x = 9 } })
}
`
	tests := []struct {
		path  string
		value string
		// defs are "state priority line:col value"; a value merging never
		// needed is <lazy> (nodegen option shows its source text).
		defs []string
	}{
		{
			path:  "zones.a.x",
			value: "5",
			defs: []string{
				"overridden 1500 4:25 1",
				"disabled 0 22:35 9",
				"overridden 100 11:23 2",
				"overridden 100 19:23 <lazy>",
				"won 50 15:31 5",
			},
		},
		{
			path:  "zones.b.z",
			value: "2",
			defs:  []string{"overridden 100 15:47 1", "won 10 19:47 2"},
		},
		{
			path:  `tree."k.1".v`,
			value: `"plain"`,
			defs:  []string{"overridden 1000 12:37 <lazy>", "won 100 16:27 \"plain\""},
		},
	}
	ev, diags := eval.New(eval.Config{FS: fstest.MapFS{"main.hcl": {Data: []byte(mods)}}, Files: []string{"main.hcl"}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			p, err := options.ParsePath(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			x, diags := ev.Explain(p)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if x.KeyOf == nil {
				t.Fatalf("KeyOf is nil for %s", tt.path)
			}
			if got := options.ShowValue(x.Value); got != tt.value {
				t.Errorf("value = %s, want %s", got, tt.value)
			}
			var got []string
			for _, d := range x.Definitions {
				got = append(got, fmt.Sprintf("%s %d %d:%d %s", d.State, d.Priority, d.Range.Start.Line, d.Range.Start.Column, d.Value))
			}
			if diff := cmp.Diff(tt.defs, got); diff != "" {
				t.Errorf("definitions (-want +got):\n%s", diff)
			}
		})
	}
}
