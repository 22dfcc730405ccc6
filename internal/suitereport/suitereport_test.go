package suitereport

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// stopper is a testing.TB whose Skip and Fatal end the goroutine, as
// testing's do, and remember which it was, so that a test can watch a
// helper fail without failing itself.
type stopper struct {
	testing.TB
	stopped string // "skip" or "fatal"
	msg     string
}

func (s *stopper) Helper() {}

func (s *stopper) Skip(args ...any) {
	s.stopped, s.msg = "skip", fmt.Sprint(args...)
	runtime.Goexit()
}

func (s *stopper) Fatal(args ...any) {
	s.stopped, s.msg = "fatal", fmt.Sprint(args...)
	runtime.Goexit()
}

func (s *stopper) Fatalf(format string, args ...any) {
	s.stopped, s.msg = "fatal", fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// run calls f with a stopper on a goroutine of its own and returns how it
// stopped ("" when it returned).
func run(t *testing.T, f func(testing.TB)) *stopper {
	s := &stopper{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(s)
	}()
	<-done
	return s
}

// TestProgram checks the lines a suite records: ran when its program is
// found (in a directory given, here), skipped with why when it is not,
// and failed where CI is set.
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
	s := run(t, func(tb testing.TB) { Program(tb, "missing", "nodegen-no-such-tool", "Debian's none") })
	if s.stopped != "skip" {
		t.Errorf("without CI, a suite without its program stopped with %q, want skip", s.stopped)
	}
	t.Setenv("CI", "true")
	s = run(t, func(tb testing.TB) { Program(tb, "missing in CI", "nodegen-no-such-tool", "Debian's none") })
	if s.stopped != "fatal" {
		t.Errorf("with CI set, a suite without its program stopped with %q, want fatal", s.stopped)
	}
	want := "missing in CI: nodegen-no-such-tool is not installed (Debian's none) (CI is set, so this fails instead of skipping)"
	if s.msg != want {
		t.Errorf("with CI set, the failure says %q, want %q", s.msg, want)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	wantReport := "found: ran\n" +
		"missing: skipped: nodegen-no-such-tool is not installed (Debian's none)\n" +
		"missing in CI: failed: nodegen-no-such-tool is not installed (Debian's none)\n"
	if diff := cmp.Diff(wantReport, string(b)); diff != "" {
		t.Errorf("report (-want +got):\n%s", diff)
	}
}

// TestReference finds a snapshot through its variable, beside the module
// root, and beside the main worktree of a linked one; and stops without
// one.
func TestReference(t *testing.T) {
	t.Setenv(EnvFile, "")
	t.Setenv("CI", "")
	top := t.TempDir()
	mkdir := func(parts ...string) string {
		dir := filepath.Join(append([]string{top}, parts...)...)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(top, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// top/main is a repository with a snapshot beside it, top/wt/linked a
	// worktree of it, top/other/lone a repository without one.
	snapshot := mkdir("shared", "reference", "nixpkgs-lib", "lib")
	mkdir("main", ".git", "worktrees", "linked")
	write("main/go.mod", "module x\n")
	write("main/.git/worktrees/linked/commondir", "../..\n")
	mkdir("wt", "linked", "pkg")
	write("wt/linked/go.mod", "module x\n")
	write("wt/linked/.git", "gitdir: "+filepath.Join(top, "main/.git/worktrees/linked")+"\n")
	mkdir("other", "lone", "pkg")
	write("other/lone/go.mod", "module x\n")

	tests := []struct {
		name, wd, env string
		want          string // "" when t skips
	}{
		{"beside the module root", "main", "", snapshot},
		{"beside the main worktree", "wt/linked/pkg", "", snapshot},
		{"the variable first", "other/lone/pkg", filepath.Join(top, "main"), filepath.Join(top, "main")},
		{"nowhere", "other/lone/pkg", "", ""},
		{"a variable naming nothing", "main", filepath.Join(top, "none"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(filepath.Join(top, tt.wd))
			t.Setenv("NODEGEN_TEST_REFERENCE", tt.env)
			var got string
			s := run(t, func(tb testing.TB) {
				got = Reference(tb, "suite", "NODEGEN_TEST_REFERENCE", "nixpkgs-lib/lib")
			})
			if tt.want == "" {
				if s.stopped != "skip" {
					t.Errorf("Reference = %q, stopped %q; want a skip", got, s.stopped)
				}
				return
			}
			if s.stopped != "" || got != tt.want {
				t.Errorf("Reference = %q (stopped %q %s), want %q", got, s.stopped, s.msg, tt.want)
			}
		})
	}
}
