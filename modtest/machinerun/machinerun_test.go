//go:build linux

package machinerun_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/machine"
	"github.com/nodegen/nodegen/internal/nspawntest"
	"github.com/nodegen/nodegen/internal/suitereport"
	"github.com/nodegen/nodegen/modtest"
	"github.com/nodegen/nodegen/modtest/machinerun"
	"github.com/nodegen/nodegen/modules"
)

const suite = "modtest/machinerun (machine tests in systemd-nspawn)"

// driver returns a driver with a static nodegen, or stops t where
// machines cannot boot (skipped; failed under CI).
func driver(t *testing.T) *machinerun.Driver {
	t.Helper()
	if err := machine.Available(); err != nil {
		suitereport.Skip(t, suite, err.Error())
	}
	suitereport.Ran(t, suite)
	return &machinerun.Driver{Library: modules.FS(), Binary: nspawntest.BuildStatic(t, "./cmd/nodegen")}
}

// runFile runs the runs of the test file at path (copied with its
// directory into a temporary one, so that copy_out writes there) and
// returns their results by name.
func runFile(t *testing.T, d *machinerun.Driver, path string) (map[string]*modtest.Result, string) {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Dir(path)
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := modtest.ParseFile(filepath.Join(dir, filepath.Base(path)))
	if f.Diags.HasErrors() {
		t.Fatalf("%s: %v", path, f.Diags)
	}
	rn := &modtest.Runner{Library: modules.FS(), Machines: d}
	out := map[string]*modtest.Result{}
	for _, r := range f.Runs {
		res := rn.Run(f, r)
		for _, n := range res.Notes {
			t.Logf("%s: %s", r.Name, n)
		}
		out[r.Name] = res
	}
	return out, dir
}

// TestEveryStep runs every kind of step on one machine: users, groups
// and tmpfiles with their modes, copy_in and copy_out, a switch to a
// second configuration and a rollback, kill (systemd restarts the unit),
// reboot (the profile active again, the disk kept).
func TestEveryStep(t *testing.T) {
	d := driver(t)
	res, dir := runFile(t, d, "testdata/steps.test.hcl")
	r := res["steps"]
	if !r.Passed {
		t.Fatalf("run steps failed:\n%v", r.Diags)
	}
	b, err := os.ReadFile(filepath.Join(dir, "out/generation"))
	if err != nil || string(b) != "one\n" {
		t.Errorf("copy_out wrote %q, %v; want the machine's /etc/generation, \"one\\n\"", b, err)
	}
}

// TestPlantedFaults: a unit that does not start, and a port nothing
// listens on, fail their runs at the step that waits for them, with the
// step's location, the unit's status and the machine's journal; the
// steps after are not run.
func TestPlantedFaults(t *testing.T) {
	d := driver(t)
	res, dir := runFile(t, d, "testdata/fault.test.hcl")
	tests := []struct {
		run  string
		line int
		want []string
	}{
		{"a unit that does not start", 13, []string{
			`m: wait_for_unit "broken.service": the unit broken.service failed`,
			"status=3",
			"Last 30 journal lines of m:",
			"planted fault: cannot start",
		}},
		{"a wrong port", 19, []string{
			"did not succeed within 2s; the last try: exit code 1",
			"Connection refused",
			"Last 30 journal lines of m:",
		}},
	}
	for _, tt := range tests {
		r := res[tt.run]
		if r.Passed || len(r.Diags) != 1 {
			t.Errorf("%s: passed %v, diagnostics %v; want one failure", tt.run, r.Passed, r.Diags)
			continue
		}
		diag := r.Diags[0]
		if diag.Summary != machinerun.SummaryStepFailed || diag.Subject == nil || diag.Subject.Filename != filepath.Join(dir, "fault.test.hcl") || diag.Subject.Start.Line != tt.line {
			t.Errorf("%s: %s at %v; want %q at line %d", tt.run, diag.Summary, diag.Subject, machinerun.SummaryStepFailed, tt.line)
		}
		for _, w := range tt.want {
			if !strings.Contains(diag.Detail, w) {
				t.Errorf("%s: the report lacks %q:\n%s", tt.run, w, diag.Detail)
			}
		}
		if strings.Contains(diag.Detail, "never reached") {
			t.Errorf("%s: a step after the failed one ran", tt.run)
		}
	}
}

