// Package suitereport is how the tests that need something of their
// environment (another program to compare nodegen with or to read what it
// writes: NixOS's module system through nix-instantiate, systemd-analyze,
// containerd, kubectl, cfssl, sshd -t, ...; root; the nixpkgs snapshots;
// the Kubernetes binaries; systemd-nspawn) find it and say whether they
// ran. A test without what it needs calls Skip, the one way such a test
// stops: outside CI it is skipped and says why (go test -v), and where the
// environment variable CI is set (.ci/run installs and builds everything)
// it fails. Every such suite appends a line, "ran", "skipped" or "failed"
// and why, to the file that NODEGEN_SUITE_REPORT names, which make test
// prints at its end.
package suitereport

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// EnvFile is the environment variable naming the file the lines are
// appended to; unset, nothing is recorded.
const EnvFile = "NODEGEN_SUITE_REPORT"

// InCI reports whether the environment variable CI is set (to anything
// but ""), as CI services and .ci/run set it: there a missing
// prerequisite fails the test that needs it.
func InCI() bool {
	return os.Getenv("CI") != ""
}

// Ran records that suite ran.
func Ran(t testing.TB, suite string) {
	t.Helper()
	record(t, suite, "ran")
}

// Skip records that suite cannot run here, and why, and stops t: skipped
// outside CI, failed where CI is set (what the suite needs is installed
// there, so its absence is a fault of the set-up).
func Skip(t testing.TB, suite, why string) {
	t.Helper()
	if InCI() {
		record(t, suite, "failed: "+why)
		t.Fatalf("%s: %s (CI is set, so this fails instead of skipping)", suite, why)
	}
	record(t, suite, "skipped: "+why)
	t.Skip(why)
}

// Program returns the path of the program name that suite runs, looked
// up in PATH and then in dirs, and records that suite ran. Without it, t
// stops as Skip says; install says how to get the program ("Debian's
// golang-cfssl").
func Program(t testing.TB, suite, name, install string, dirs ...string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		Ran(t, suite)
		return p
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			Ran(t, suite)
			return p
		}
	}
	Skip(t, suite, fmt.Sprintf("%s is not installed (%s)", name, install))
	return ""
}

// Root stops t as Skip says unless the test runs as root; need says what
// for ("creating a network namespace").
func Root(t testing.TB, suite, need string) {
	t.Helper()
	if uid := os.Geteuid(); uid != 0 {
		Skip(t, suite, fmt.Sprintf("not root (uid %d): %s needs root", uid, need))
	}
}

// ReferenceDir is where Reference looks for a snapshot when its variable
// is unset: the shared directory beside the repository's (from the
// module root, ../shared/reference), as CI lays it out.
const ReferenceDir = "../shared/reference"

// Reference returns the directory of a snapshot of reference code (such
// as nixpkgs' lib): the environment variable env when it is set, else
// ReferenceDir/rel from the module root (or, in a linked git worktree,
// from the main worktree), when that is a directory. Without it, t stops
// as Skip says.
func Reference(t testing.TB, suite, env, rel string) string {
	t.Helper()
	if dir := os.Getenv(env); dir != "" {
		if !isDir(dir) {
			Skip(t, suite, fmt.Sprintf("%s=%s is not a directory", env, dir))
		}
		return dir
	}
	root, err := ModuleRoot()
	if err != nil {
		Skip(t, suite, fmt.Sprintf("%s is not set, and %v", env, err))
	}
	var tried []string
	for _, r := range []string{root, mainWorktree(root)} {
		if r == "" {
			continue
		}
		dir := filepath.Join(r, ReferenceDir, rel)
		if isDir(dir) {
			return dir
		}
		tried = append(tried, dir)
	}
	Skip(t, suite, fmt.Sprintf("%s is not set and there is no %s", env, strings.Join(tried, " nor ")))
	return ""
}

// mainWorktree returns the main worktree of the git repository whose
// linked worktree is root (where .git is a file, "gitdir: DIR", and
// DIR/commondir leads to the main .git directory), or "".
func mainWorktree(root string) string {
	b, err := os.ReadFile(filepath.Join(root, ".git"))
	if err != nil {
		return ""
	}
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
	if !ok {
		return ""
	}
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(root, gitdir)
	}
	common, err := os.ReadFile(filepath.Join(gitdir, "commondir"))
	if err != nil {
		return ""
	}
	dir := strings.TrimSpace(string(common))
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(gitdir, dir)
	}
	return filepath.Dir(filepath.Clean(dir))
}

// isDir reports whether name is a directory (through symbolic links).
func isDir(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.IsDir()
}

// ModuleRoot returns the directory of the go.mod that holds the working
// directory (a test runs in its package's directory).
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if fi, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && !fi.IsDir() {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// Record appends the line "suite: what" ("ran", "skipped: why",
// "failed: why") to the report file, if there is one: for a suite that
// is not a Go test, such as nodegen test's machine runs.
func Record(suite, what string) error {
	name := os.Getenv(EnvFile)
	if name == "" {
		return nil
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "%s: %s\n", suite, what)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// record appends "suite: what" to the report file, if there is one. A
// report that cannot be written fails t: make test would print a wrong
// summary.
func record(t testing.TB, suite, what string) {
	t.Helper()
	// One write of one line: appends from parallel test processes do not
	// interleave.
	if err := Record(suite, what); err != nil {
		t.Fatalf("suite report: %v", err)
	}
}
