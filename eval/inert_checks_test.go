package eval_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/options"
)

// TestInertModuleChecks checks when an inert module is left out and that
// leaving it out changes nothing: its checks still fail whenever NixOS's
// would (its assertions are folded into config.assertions whatever the
// host reads), because a module is left out only while no definition
// reaches its options and its checks, on their defaults, pass.
func TestInertModuleChecks(t *testing.T) {
	lib := eval.NewInertLibrary()
	tests := []struct {
		name      string
		host      string
		skipped   []string
		wantErrs  []string
		wantWarns []string
		wantFiles string
	}{
		{
			name:      "a host that uses none of it",
			host:      "config { base = { mode = \"off\" } }\n",
			skipped:   []string{"chain.hcl", "own.hcl", "pull.hcl", "svc.hcl"},
			wantFiles: "{}",
		},
		{
			name:      "a host that enables svc",
			host:      "config { svc = { enable = true, port = 8080 } }\n",
			skipped:   []string{"chain.hcl", "own.hcl", "pull.hcl"},
			wantWarns: []string{"svc listens on a high port"},
			wantFiles: `{"svc":"port 8080"}`,
		},
		{
			name:     "its assertion fails as it would",
			host:     "config { svc = { enable = true } }\n",
			skipped:  []string{"chain.hcl", "own.hcl", "pull.hcl"},
			wantErrs: []string{"svc.port: 22 is sshd's"},
		},
		{
			name:     "an inert module, once used, enables another",
			host:     "config { chain = { enable = true } }\n",
			skipped:  []string{"own.hcl", "pull.hcl"},
			wantErrs: []string{"svc.port: 22 is sshd's"},
		},
		{
			name:     "a check that reads another module's option is never left out",
			host:     "config { base = { mode = \"strict\" } }\n",
			skipped:  []string{"chain.hcl", "own.hcl", "pull.hcl", "svc.hcl"},
			wantErrs: []string{"a strict base needs watch.level above 1"},
		},
		{
			name:      "a config block without a prefix, its module enabled",
			host:      "config { pull = { enable = true } }\n",
			skipped:   []string{"chain.hcl", "own.hcl", "svc.hcl"},
			wantFiles: `{"pull":"registry.example"}`,
		},
		{
			name:      "a module that defines its own option, enabled",
			host:      "config { own = { enable = true } }\n",
			skipped:   []string{"chain.hcl", "pull.hcl", "svc.hcl"},
			wantFiles: `{"own":"level 5"}`,
		},
	}
	// Three evaluations first: the second keeps the tree and learns that
	// chain is inert, the third that svc is (chain, left out, no longer
	// defines its options).
	for range 3 {
		if _, diags := eval.New(eval.Config{Library: lib}); diags.HasErrors() {
			t.Fatal(diags.Error())
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, diags := eval.New(eval.Config{
				FS:      fstest.MapFS{"host.hcl": {Data: []byte(tt.host)}},
				Files:   []string{"host.hcl"},
				Library: lib,
			})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			if diff := cmp.Diff(tt.skipped, eval.SkippedModules(ev)); diff != "" {
				t.Errorf("modules left out (-want +got):\n%s", diff)
			}
			checkOutcome(t, ev, tt.wantErrs, tt.wantWarns)
			if tt.wantFiles != "" {
				v, diags := ev.Get(options.Path{"files"})
				if diags.HasErrors() {
					t.Fatal(diags.Error())
				}
				js, _ := eval.JSON(v)
				var compact bytes.Buffer
				if err := json.Compact(&compact, js); err != nil {
					t.Fatal(err)
				}
				if compact.String() != tt.wantFiles {
					t.Errorf("files = %s, want %s", compact.String(), tt.wantFiles)
				}
			}
		})
	}
}
