//go:build linux

package machine

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

const (
	// runTimeout bounds every command run in a machine.
	runTimeout = 60 * time.Second
	// bootTimeout bounds the boot, from starting nspawn until systemd
	// says the system is running.
	bootTimeout = 60 * time.Second
	// powerOffTimeout bounds the clean power-off; then the machine is
	// killed, and killTimeout bounds waiting for that.
	powerOffTimeout = 30 * time.Second
	killTimeout     = 10 * time.Second
	// defaultLifetime bounds a machine's life when the test has no
	// deadline, in case the test process dies without powering it off.
	defaultLifetime = 30 * time.Minute
)

// sigPowerOff makes systemd power off cleanly: SIGRTMIN+4, where
// SIGRTMIN is 34 as glibc, and so systemd, counts it.
const sigPowerOff = syscall.Signal(34 + 4)

// containerEnv is the environment of commands run in a machine, instead
// of the test process's own.
var containerEnv = []string{
	"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
	"LANG=C.UTF-8",
	"TERM=dumb",
	"SYSTEMD_PAGER=",
	"SYSTEMD_COLORS=0",
}

// Options for Boot. The zero Options boot the default root, confined as
// nspawn confines a container by default.
type Options struct {
	// Name is the machine's name and host name; "" means "ngt-" and
	// random hex.
	Name string
	// HostName, when set, is the machine's host name instead of Name:
	// Name must be unique on the host (it names the machine's cgroups),
	// the host name need not.
	HostName string
	// Lifetime bounds the machine's life should its owner die without
	// powering it off; 0 means 30 minutes.
	Lifetime time.Duration
	// LogDir is where nspawn's output is written; "" means a new
	// temporary directory, removed at PowerOff.
	LogDir string
	// Logf, when set, receives the machine's notes (booted, degraded, not
	// powered off in time).
	Logf func(format string, args ...any)
	// Binds are extra bind mounts into the machine.
	Binds []Bind
	// Root is the root file system to boot (RootOf), with more packages
	// than the default one.
	Root Root
	// Dir, when set, is booted in place of an overlay of Root: a copy of
	// a root (CopyRoot), written to as a host's disk is. What the machine
	// wrote is still there when the same Dir is booted again after
	// PowerOff, as on a host that restarts.
	Dir string
	// NoSeccomp turns nspawn's system call filter off
	// (SYSTEMD_SECCOMP=0): a container runtime in the machine (runc)
	// needs calls it refuses, such as keyctl.
	NoSeccomp bool
	// AllCapabilities gives the machine every capability the host's root
	// has (--capability=all), such as CAP_NET_ADMIN, CAP_SYSLOG and
	// CAP_SYS_MODULE.
	AllCapabilities bool
	// ControllerCgroups gives the machine a cgroup of its own in every
	// cgroup v1 controller hierarchy (cpu, memory, pids, ...) too, as
	// in the systemd and unified ones, so that the cgroups a kubelet or
	// container runtime makes in the machine land below it (and are
	// removed with it) rather than in the test process's cgroups.
	ControllerCgroups bool
	// ResolvConf is how systemd-nspawn sets up the machine's
	// /etc/resolv.conf (its --resolv-conf mode, such as "delete"); ""
	// keeps nspawn's default, which leaves a private network's machine
	// the file its root holds.
	ResolvConf string
}

// Bind bind-mounts the host path Host at the absolute path Container
// inside the machine, read-only when ReadOnly is set.
type Bind struct {
	Host, Container string
	ReadOnly        bool
}

// Machine is a running systemd-nspawn container with systemd as PID 1,
// made by Boot. Its methods return errors and may be called from any
// goroutine.
type Machine struct {
	opts    Options
	name    string
	pid     int
	pidfd   int // of pid, or -1
	cgroups []string

	nspawn     *exec.Cmd     // timeout(1) running systemd-nspawn, or nil when adopted
	supervisor int           // its PID: timeout(1)'s, nspawn's parent
	exited     chan struct{} // closed when nspawn has exited
	waitErr    error         // nspawn's exit, once exited is closed
	logPath    string        // nspawn's output
	tmpDir     string        // removed at PowerOff, or ""

	powerOffOnce sync.Once
	powerOffErr  error
}

