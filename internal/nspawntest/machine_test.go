//go:build linux

package nspawntest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// demoUnit is a service that says which version it is and keeps running.
func demoUnit(version string) []byte {
	return []byte(`[Unit]
Description=nspawntest demo

[Service]
ExecStart=/bin/sh -c 'echo demo says ` + version + `; exec sleep infinity'
`)
}

// waitJournal waits (bounded) until the last lines of unit's journal
// contain want, and fails t if they never do.
func waitJournal(t *testing.T, m *Machine, unit, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		journal := m.Journal(unit, 20)
		if strings.Contains(journal, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the journal of %s never said %q; its last lines:\n%s", unit, want, journal)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// unitState returns `systemctl is-active UNIT` and its exit code.
func unitState(t *testing.T, m *Machine, unit string) (string, int) {
	t.Helper()
	stdout, stderr, code, err := m.Run("systemctl", "is-active", unit)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	return strings.TrimSpace(stdout), code
}

func TestUnitLifecycle(t *testing.T) {
	t.Parallel()
	m := Boot(t, Options{})
	if got := strings.TrimSpace(m.MustRun("systemctl", "is-system-running")); got != "running" && got != "degraded" {
		t.Fatalf("is-system-running says %q", got)
	}
	if got := strings.TrimSpace(m.MustRun("cat", "/proc/1/comm")); got != "systemd" {
		t.Errorf("PID 1 in the machine is %q, want systemd", got)
	}
	if got := strings.TrimSpace(m.MustRun("hostname")); got != m.Name() {
		t.Errorf("host name %q, want the machine's name %q", got, m.Name())
	}

	const unit = "ngt-demo.service"
	path := "/etc/systemd/system/" + unit
	m.WriteFile(path, demoUnit("v1"), 0o644)
	m.MustRun("systemctl", "daemon-reload")
	m.MustRun("systemctl", "start", unit)
	if state, code := unitState(t, m, unit); state != "active" || code != 0 {
		t.Fatalf("after start: is-active says %q (exit %d), want active", state, code)
	}
	waitJournal(t, m, unit, "demo says v1")
	firstPID := strings.TrimSpace(m.MustRun("systemctl", "show", "-P", "MainPID", unit))

	m.WriteFile(path, demoUnit("v2"), 0o644)
	if got := strings.TrimSpace(m.MustRun("systemctl", "show", "-P", "NeedDaemonReload", unit)); got != "yes" {
		t.Errorf("after changing the unit file NeedDaemonReload is %q, want yes", got)
	}
	m.MustRun("systemctl", "daemon-reload")
	m.MustRun("systemctl", "restart", unit)
	waitJournal(t, m, unit, "demo says v2")
	if state, code := unitState(t, m, unit); state != "active" || code != 0 {
		t.Fatalf("after restart: is-active says %q (exit %d), want active", state, code)
	}
	if secondPID := strings.TrimSpace(m.MustRun("systemctl", "show", "-P", "MainPID", unit)); secondPID == firstPID {
		t.Errorf("the restart kept the main PID %s", firstPID)
	}

	m.MustRun("systemctl", "stop", unit)
	if state, code := unitState(t, m, unit); state != "inactive" || code != 3 {
		t.Errorf("after stop: is-active says %q (exit %d), want inactive (3)", state, code)
	}
	journal := m.Journal(unit, 50)
	for _, want := range []string{"demo says v1", "demo says v2", "Stopped"} {
		if !strings.Contains(journal, want) {
			t.Errorf("the journal has no %q:\n%s", want, journal)
		}
	}
}

func TestRun(t *testing.T) {
	t.Parallel()
	m := Boot(t, Options{})
	stdout, stderr, code, err := m.Run("sh", "-c", "echo out; echo err >&2; exit 3")
	if err != nil || stdout != "out\n" || stderr != "err\n" || code != 3 {
		t.Errorf("Run: stdout %q, stderr %q, code %d, err %v; want out, err, 3, nil", stdout, stderr, code, err)
	}
	if stdout, _, code, err := m.Run("pwd"); err != nil || stdout != "/\n" || code != 0 {
		t.Errorf("pwd: %q, %d, %v; want /", stdout, code, err)
	}
	if _, _, code, err := m.Run("sh", "-c", "kill -9 $$"); err != nil || code != 128+9 {
		t.Errorf("a command killed by SIGKILL: code %d, err %v; want 137", code, err)
	}
	if _, _, _, err := m.Run("no-such-command"); err == nil || !strings.Contains(err.Error(), "no-such-command") {
		t.Errorf("a missing command: err %v, want one naming it", err)
	}
	if stdout, _, code, err := m.RunFor(2*time.Minute, "sh", "-c", "sleep 0.1; echo slow"); err != nil || stdout != "slow\n" || code != 0 {
		t.Errorf("RunFor: %q, %d, %v; want slow", stdout, code, err)
	}
	// On timeout, the command inside the machine is killed too.
	if _, _, _, err := m.RunFor(300*time.Millisecond, "sleep", "1234"); err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("a command past its timeout: err %v, want a time-out", err)
	}
	if _, _, code, _ := m.Run("pgrep", "-f", "sleep 1234"); code != 1 {
		t.Errorf("the timed out command still runs in the machine (pgrep exited %d)", code)
	}
}

func TestFiles(t *testing.T) {
	t.Parallel()
	m := Boot(t, Options{})
	m.WriteFile("/srv/a/b/file", []byte("hello\n"), 0o640)
	if got := m.MustRun("stat", "-c", "%a %U", "/srv/a/b/file"); got != "640 root\n" {
		t.Errorf("mode and owner of the written file: %q", got)
	}
	if data, err := os.ReadFile(m.Path("/srv/a/b/file")); err != nil || string(data) != "hello\n" {
		t.Errorf("reading it through Path: %q, %v", data, err)
	}

	host := filepath.Join(t.TempDir(), "tool")
	if err := os.WriteFile(host, []byte("#!/bin/sh\necho tool ran\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m.CopyFile(host, "/usr/local/bin/tool", 0o755)
	if got := m.MustRun("tool"); got != "tool ran\n" {
		t.Errorf("the copied tool printed %q", got)
	}

	// An absolute symbolic link resolves inside the machine.
	m.MustRun("mkdir", "/srv/real")
	m.MustRun("ln", "-s", "/srv/real", "/srv/link")
	m.WriteFile("/srv/link/file", []byte("through the link\n"), 0o644)
	if got := m.MustRun("cat", "/srv/real/file"); got != "through the link\n" {
		t.Errorf("written through a link: %q", got)
	}
	if got := m.MustRun("ls", "-A", "/srv/real"); got != "file\n" {
		t.Errorf("writing left temporary files: %q", got)
	}
}

func TestBinds(t *testing.T) {
	t.Parallel()
	ro, rw := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(ro, "config"), []byte("from the host\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := Boot(t, Options{Binds: []Bind{
		{Host: ro, Container: "/etc/ngt-ro", ReadOnly: true},
		{Host: rw, Container: "/var/lib/ngt-rw"},
	}})
	if got := m.MustRun("cat", "/etc/ngt-ro/config"); got != "from the host\n" {
		t.Errorf("read-only bind: %q", got)
	}
	if _, _, code, err := m.Run("touch", "/etc/ngt-ro/new"); err != nil || code == 0 {
		t.Errorf("writing into the read-only bind: exit %d, %v; want a failure", code, err)
	}
	m.MustRun("sh", "-c", "echo from the machine > /var/lib/ngt-rw/out")
	if data, err := os.ReadFile(filepath.Join(rw, "out")); err != nil || string(data) != "from the machine\n" {
		t.Errorf("the host reads from the writable bind: %q, %v", data, err)
	}
}

func TestPowerOff(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	m := Boot(t, Options{Binds: []Bind{{Host: out, Container: "/var/lib/ngt-out"}}})
	// Power-off stops units cleanly: the unit's ExecStop runs.
	m.WriteFile("/etc/systemd/system/ngt-stop.service", []byte(`[Service]
ExecStart=/bin/sleep infinity
ExecStop=/bin/sh -c 'echo stopped cleanly > /var/lib/ngt-out/stop'
`), 0o644)
	m.MustRun("systemctl", "daemon-reload")
	m.MustRun("systemctl", "start", "ngt-stop.service")
	pid, cgroups := m.PID(), m.Cgroups()
	m.PowerOff()
	if data, err := os.ReadFile(filepath.Join(out, "stop")); err != nil || string(data) != "stopped cleanly\n" {
		t.Errorf("the unit's ExecStop did not run at power-off: %q, %v\n%s", data, err, m.Log())
	}
	if err := syscall.Kill(pid, 0); err != syscall.ESRCH {
		t.Errorf("the machine's systemd (PID %d) still exists after power-off: %v", pid, err)
	}
	for _, dir := range cgroups {
		if isFile(dir) {
			t.Errorf("the machine's cgroup %s is left", dir)
		}
	}
	if _, _, _, err := m.Run("true"); err == nil || !strings.Contains(err.Error(), "is off") {
		t.Errorf("Run after power-off: %v, want an error saying the machine is off", err)
	}
	m.PowerOff() // the cleanup's second call does nothing
}

func TestConcurrentMachines(t *testing.T) {
	t.Parallel()
	// Both machines boot at once from the one cached root and work side
	// by side; then the first powers off, which must not touch the second.
	var (
		booted   sync.WaitGroup
		firstOff = make(chan struct{})
		mu       sync.Mutex
		names    []string
	)
	booted.Add(2)
	t.Run("group", func(t *testing.T) {
		for i := range 2 {
			t.Run(strconv.Itoa(i), func(t *testing.T) {
				t.Parallel()
				var arrive sync.Once
				defer arrive.Do(booted.Done) // also when Boot fails
				if i == 0 {
					defer close(firstOff)
				}
				m := Boot(t, Options{})
				m.MustRun("systemd-run", "--unit=ngt-sleep", "sleep", "infinity")
				m.WriteFile("/etc/ngt-marker-"+m.Name(), nil, 0o644)
				mu.Lock()
				names = append(names, m.Name())
				mu.Unlock()
				arrive.Do(booted.Done)
				waitBounded(t, booted.Wait, "the other machine to boot")

				if got := m.MustRun("sh", "-c", "ls /etc/ngt-marker-*"); got != "/etc/ngt-marker-"+m.Name()+"\n" {
					t.Errorf("%s sees markers %q, want only its own", m.Name(), got)
				}
				if i == 0 {
					m.PowerOff()
					return
				}
				waitBounded(t, func() { <-firstOff }, "the other machine to power off")
				if state, code := unitState(t, m, "ngt-sleep.service"); state != "active" || code != 0 {
					t.Errorf("after the other machine powered off, ngt-sleep is %q (exit %d)", state, code)
				}
				if got := strings.TrimSpace(m.MustRun("systemctl", "is-system-running")); got != "running" && got != "degraded" {
					t.Errorf("after the other machine powered off, is-system-running says %q", got)
				}
			})
		}
	})
	if len(names) == 2 && (names[0] == names[1] || !strings.HasPrefix(names[0], "ngt-")) {
		t.Errorf("machine names %q, want two different ngt-* names", names)
	}
}

// waitBounded runs wait and fails t if it does not return within two
// minutes.
func waitBounded(t *testing.T, wait func(), what string) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatalf("gave up waiting for %s", what)
	}
}

