package suitereport

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestProgram checks the lines a suite records: ran when its program is
// found (in a directory given, here), skipped with why when it is not,
// the test then being skipped.
func TestProgram(t *testing.T) {
	report := filepath.Join(t.TempDir(), "suites.txt")
	t.Setenv(EnvFile, report)
	t.Setenv("CI", "")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "nodegen-test-tool"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := Program(t, "found", "nodegen-test-tool", "nowhere", dir); got != filepath.Join(dir, "nodegen-test-tool") {
		t.Errorf("Program = %q, want the tool in %s", got, dir)
	}
	skipped := false
	t.Run("missing", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Program(t, "missing", "nodegen-no-such-tool", "Debian's none")
	})
	if !skipped {
		t.Error("a suite without its program was not skipped")
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	want := "found: ran\nmissing: skipped: nodegen-no-such-tool is not installed (Debian's none)\n"
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
}