// Boot boots the cached root file system (Root.Ensure) in systemd-nspawn
// as a new machine, through a fresh --volatile=overlay view, so that every
// machine starts clean and the cached root is never changed (or boots
// Options.Dir in place). The machine has a private network with only a
// loopback interface. Boot waits (at most a minute) until
// `systemctl is-system-running --wait` says running or degraded. PowerOff
// stops it (SIGRTMIN+4 to its systemd, a bounded wait until it has stopped
// every unit, then SIGKILL), waits for nspawn and removes the cgroups left
// behind. On failure Boot powers off what it started and returns an error
// with nspawn's log. Should the owner die without PowerOff, the machine is
// still stopped once Options.Lifetime has passed, and a later Boot removes
// its cgroups.
func Boot(opts Options) (*Machine, error) {
	root, volatile := opts.Dir, []string{}
	if root == "" {
		var err error
		root, _, err = opts.Root.Ensure()
		if err != nil {
			return nil, err
		}
		volatile = []string{"--volatile=overlay"}
	}
	bindArgs, err := bindArgs(opts.Binds)
	if err != nil {
		return nil, err
	}
	if opts.Name == "" {
		opts.Name = "ngt-" + randomHex(6)
	}
	if opts.Lifetime <= 0 {
		opts.Lifetime = defaultLifetime
	}
	m := &Machine{
		opts:   opts,
		name:   opts.Name,
		pidfd:  -1,
		exited: make(chan struct{}),
	}
	logDir := opts.LogDir
	if logDir == "" {
		if logDir, err = os.MkdirTemp("", "nodegen-machine-"); err != nil {
			return nil, err
		}
		m.tmpDir = logDir
	}
	m.logPath = filepath.Join(logDir, m.name+".nspawn.log")
	log, err := os.Create(m.logPath)
	if err != nil {
		m.removeTmp()
		return nil, err
	}
	defer log.Close()
	m.cgroups, err = machineCgroups(m.name, opts.ControllerCgroups)
	if err != nil {
		m.removeTmp()
		return nil, fmt.Errorf("booting %s: %v", m.name, err)
	}

	// sh moves itself into the machine's cgroups, then becomes timeout(1),
	// which stops nspawn (and so the machine) should nothing else.
	args := []string{"-c", `while [ "$1" != -- ]; do echo $$ > "$1/cgroup.procs" || exit 125; shift; done; shift; exec "$@"`, "sh"}
	args = append(args, m.cgroups...)
	args = append(args, "--", "timeout", "--kill-after=30s", fmt.Sprintf("%ds", int(opts.Lifetime.Seconds())),
		"systemd-nspawn", "-q", "-D", root, "-M", m.name,
		"--register=no", "--keep-unit", "--console=pipe")
	args = append(args, volatile...)
	args = append(args, "--private-network")
	if opts.ResolvConf != "" {
		args = append(args, "--resolv-conf="+opts.ResolvConf)
	}
	if opts.AllCapabilities {
		args = append(args, "--capability=all")
	}
	args = append(args, bindArgs...)
	// The root keeps the /etc/hostname debootstrap wrote, which systemd
	// would make every machine's host name: the machine's own name comes
	// on its (init's) command line, as a provider's boot loader passes
	// systemd.hostname=.
	hostName := m.name
	if opts.HostName != "" {
		hostName = opts.HostName
	}
	args = append(args, "-b", "systemd.hostname="+hostName)
	m.nspawn = exec.Command("sh", args...)
	if opts.NoSeccomp {
		m.nspawn.Env = append(os.Environ(), "SYSTEMD_SECCOMP=0")
	}
	m.nspawn.Stdout = log
	m.nspawn.Stderr = log
	start := time.Now()
	if err := m.nspawn.Start(); err != nil {
		removeCgroups(m.cgroups)
		m.removeTmp()
		return nil, fmt.Errorf("starting systemd-nspawn: %v", err)
	}
	m.supervisor = m.nspawn.Process.Pid
	go func() {
		m.waitErr = m.nspawn.Wait()
		close(m.exited)
	}()

	deadline := start.Add(bootTimeout)
	m.pid, err = m.findInit(deadline)
	if err != nil {
		return nil, m.failBoot(err)
	}
	if fd, err := unix.PidfdOpen(m.pid, 0); err == nil {
		m.pidfd = fd
	}
	if err := m.waitRunning(deadline); err != nil {
		return nil, m.failBoot(err)
	}
	m.logf("booted %s (PID %d) in %s", m.name, m.pid, time.Since(start).Round(time.Millisecond))
	return m, nil
}

// failBoot powers off a machine whose boot failed and returns err with
// nspawn's log.
func (m *Machine) failBoot(err error) error {
	log := m.Log()
	m.PowerOff()
	return fmt.Errorf("booting %s: %v\nsystemd-nspawn log:\n%s", m.name, err, log)
}