func TestBuildStatic(t *testing.T) {
	t.Parallel()
	bin := BuildStatic(t, "./cmd/nodegen")
	if again := BuildStatic(t, "./cmd/nodegen"); again != bin {
		t.Errorf("the second call built again: %s, then %s", bin, again)
	}
	if filepath.Base(bin) != "nodegen" {
		t.Errorf("the binary is called %s, want nodegen", filepath.Base(bin))
	}
	// Static: it runs in the machine, which has none of the host's
	// libraries.
	m := Boot(t, Options{})
	m.CopyFile(bin, "/usr/local/bin/nodegen", 0o755)
	if got := m.MustRun("nodegen", "--help"); !strings.Contains(got, "Usage:") {
		t.Errorf("nodegen --help in the machine printed:\n%s", got)
	}
}

func TestUnconfined(t *testing.T) {
	t.Parallel()
	m := Boot(t, Options{
		NoSeccomp:         true,
		AllCapabilities:   true,
		ControllerCgroups: true,
		Binds:             []Bind{{Host: "/dev/kmsg", Container: "/dev/kmsg"}},
	})
	status := m.MustRun("cat", "/proc/1/status")
	if !strings.Contains(status, "\nSeccomp:\t0\n") {
		t.Errorf("the machine's PID 1 has a system call filter:\n%s", status)
	}
	// CAP_SYS_MODULE (16) is not among the capabilities nspawn keeps by
	// default.
	if !hasCapability(t, status, 16) {
		t.Errorf("the machine's PID 1 lacks CAP_SYS_MODULE:\n%s", status)
	}
	if _, _, code, err := m.Run("timeout", "5", "dd", "if=/dev/kmsg", "bs=8192", "count=1", "status=none"); err != nil || code != 0 {
		t.Errorf("reading /dev/kmsg in the machine: exit %d, %v", code, err)
	}
	// Every controller hierarchy places the machine in a cgroup of its
	// own, which goes away with it.
	own, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(m.PID()), "cgroup"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(own)), "\n") {
		fields := strings.SplitN(line, ":", 3)
		if len(fields) == 3 && fields[1] != "" && !strings.Contains(fields[2], "/"+m.Name()) {
			t.Errorf("in the %s hierarchy the machine's PID 1 is in %s, not below a cgroup %s", fields[1], fields[2], m.Name())
		}
	}
	cgroups := m.Cgroups()
	if len(cgroups) < 3 && isDir("/sys/fs/cgroup/memory") {
		t.Errorf("the machine has cgroups %v, want one in each controller hierarchy too", cgroups)
	}
	m.PowerOff()
	for _, dir := range cgroups {
		if isFile(dir) {
			t.Errorf("the machine's cgroup %s is left", dir)
		}
	}
}

// hasCapability reports whether the CapEff line of a /proc/PID/status
// text has the capability numbered capability.
func hasCapability(t *testing.T, status string, capability uint) bool {
	t.Helper()
	for _, line := range strings.Split(status, "\n") {
		if hex, ok := strings.CutPrefix(line, "CapEff:"); ok {
			set, err := strconv.ParseUint(strings.TrimSpace(hex), 16, 64)
			if err != nil {
				t.Fatalf("CapEff %q: %v", hex, err)
			}
			return set&(1<<capability) != 0
		}
	}
	t.Fatalf("no CapEff line in:\n%s", status)
	return false
}