// TestPackagesBySwitch: the machines boot the stock root, which lacks the
// package a profile lists (hello); nodegen switch installs it in the
// machine through the run's package proxy, as on an operator's machine.
func TestPackagesBySwitch(t *testing.T) {
	d := driver(t)
	tree, _, err := machine.Root{}.Ensure()
	if err != nil {
		t.Fatal(err)
	}
	status, err := os.ReadFile(filepath.Join(tree, "var/lib/dpkg/status"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(status), "\nPackage: hello\n") || strings.HasPrefix(string(status), "Package: hello\n") {
		t.Fatalf("the stock root %s has the package hello already", tree)
	}
	res, _ := runFile(t, d, "testdata/packages.test.hcl")
	if r := res["packages"]; !r.Passed {
		t.Fatalf("run packages failed:\n%v", r.Diags)
	}
	after, err := os.ReadFile(filepath.Join(tree, "var/lib/dpkg/status"))
	if err != nil || string(after) != string(status) {
		t.Errorf("the stock root's dpkg status changed during the run (%v)", err)
	}
}

// keepTest is a test file for TestKeep: GEN is /etc/generation's text,
// BOOT what the marker step must print ("fresh" on a machine booted for
// the run, "adopted" on one kept from the run before: /run is the
// machine's tmpfs, empty after every boot).
const keepTest = `machine "m" {
  config "environment.etc.generation" { text = "GEN\n" }
}
run "kept" {
  machines = ["m"]
  step "m" {
    succeed         = "cat /etc/generation"
    output_contains = "GEN"
  }
  step "m" {
    succeed         = "if test -e /run/kept-marker; then echo adopted; else touch /run/kept-marker; echo fresh; fi"
    output_contains = "BOOT"
  }
}
`

// TestKeep: a run with Keep leaves its machine running; the same test,
// edited, run again switches that machine (the marker in its /run is
// still there: no boot) to the edited profile; StopKept powers it off;
// a record whose machine is gone is cleaned up and a new machine boots.
func TestKeep(t *testing.T) {
	d := driver(t)
	state := t.TempDir()
	dir := t.TempDir()
	path := filepath.Join(dir, "keep.test.hcl")
	runKept := func(gen, boot string) *modtest.Result {
		t.Helper()
		src := strings.NewReplacer("GEN", gen, "BOOT", boot).Replace(keepTest)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		f := modtest.ParseFile(path)
		if f.Diags.HasErrors() {
			t.Fatal(f.Diags)
		}
		kd := &machinerun.Driver{Library: d.Library, Binary: d.Binary, Keep: true, StateDir: state, Logf: t.Logf}
		res := (&modtest.Runner{Library: modules.FS(), Machines: kd}).Run(f, f.Runs[0])
		for _, n := range res.Notes {
			t.Logf("%s/%s: %s", gen, boot, n)
		}
		if !res.Passed {
			t.Fatalf("run with generation %s, machine %s: failed:\n%v", gen, boot, res.Diags)
		}
		return res
	}
	hasNote := func(res *modtest.Result, want string) bool {
		for _, n := range res.Notes {
			if strings.Contains(n, want) {
				return true
			}
		}
		return false
	}
	stop := func() []machinerun.KeptRun {
		t.Helper()
		stopped, err := machinerun.StopKept(state, nil)
		if err != nil {
			t.Error(err)
		}
		return stopped
	}
	t.Cleanup(func() { stop() })

	first := runKept("one", "fresh")
	if !hasNote(first, "kept the machines") || !hasNote(first, "nsenter -t ") {
		t.Errorf("the first run does not say how to enter its kept machine: %q", first.Notes)
	}
	second := runKept("two", "adopted")
	if !hasNote(second, "kept machine switched in") || hasNote(second, "booted in") {
		t.Errorf("the second run did not switch the kept machine: %q", second.Notes)
	}
	if stopped := stop(); len(stopped) != 1 || stopped[0].Run != "kept" || len(stopped[0].Machines) != 1 {
		t.Errorf("StopKept stopped %v; want the run kept", stopped)
	}
	if disks, _ := filepath.Glob(filepath.Join(state, "disks", "*")); len(disks) != 0 {
		t.Errorf("disks left after StopKept: %v", disks)
	}
	// Stopped: the next run boots a new machine.
	runKept("three", "fresh")
	// A machine gone behind the record's back: its systemd killed.
	records, _ := filepath.Glob(filepath.Join(state, "kept", "*.json"))
	if len(records) != 1 {
		t.Fatalf("records %v; want one", records)
	}
	data, err := os.ReadFile(records[0])
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Machines []struct {
			Machine struct{ PID int }
		}
	}
	if err := json.Unmarshal(data, &rec); err != nil || len(rec.Machines) != 1 {
		t.Fatalf("record %s: %v", data, err)
	}
	syscall.Kill(rec.Machines[0].Machine.PID, syscall.SIGKILL)
	time.Sleep(500 * time.Millisecond)
	gone := runKept("four", "fresh")
	if !hasNote(gone, "cannot be used") {
		t.Errorf("the run after the kept machine died does not say so: %q", gone.Notes)
	}
}