func (m *Machine) logf(format string, args ...any) {
	if m.opts.Logf != nil {
		m.opts.Logf(format, args...)
	}
}

func (m *Machine) removeTmp() {
	if m.tmpDir != "" {
		os.RemoveAll(m.tmpDir)
	}
}

// Name returns the machine's name, also its host name.
func (m *Machine) Name() string { return m.name }

// PID returns the PID of the machine's PID 1, its systemd, as seen from
// the host.
func (m *Machine) PID() int { return m.pid }

// Run runs a command inside the machine (nsenter -t PID -a, in the
// machine's root directory /) with a minimal environment and stdin from
// /dev/null, and returns its stdout, stderr and exit code (128+N when
// killed by signal N). It returns an error only when the command could
// not run (the machine is off, nsenter failed, no such command) or did
// not finish within a minute; then the command is killed.
func (m *Machine) Run(args ...string) (stdout, stderr string, code int, err error) {
	return m.run(nil, runTimeout, args...)
}

// RunFor is Run with another bound than a minute, for a command that
// may take longer.
func (m *Machine) RunFor(timeout time.Duration, args ...string) (stdout, stderr string, code int, err error) {
	return m.run(nil, timeout, args...)
}

// RunInput is RunFor with stdin as the command's standard input.
func (m *Machine) RunInput(stdin io.Reader, timeout time.Duration, args ...string) (stdout, stderr string, code int, err error) {
	return m.run(stdin, timeout, args...)
}

// Exited is closed once the machine has stopped, by PowerOff or by
// itself.
func (m *Machine) Exited() <-chan struct{} { return m.exited }

// Path maps the absolute path p inside the machine to the host path that
// reaches it, through /proc/PID/root. Beware that the kernel resolves an
// absolute symbolic link met on the way against the host's root, not the
// machine's; WriteFile does not have this problem.
func (m *Machine) Path(p string) (string, error) {
	if err := requireAbs(p); err != nil {
		return "", err
	}
	return filepath.Join("/proc", strconv.Itoa(m.pid), "root", p), nil
}

// WriteFile writes data to the file at the absolute path p inside the
// machine, owned by root with the permission bits of mode, creating
// missing parent directories. The file is replaced by a rename, so
// nothing in the machine sees it half written.
func (m *Machine) WriteFile(p string, data []byte, mode os.FileMode) error {
	if err := requireAbs(p); err != nil {
		return err
	}
	// The file is written from inside the machine, so that symbolic
	// links on the way resolve as the machine sees them.
	const script = `set -e
mkdir -p -- "$(dirname -- "$1")"
tmp=$(mktemp -- "$1.ngt-XXXXXX")
trap 'rm -f -- "$tmp"' EXIT
cat > "$tmp"
chmod "$2" "$tmp"
mv -f -- "$tmp" "$1"
trap - EXIT`
	args := []string{"sh", "-c", script, "sh", p, fmt.Sprintf("%o", mode.Perm())}
	stdout, stderr, code, err := m.run(bytes.NewReader(data), runTimeout, args...)
	if err != nil || code != 0 {
		return fmt.Errorf("writing %s in %s: exit code %d, %v\nstdout:\n%s\nstderr:\n%s", p, m.name, code, err, stdout, stderr)
	}
	return nil
}

// ReadFile reads the file at the absolute path p inside the machine (cat
// run inside, so that links resolve as the machine sees them).
func (m *Machine) ReadFile(p string) ([]byte, error) {
	if err := requireAbs(p); err != nil {
		return nil, err
	}
	stdout, stderr, code, err := m.run(nil, runTimeout, "cat", "--", p)
	if err == nil && code != 0 {
		err = fmt.Errorf("reading %s in %s: %s", p, m.name, strings.TrimSpace(stderr))
	}
	return []byte(stdout), err
}

// Journal returns the last n lines of the journal of unit
// (journalctl -u UNIT -n N --no-pager), or of the whole journal when unit
// is "". Lines a service has just written can reach the journal a moment
// later.
func (m *Machine) Journal(unit string, n int) (string, error) {
	args := []string{"journalctl", "-n", strconv.Itoa(n), "--no-pager"}
	if unit != "" {
		args = append(args, "-u", unit)
	}
	stdout, stderr, code, err := m.run(nil, runTimeout, args...)
	if err == nil && code != 0 {
		err = fmt.Errorf("%s in %s exited %d: %s", quoteArgs(args), m.name, code, strings.TrimSpace(stderr))
	}
	return stdout, err
}

