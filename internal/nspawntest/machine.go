//go:build linux

package nspawntest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/machine"
)

// defaultLifetime bounds a machine's life when the test has no deadline,
// in case the test process dies without powering it off.
const defaultLifetime = 30 * time.Minute

// Options for Boot. The zero Options boot the default root, confined as
// nspawn confines a container by default (machine.Options says what each
// field does; Name, Lifetime and LogDir are Boot's own).
type Options = machine.Options

// Bind bind-mounts the host path Host at the absolute path Container
// inside the machine, read-only when ReadOnly is set.
type Bind = machine.Bind

// Machine is a running systemd-nspawn container with systemd as PID 1,
// made by Boot: a machine.Machine whose methods that would return errors
// (other than Run, RunFor and RunInput) fail the test that booted it
// (t.Fatal) instead, so they must be called from that test's goroutine,
// not from its subtests or other goroutines; Run only returns errors and
// may be called from any goroutine.
type Machine struct {
	*machine.Machine
	t testing.TB
}

// Boot boots the cached root file system (Rootfs) as machine.Boot does, as
// a new machine with a unique name ("ngt-" and random hex), and registers
// a cleanup that powers it off. It skips t (fails it under CI) where
// nspawn cannot run and calls t.Fatal with nspawn's log when the boot
// fails. Should the test process die without the cleanup, the machine is
// still stopped once the test's deadline (go test -timeout) has passed,
// and a later Boot removes its cgroups.
func Boot(t testing.TB, opts Options) *Machine {
	t.Helper()
	if opts.Dir == "" {
		RootOf(t, opts.Root) // skips, or builds the root with its log
	} else {
		requireNspawn(t)
	}
	opts.Lifetime = lifetime(t)
	opts.LogDir = t.TempDir()
	opts.Logf = func(format string, args ...any) { t.Logf("nspawntest: "+format, args...) }
	m, err := machine.Boot(opts)
	if err != nil {
		t.Fatalf("nspawntest: %v", err)
	}
	w := &Machine{Machine: m, t: t}
	t.Cleanup(func() {
		if err := m.PowerOff(); err != nil {
			t.Errorf("nspawntest: %v", err)
		}
		if t.Failed() {
			t.Logf("nspawntest: log of %s:\n%s", m.Name(), m.Log())
		}
	})
	return w
}

// MustRun is Run that fails the test (with the command and both outputs)
// unless the command ran and exited 0. It returns the command's stdout.
func (m *Machine) MustRun(args ...string) string {
	m.t.Helper()
	stdout, stderr, code, err := m.Run(args...)
	if err != nil {
		m.t.Fatalf("nspawntest: %v\nstdout:\n%s\nstderr:\n%s", err, stdout, stderr)
	}
	if code != 0 {
		m.t.Fatalf("nspawntest: %q in %s exited %d\nstdout:\n%s\nstderr:\n%s", args, m.Name(), code, stdout, stderr)
	}
	return stdout
}

// Path maps the absolute path p inside the machine to the host path that
// reaches it (machine.Machine.Path).
func (m *Machine) Path(p string) string {
	m.t.Helper()
	path, err := m.Machine.Path(p)
	if err != nil {
		m.t.Fatalf("nspawntest: %v", err)
	}
	return path
}

// WriteFile writes data to the file at the absolute path p inside the
// machine (machine.Machine.WriteFile).
func (m *Machine) WriteFile(p string, data []byte, mode os.FileMode) {
	m.t.Helper()
	if err := m.Machine.WriteFile(p, data, mode); err != nil {
		m.t.Fatalf("nspawntest: %v", err)
	}
}

// CopyFile copies the host file hostPath to the absolute path p inside the
// machine, as WriteFile does.
func (m *Machine) CopyFile(hostPath, p string, mode os.FileMode) {
	m.t.Helper()
	data, err := os.ReadFile(hostPath)
	if err != nil {
		m.t.Fatalf("nspawntest: copying into %s: %v", m.Name(), err)
	}
	m.WriteFile(p, data, mode)
}

// Journal returns the last n lines of the journal of unit
// (journalctl -u UNIT -n N --no-pager). Lines a service has just written
// can reach the journal a moment later.
func (m *Machine) Journal(unit string, n int) string {
	m.t.Helper()
	out, err := m.Machine.Journal(unit, n)
	if err != nil {
		m.t.Fatalf("nspawntest: %v", err)
	}
	return out
}

// PowerOff powers the machine off now, as its cleanup would: a machine
// booted from a Dir can then be booted again, as a host is after a
// restart. Its methods must not be called afterwards.
func (m *Machine) PowerOff() {
	m.t.Helper()
	if err := m.Machine.PowerOff(); err != nil {
		m.t.Errorf("nspawntest: %v", err)
	}
}

// CopyRoot copies the root file system r (RootOf) into a new directory
// of the test's and returns it, for Options.Dir: a disk of its own for
// machines that must restart.
func CopyRoot(t testing.TB, r Root) string {
	t.Helper()
	src := RootOf(t, r)
	dst := filepath.Join(t.TempDir(), "root")
	if out, err := exec.Command("cp", "-a", "--reflink=auto", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("nspawntest: copying %s: %v\n%s", src, err, out)
	}
	return dst
}

// lifetime is how long a machine of t may live at most: until t's
// deadline and a little more, else defaultLifetime.
func lifetime(t testing.TB) time.Duration {
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if deadline, ok := d.Deadline(); ok {
			return time.Until(deadline) + 30*time.Second
		}
	}
	return defaultLifetime
}
