package eval_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/eval"
)

// unreadLibrary is a library of two modules the hosts of
// TestUnreadNamespaceChecks never read: watchdog's assert and warning
// read only its own options, and quota's holds only when its enable
// option is set, as a NixOS module's mkIf cfg.enable { assertions ... }.
var unreadLibrary = fstest.MapFS{
	"misc/watchdog.hcl": {Data: []byte(`
option "watchdog.enable" {
  type    = bool
  default = true
}
option "watchdog.timeout" {
  type    = int
  default = 0
}
assert {
  condition = !config.watchdog.enable || config.watchdog.timeout > 0
  message   = "watchdog.timeout must be set when the watchdog is enabled"
}
warning {
  condition = config.watchdog.timeout > 600
  message   = "watchdog.timeout is over ten minutes"
}
`)},
	"misc/quota.hcl": {Data: []byte(`
option "quota.enable" {
  type    = bool
  default = false
}
option "quota.limit" {
  type    = int
  default = 0
}
assert {
  condition = !config.quota.enable || config.quota.limit > 0
  message   = "quota.limit must be set"
}
`)},
}

// TestUnreadNamespaceChecks checks when a library module's assertions
// and warnings run: at every evaluation that checks (Check, as nodegen
// eval and build do), whether or not the host reads or defines anything
// in the module's namespace, exactly as NixOS folds every imported
// module's assertions and warnings into config.assertions and
// config.warnings; a check guarded by a condition (mkIf) runs when the
// condition holds. However declaring comes to be shared or deferred,
// this must not change.
func TestUnreadNamespaceChecks(t *testing.T) {
	tests := []struct {
		name      string
		host      string
		wantErrs  []string
		wantWarns []string
	}{
		{
			name:     "a host that never names either namespace",
			host:     "option \"name\" { type = str }\nconfig { name = \"h\" }\n",
			wantErrs: []string{"watchdog.timeout must be set when the watchdog is enabled"},
		},
		{
			name:      "a host that sets what the assertion asks",
			host:      "config { watchdog = { timeout = 900 } }\n",
			wantWarns: []string{"watchdog.timeout is over ten minutes"},
		},
		{
			name:     "a guarded assertion runs once its condition holds",
			host:     "config {\n  watchdog = { enable = false }\n  quota = { enable = true }\n}\n",
			wantErrs: []string{"quota.limit must be set"},
		},
		{
			name: "and not before",
			host: "config { watchdog = { enable = false } }\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, diags := eval.New(eval.Config{
				FS:      fstest.MapFS{"host.hcl": {Data: []byte(tt.host)}},
				Files:   []string{"host.hcl"},
				Library: unreadLibrary,
			})
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			checkOutcome(t, ev, tt.wantErrs, tt.wantWarns)
		})
	}
}

// checkOutcome checks ev (Check): the summary and detail of each error
// says the wanted message in turn, and the warnings are those wanted.
func checkOutcome(t *testing.T, ev *eval.Evaluator, wantErrs, wantWarns []string) {
	t.Helper()
	warns, diags := ev.Check()
	var errs, ws []string
	for _, d := range diags {
		errs = append(errs, d.Summary+": "+d.Detail)
	}
	for _, w := range warns {
		ws = append(ws, w.Message)
	}
	if len(errs) != len(wantErrs) {
		t.Fatalf("errors %q, want %q", errs, wantErrs)
	}
	for i, want := range wantErrs {
		if !strings.Contains(errs[i], want) {
			t.Errorf("error %d = %q, want it to say %q", i, errs[i], want)
		}
	}
	if diff := cmp.Diff(wantWarns, ws); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}