// run runs args in the machine as Run describes, with stdin (nil for
// /dev/null) and timeout.
func (m *Machine) run(stdin io.Reader, timeout time.Duration, args ...string) (stdout, stderr string, code int, err error) {
	if len(args) == 0 {
		return "", "", -1, errors.New("Run needs a command")
	}
	select {
	case <-m.exited:
		return "", "", -1, fmt.Errorf("running %s: the machine %s is off", quoteArgs(args), m.name)
	default:
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	// --root and --wd without a directory take the container's root and
	// systemd's working directory (/); "--wd=/" would be the host's /.
	cmd := exec.CommandContext(ctx, "nsenter", append([]string{"-t", strconv.Itoa(m.pid), "-a", "--root", "--wd", "--"}, args...)...)
	cmd.Env = containerEnv
	cmd.Stdin = stdin
	var outBuf, errBuf bytes.Buffer
	cmd.Stdout = &outBuf
	cmd.Stderr = &errBuf
	// nsenter forks the command into the machine's PID namespace; on
	// timeout, kill both through their process group.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	runErr := cmd.Run()
	stdout, stderr = outBuf.String(), errBuf.String()
	if ctx.Err() != nil {
		return stdout, stderr, -1, fmt.Errorf("running %s in %s: timed out after %s", quoteArgs(args), m.name, timeout)
	}
	var exitErr *exec.ExitError
	switch {
	case errors.As(runErr, &exitErr):
		code = exitErr.ExitCode()
		if status, ok := exitErr.Sys().(syscall.WaitStatus); ok && status.Signaled() {
			code = 128 + int(status.Signal())
		}
	case runErr != nil:
		return stdout, stderr, -1, fmt.Errorf("running %s in %s: %w", quoteArgs(args), m.name, runErr)
	}
	// nsenter's own failures (entering the namespaces, executing the
	// command) are reported on stderr with its name.
	if code != 0 && strings.HasPrefix(stderr, "nsenter: ") {
		return stdout, stderr, code, fmt.Errorf("running %s in %s: %s", quoteArgs(args), m.name, strings.TrimSpace(stderr))
	}
	return stdout, stderr, code, nil
}

// requireAbs returns an error unless p is an absolute path.
func requireAbs(p string) error {
	if !filepath.IsAbs(p) {
		return fmt.Errorf("%q is not an absolute path", p)
	}
	return nil
}

// findInit waits until the container's PID 1 runs systemd and returns its
// PID on the host: the descendant of the nspawn process that is PID 1 of
// its own PID namespace and whose command is systemd.
func (m *Machine) findInit(deadline time.Time) (int, error) {
	for {
		for _, pid := range descendants(m.supervisor) {
			if isNamespaceInit(pid) && command(pid) == "systemd" {
				return pid, nil
			}
		}
		select {
		case <-m.exited:
			return 0, fmt.Errorf("systemd-nspawn exited (%v) before systemd started", m.waitErr)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("systemd did not start within %s", bootTimeout)
		}
	}
}

// waitRunning waits until systemd in the machine says it is running (or
// degraded: up, with failed units).
func (m *Machine) waitRunning(deadline time.Time) error {
	var last string // the last answer, for the error
	for {
		remaining := time.Until(deadline)
		if remaining <= 0 {
			return fmt.Errorf("systemd was not running within %s; systemctl is-system-running said:\n%s", bootTimeout, last)
		}
		// Before systemd's bus is up, systemctl fails or says "offline".
		stdout, stderr, _, err := m.run(nil, remaining, "systemctl", "is-system-running", "--wait")
		last = strings.TrimSpace(stdout + stderr)
		if err != nil {
			last += "\n" + err.Error()
		}
		switch state := strings.TrimSpace(stdout); state {
		case "running":
			return nil
		case "degraded":
			failed, _, _, _ := m.run(nil, runTimeout, "systemctl", "--failed", "--no-legend")
			m.logf("%s is degraded; failed units:\n%s", m.name, failed)
			return nil
		case "maintenance", "stopping":
			return fmt.Errorf("systemd is %s\n%s", state, stderr)
		}
		select {
		case <-m.exited:
			return fmt.Errorf("systemd-nspawn exited (%v) before systemd was running", m.waitErr)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// PowerOff powers the machine off, kills it if it does not stop in time,
// waits for nspawn and removes the machine's cgroups. It runs once; later
// calls return the first call's error. Its other methods must not be
// called afterwards; a machine booted from a Dir can be booted again, as
// a host is after a restart.
//
// systemd stops every unit, then replaces itself with systemd-shutdown,
// which kills what is left, unmounts and syncs. Its sync is of the whole
// host and takes up to 10 s when the host has much to write, so once
// systemd-shutdown runs, PowerOff kills the machine: what its user may
// look at has already stopped, and the overlay is thrown away anyway.
func (m *Machine) PowerOff() error {
	m.powerOffOnce.Do(func() {
		if m.pid == 0 { // Boot failed before systemd started
			m.nspawn.Process.Signal(syscall.SIGTERM) // nspawn stops the container
			if !m.waitExited(powerOffTimeout) {
				m.powerOffErr = m.kill()
			}
		} else {
			m.signalInit(sigPowerOff)
			if !m.waitShutdown(powerOffTimeout) {
				m.logf("%s did not power off within %s; killing it", m.name, powerOffTimeout)
			}
			m.signalInit(syscall.SIGKILL) // ends the container's PID namespace
			if !m.waitExited(killTimeout) {
				m.powerOffErr = m.kill()
			}
		}
		if m.pidfd >= 0 {
			unix.Close(m.pidfd)
		}
		if err := removeCgroups(m.cgroups); err != nil && m.powerOffErr == nil {
			m.powerOffErr = fmt.Errorf("removing the cgroups of %s: %v", m.name, err)
		}
		m.removeTmp()
	})
	return m.powerOffErr
}

// waitShutdown waits at most timeout until the machine's systemd has
// stopped every unit and handed over to systemd-shutdown, or nspawn has
// exited, and reports whether it did.
func (m *Machine) waitShutdown(timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for {
		// The kernel cuts command names to 15 bytes.
		if command(m.pid) == "systemd-shutdow" {
			return true
		}
		select {
		case <-m.exited:
			return true
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// waitExited waits at most timeout for nspawn to exit and reports whether
// it did.
func (m *Machine) waitExited(timeout time.Duration) bool {
	select {
	case <-m.exited:
		return true
	case <-time.After(timeout):
		return false
	}
}

// signalInit sends sig to the machine's PID 1, through a pidfd, so that a
// signal never reaches another process that got the PID after the machine
// ended.
func (m *Machine) signalInit(sig syscall.Signal) {
	if m.pidfd >= 0 {
		unix.PidfdSendSignal(m.pidfd, sig, nil, 0)
	} else if !m.waitExited(0) {
		syscall.Kill(m.pid, sig)
	}
}

// kill kills nspawn and every process below it, and waits (bounded) for
// nspawn to exit.
func (m *Machine) kill() error {
	if m.waitExited(0) {
		return nil
	}
	for _, pid := range append(descendants(m.supervisor), m.supervisor) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	if !m.waitExited(killTimeout) {
		return fmt.Errorf("systemd-nspawn of %s did not exit within %s of SIGKILL", m.name, killTimeout)
	}
	return nil
}

// Log returns the tail of nspawn's output.
func (m *Machine) Log() string {
	data, err := os.ReadFile(m.logPath)
	if err != nil {
		return err.Error()
	}
	return tail(data, 60)
}

// bindArgs turns binds into systemd-nspawn's --bind and --bind-ro
// arguments.
func bindArgs(binds []Bind) ([]string, error) {
	// nspawn splits the argument at colons; backslash escapes them.
	escape := strings.NewReplacer(`\`, `\\`, `:`, `\:`)
	var args []string
	for _, b := range binds {
		if !filepath.IsAbs(b.Host) || !filepath.IsAbs(b.Container) {
			return nil, fmt.Errorf("bind %q to %q: both paths must be absolute", b.Host, b.Container)
		}
		flag := "--bind="
		if b.ReadOnly {
			flag = "--bind-ro="
		}
		args = append(args, flag+escape.Replace(b.Host)+":"+escape.Replace(b.Container))
	}
	return args, nil
}

// randomHex returns n random bytes in hex.
func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// quoteArgs renders a command line for messages.
func quoteArgs(args []string) string {
	quoted := make([]string, len(args))
	for i, arg := range args {
		quoted[i] = arg
		if arg == "" || strings.ContainsAny(arg, " \t\n'\"\\$`") {
			quoted[i] = strconv.Quote(arg)
		}
	}
	return strings.Join(quoted, " ")
}

// Cgroups returns the directories of the machine's cgroups on the host,
// which PowerOff removes.
func (m *Machine) Cgroups() []string { return m.cgroups }
