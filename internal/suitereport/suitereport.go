// Package suitereport is how the tests that compare nodegen with other
// programs (NixOS's module system through nix-instantiate, systemd-analyze,
// containerd, kubectl, cfssl, the programs that check generated files)
// find those programs and say whether they ran: a test without its
// program is skipped and says why (go test -v), or fails where CI is set
// (.ci/run installs them); and every such suite appends a line, "ran" or
// "skipped" and why, to the file that NODEGEN_SUITE_REPORT names, which
// make test prints at its end.
package suitereport

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// EnvFile is the environment variable naming the file the lines are
// appended to; unset, nothing is recorded.
const EnvFile = "NODEGEN_SUITE_REPORT"

// Ran records that suite ran.
func Ran(t testing.TB, suite string) {
	t.Helper()
	record(t, suite, "ran")
}

// Skip records that suite did not run, and why, and skips t with why.
func Skip(t testing.TB, suite, why string) {
	t.Helper()
	record(t, suite, "skipped: "+why)
	t.Skip(why)
}

// Program returns the path of the program name that suite runs, looked
// up in PATH and then in dirs, and records that suite ran. Without it,
// t fails where CI is set, and elsewhere the suite is recorded as skipped
// and t skips; install says how to get the program ("Debian's
// golang-cfssl").
func Program(t testing.TB, suite, name, install string, dirs ...string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		Ran(t, suite)
		return p
	}
	for _, d := range dirs {
		p := d + "/" + name
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			Ran(t, suite)
			return p
		}
	}
	why := fmt.Sprintf("%s is not installed (%s)", name, install)
	if os.Getenv("CI") != "" {
		record(t, suite, "failed: "+why)
		t.Fatalf("%s, and CI is set; .ci/run installs it", why)
	}
	Skip(t, suite, why)
	return ""
}

// record appends "suite: what" to the report file, if there is one. A
// report that cannot be written fails t: make test would print a wrong
// summary.
func record(t testing.TB, suite, what string) {
	t.Helper()
	name := os.Getenv(EnvFile)
	if name == "" {
		return
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatalf("suite report: %v", err)
	}
	// One write of one line: appends from parallel test processes do not
	// interleave.
	_, err = fmt.Fprintf(f, "%s: %s\n", suite, what)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatalf("suite report: %v", err)
	}
}
