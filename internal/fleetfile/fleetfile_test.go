package fleetfile

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParse reads fleet files, good and bad: the bad ones are located
// errors.
func TestParse(t *testing.T) {
	tests := []struct {
		name, src string
		want      []Host
		err       string // "line:col: summary"
	}{
		{"hosts relative to the fleet file", `hosts = ["a.hcl", "sub/b.hcl", "/abs/c.hcl"]`,
			[]Host{{"a", "dir/a.hcl"}, {"b", "dir/sub/b.hcl"}, {"c", "/abs/c.hcl"}}, ""},
		{"no hosts", `x = 1`, nil, "1:1: Unsupported attribute"},
		{"empty", ``, nil, "1:1: Missing hosts"},
		{"a block", "hosts = [\"a.hcl\"]\nfleet {}\n", nil, "2:1: Unexpected block"},
		{"not a list", `hosts = "a.hcl"`, nil, "1:9: Invalid hosts"},
		{"an empty list", `hosts = []`, nil, "1:9: Invalid hosts"},
		{"not a string", `hosts = ["a.hcl", 3]`, nil, "1:19: Invalid host file"},
		{"a dot name", `hosts = [".hcl"]`, nil, "1:10: Invalid host file"},
		{"two of one name", `hosts = ["a.hcl", "x/a.hcl"]`, nil, "1:19: Duplicate host"},
		{"a reference", `hosts = [local.x]`, nil, "1:10: Variables not allowed"},
		{"a syntax error", `hosts = [`, nil, "1:10: Missing expression"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, diags := Parse("dir/fleet.hcl", []byte(tt.src))
			if tt.err == "" {
				if diags.HasErrors() {
					t.Fatal(diags.Error())
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("hosts (-want +got):\n%s", diff)
				}
				return
			}
			if !diags.HasErrors() || diags[0].Subject == nil {
				t.Fatalf("got %v, %v; want the error %s", got, diags, tt.err)
			}
			d := diags[0]
			if at := fmt.Sprintf("%d:%d: %s", d.Subject.Start.Line, d.Subject.Start.Column, d.Summary); at != tt.err {
				t.Errorf("error %q, want %q", at, tt.err)
			}
		})
	}
}
