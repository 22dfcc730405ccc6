package modtest

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// TestParseMachines parses machine tests: each line that must carry an
// error says so with a comment "# ERROR: Summary" (one per error, in
// order), as terraform's error-files do; every error must be on such a
// line.
func TestParseMachines(t *testing.T) {
	tests := []struct {
		name string
		src  string
	}{
		{
			name: "valid",
			src: `
machine "server" {
  imports = ["./web.hcl"]
  config "services.nginx" { enable = true }
}
machine "client" {}
configuration "server-off" {
  machine = "server"
  imports = ["./web.hcl"]
}
run "serves" {
  machines = ["server", "client"]
  step "server" { wait_for_unit = "nginx.service" }
  step "client" {
    succeed         = "curl -fsS http://server/"
    output_contains = "Welcome"
    timeout         = "10s"
  }
  step "client" {
    wait_until_succeeds = "true"
    output_matches      = "^a+$"
  }
  step "server" { fail = "systemctl is-active no-such.service" }
  step "server" { copy_in = ["./x", "/etc/x"] }
  step "server" { copy_out = ["/etc/x", "./y"] }
  step "server" { switch = "server-off" }
  step "server" {
    switch       = "server-off"
    expect_error = "sshd -t"
  }
  step "server" { rollback = true }
  step "server" { reboot = true }
  step "server" { kill = "nginx.service" }
}
run "tree" {
  config "networking" { hostName = "a" }
}
`,
		},
		{
			name: "file level",
			src: `
machine {} # ERROR: Invalid machine block
machine "a" {
  root = "/srv/x" # ERROR: Unsupported argument
  step "a" {} # ERROR: Unsupported block type
}
machine "a" {} # ERROR: Duplicate machine block
configuration "c" {} # ERROR: Missing required argument
configuration "d" {
  machine = "b" # ERROR: Unknown machine
}
configuration "e" {
  machine = 1 # ERROR: Invalid machine
}
`,
		},
		{
			name: "run level",
			src: `
machine "server" {}
machine "client" {}
configuration "c2" { machine = "client" }
run "a" {
  machines = ["server", "sever"] # ERROR: Unknown machine
  imports  = ["./x.hcl"] # ERROR: Unsupported argument
  assert { # ERROR: Unsupported block type
    condition = true
    error_message = "x"
  }
  step "client" { succeed = "true" } # ERROR: Unknown step machine
  step "server" { switch = "c2" } # ERROR: Configuration of another machine
  step "server" { switch = "c3" } # ERROR: Unknown configuration
}
run "b" { # ERROR: Missing step blocks
  machines = ["server"]
}
run "c" {
  machines = "server" # ERROR: Invalid machines
  step "server" { succeed = "true" }
}
run "d" {
  machines = ["server", "server"] # ERROR: Invalid machines
  step "server" { succeed = "true" }
}
`,
		},
		{
			name: "steps",
			src: `
machine "m" {}
run "a" {
  machines = ["m"]
  step "m" {} # ERROR: Missing step action
  step "m" "n" { succeed = "true" } # ERROR: Invalid step block
  step "m" {
    succeed = "true"
    fail    = "false" # ERROR: Conflicting step actions
  }
  step "m" { succeed = "" } # ERROR: Invalid succeed
  step "m" { wait_for_unit = ["x"] } # ERROR: Invalid wait_for_unit
  step "m" {
    succeed = "true"
    timeout = "soon" # ERROR: Invalid timeout
  }
  step "m" {
    succeed = "true"
    timeout = "-1s" # ERROR: Invalid timeout
  }
  step "m" {
    succeed        = "true"
    output_matches = "(" # ERROR: Invalid output_matches
  }
  step "m" {
    wait_for_unit   = "x.service"
    output_contains = "x" # ERROR: Unsupported argument
  }
  step "m" { rollback = false } # ERROR: Invalid rollback
  step "m" { reboot = "yes" } # ERROR: Invalid reboot
  step "m" { copy_in = ["./a"] } # ERROR: Invalid copy_in
  step "m" { copy_in = ["./a", "b"] } # ERROR: Invalid copy_in
  step "m" { copy_out = ["a", "./b"] } # ERROR: Invalid copy_out
  step "m" { succed = "true" } # ERROR: Unsupported argument
  step "m" {
    succeed      = "true"
    expect_error = "x" # ERROR: Unsupported argument
  }
  step "m" {
    reboot       = true
    expect_error = "" # ERROR: Invalid expect_error
  }
  step "m" {
    x { } # ERROR: Unsupported block type
  }
}
`,
		},
	}
	marker := regexp.MustCompile(`# ERROR: (.*)$`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := map[int][]string{}
			for i, line := range strings.Split(tt.src, "\n") {
				if m := marker.FindStringSubmatch(line); m != nil {
					want[i+1] = append(want[i+1], m[1])
				}
			}
			f := Parse([]byte(tt.src), "x.test.hcl")
			got := map[int][]string{}
			all := append(hcl.Diagnostics{}, f.Diags...)
			for _, r := range f.Runs {
				all = append(all, r.Diags...)
			}
			for _, d := range all {
				if d.Subject == nil {
					t.Errorf("diagnostic without a location: %s: %s", d.Summary, d.Detail)
					continue
				}
				if d.Subject.Filename != "x.test.hcl" {
					t.Errorf("diagnostic in %q", d.Subject.Filename)
				}
				got[d.Subject.Start.Line] = append(got[d.Subject.Start.Line], d.Summary)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				for _, d := range all {
					t.Log(d)
				}
				t.Errorf("errors by line (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseMachinesDecoded checks what a valid machine test decodes to.
func TestParseMachinesDecoded(t *testing.T) {
	src := `
machine "server" {
  imports = ["./web.hcl"]
  config "services.nginx" { enable = true }
}
configuration "v2" { machine = "server" }
run "r" {
  machines = ["server"]
  step "server" {
    succeed         = "curl -fsS http://localhost/"
    output_contains = "Welcome"
    output_matches  = "W.l"
    timeout         = "10s"
  }
  step "server" { copy_in = ["./a", "/etc/a"] }
  step "server" { switch = "v2" }
  step "server" { reboot = true }
}
`
	f := Parse([]byte(src), "x.test.hcl")
	if f.Diags.HasErrors() || f.Runs[0].Diags.HasErrors() {
		t.Fatalf("errors: %v %v", f.Diags, f.Runs[0].Diags)
	}
	m := f.Machine("server")
	if m == nil || len(m.Body.Blocks) != 1 || m.Body.Attributes["imports"] == nil {
		t.Fatalf("machine server: %+v", m)
	}
	if c := f.Configuration("v2"); c == nil || c.Machine != "server" {
		t.Fatalf("configuration v2: %+v", c)
	}
	r := f.Runs[0]
	if !r.IsMachineRun() || f.Runs[0].Name != "r" {
		t.Fatalf("run r is not a machine run")
	}
	var got []string
	for _, s := range r.Steps {
		got = append(got, fmt.Sprintf("%s line %d timeout %s contains %q matches %v", s, s.Range().Start.Line, s.Timeout, s.OutputContains, s.OutputMatches))
	}
	want := []string{
		`server: succeed "curl -fsS http://localhost/" line 9 timeout 10s contains "Welcome" matches W.l`,
		`server: copy_in ./a -> /etc/a line 15 timeout ` + DefaultTimeout.String() + ` contains "" matches <nil>`,
		`server: switch "v2" line 16 timeout ` + DefaultTimeout.String() + ` contains "" matches <nil>`,
		`server: reboot line 17 timeout ` + DefaultTimeout.String() + ` contains "" matches <nil>`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
}
