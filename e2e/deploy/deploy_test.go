package deploy

import (
	"strings"
	"testing"
)

// TestThreeHosts deploys three hosts: each confirms and runs the new
// generation; a rerun with nothing changed copies nothing and confirms
// again; a changed profile makes generation 2 everywhere.
func TestThreeHosts(t *testing.T) {
	f := newFleet(t, "a", "b", "c")
	var files []string
	for _, n := range []string{"a", "b", "c"} {
		files = append(files, f.host(n, ""))
	}
	_, stderr, code := f.deploy(append([]string{"--parallel", "3"}, files...)...)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, n := range []string{"a", "b", "c"} {
		f.waitGeneration(n, 1, "confirmed", 0)
		if got := f.machines[n].MustRun("cat", "/etc/deployed"); got != "host "+n+"\n" {
			t.Errorf("%s: /etc/deployed is %q", n, got)
		}
	}
	if !strings.Contains(stderr, "a: confirmed (generation 1)") {
		t.Errorf("no progress line for a:\n%s", stderr)
	}

	stdout, _, code := f.deploy(append([]string{"--json"}, files...)...)
	if code != 0 {
		t.Fatalf("rerun: exit %d", code)
	}
	if strings.Contains(stdout, `"step":"copy-`) {
		t.Errorf("the rerun copied again:\n%s", stdout)
	}
	for _, n := range []string{"a", "b", "c"} {
		f.waitGeneration(n, 1, "confirmed", 0)
	}

	for _, n := range []string{"a", "b", "c"} {
		f.host(n, `config "environment.etc.\"nodegen-two\"" { text = "two\n" }`)
	}
	if _, _, code := f.deploy(files...); code != 0 {
		t.Fatalf("second generation: exit %d", code)
	}
	for _, n := range []string{"a", "b", "c"} {
		f.waitGeneration(n, 2, "confirmed", 0)
	}
}
