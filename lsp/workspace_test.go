package lsp

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestScanWorkspace(t *testing.T) {
	fsys := fstest.MapFS{
		"ws/hosts/a.hcl":            {Data: []byte(`imports = ["../roles/web.hcl", "../cluster"]`)},
		"ws/hosts/b.hcl":            {Data: []byte(`imports = ["../roles/db.hcl"]`)},
		"ws/roles/web.hcl":          {Data: []byte(`imports = ["./common.hcl"]`)},
		"ws/roles/db.hcl":           {Data: []byte(`imports = ["./common.hcl", local.more]`)},
		"ws/roles/common.hcl":       {Data: []byte(`config "networking" { domain = "x" }`)},
		"ws/cluster/default.hcl":    {Data: []byte(`imports = ["../cycle.hcl"]`)},
		"ws/cycle.hcl":              {Data: []byte(`imports = ["./cluster"]`)},
		"ws/roles/web.test.hcl":     {Data: []byte(`run "x" { imports = ["./web.hcl"] }`)},
		"ws/.git/hooks/x.hcl":       {Data: []byte(``)},
		"ws/broken.hcl":             {Data: []byte(`imports = [`)},
		"elsewhere/not-in-root.hcl": {Data: []byte(``)},
	}
	w := scanWorkspace(fsys, "ws")
	// The cluster and cycle.hcl import each other: neither is a host.
	if diff := cmp.Diff([]string{"ws/broken.hcl", "ws/hosts/a.hcl", "ws/hosts/b.hcl"}, w.hosts); diff != "" {
		t.Errorf("hosts (-want +got):\n%s", diff)
	}
	tests := []struct {
		module string
		hosts  []string
	}{
		{"ws/roles/common.hcl", []string{"ws/hosts/a.hcl", "ws/hosts/b.hcl"}},
		{"ws/roles/web.hcl", []string{"ws/hosts/a.hcl"}},
		{"ws/cycle.hcl", []string{"ws/hosts/a.hcl"}},
		{"ws/hosts/b.hcl", []string{"ws/hosts/b.hcl"}},
		{"ws/roles/web.test.hcl", nil},
		{"elsewhere/not-in-root.hcl", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.hosts, w.hostsOf(tt.module)); diff != "" {
			t.Errorf("hostsOf(%s) (-want +got):\n%s", tt.module, diff)
		}
	}
}
