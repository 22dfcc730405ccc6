//go:build linux

package machine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// A machine or network outlives the process that made it: nothing stops
// it when its maker exits, only PowerOff (Close) or its lifetime. Another
// process takes it over with Adopt (AdoptNetwork) from the Handle
// (NetworkHandle) its maker saved, as `nodegen test --keep` does with the
// machines of an earlier run.

// ErrGone is what Adopt and AdoptNetwork return (wrapped) when the
// machine or network of a handle is no longer running: stopped, or its
// PID taken by another process.
var ErrGone = errors.New("no longer running")

// Handle identifies a running machine across processes: what Adopt
// needs to drive it and power it off. A PID is only taken for the same
// process when its start time (/proc/PID/stat) matches too.
type Handle struct {
	Name string `json:"name"`
	// PID and Start are the machine's systemd (PID 1 inside).
	PID   int    `json:"pid"`
	Start uint64 `json:"start"`
	// Supervisor and SupervisorStart are the process that runs
	// systemd-nspawn (timeout(1)); the machine is off once it has exited.
	Supervisor      int    `json:"supervisor"`
	SupervisorStart uint64 `json:"supervisor_start"`
	// Cgroups are removed at PowerOff.
	Cgroups []string `json:"cgroups"`
	// LogPath is nspawn's output.
	LogPath string `json:"log"`
}

// Handle returns what another process needs to adopt m. m must not be
// used by this process once another one has adopted it.
func (m *Machine) Handle() Handle {
	return Handle{
		Name:            m.name,
		PID:             m.pid,
		Start:           startTime(m.pid),
		Supervisor:      m.supervisor,
		SupervisorStart: startTime(m.supervisor),
		Cgroups:         m.cgroups,
		LogPath:         m.logPath,
	}
}

// Adopt takes over the running machine of h, made by Boot in another
// process: its methods work as on the machine Boot returned, and its
// PowerOff powers it off and removes its cgroups. It returns an error
// wrapping ErrGone when the machine has stopped. logf receives the
// machine's notes, as Options.Logf.
func Adopt(h Handle, logf func(format string, args ...any)) (*Machine, error) {
	if h.PID <= 0 || h.Supervisor <= 0 {
		return nil, fmt.Errorf("machine %s: %w (no PID recorded)", h.Name, ErrGone)
	}
	if !Running(h) {
		return nil, fmt.Errorf("machine %s: %w", h.Name, ErrGone)
	}
	supFD, err := unix.PidfdOpen(h.Supervisor, 0)
	if err != nil {
		return nil, fmt.Errorf("machine %s: %w (%v)", h.Name, ErrGone, err)
	}
	initFD, err := unix.PidfdOpen(h.PID, 0)
	if err != nil {
		unix.Close(supFD)
		return nil, fmt.Errorf("machine %s: %w (%v)", h.Name, ErrGone, err)
	}
	// The PIDs may have been reused between the check and the pidfds.
	if startTime(h.PID) != h.Start || startTime(h.Supervisor) != h.SupervisorStart {
		unix.Close(supFD)
		unix.Close(initFD)
		return nil, fmt.Errorf("machine %s: %w", h.Name, ErrGone)
	}
	m := &Machine{
		opts:       Options{Name: h.Name, Logf: logf},
		name:       h.Name,
		pid:        h.PID,
		pidfd:      initFD,
		cgroups:    h.Cgroups,
		supervisor: h.Supervisor,
		exited:     make(chan struct{}),
		logPath:    h.LogPath,
	}
	// Not this process's child: its exit is seen through its pidfd.
	go func() {
		defer unix.Close(supFD)
		fds := []unix.PollFd{{Fd: int32(supFD), Events: unix.POLLIN}}
		for {
			if _, err := unix.Poll(fds, -1); err != unix.EINTR {
				break
			}
		}
		m.waitErr = errors.New("exited (adopted machine)")
		close(m.exited)
	}()
	return m, nil
}

// Running reports whether the machine of h still runs: its systemd and
// its supervisor are the recorded processes.
func Running(h Handle) bool {
	return h.PID > 0 && h.Supervisor > 0 && startTime(h.PID) == h.Start &&
		startTime(h.Supervisor) == h.SupervisorStart && isNamespaceInit(h.PID)
}

// NetworkHandle identifies a running Network across processes.
type NetworkHandle struct {
	Gateway string `json:"gateway"`
	// Holder and Start are the process that holds the namespace.
	Holder int    `json:"holder"`
	Start  uint64 `json:"start"`
}

// Handle returns what another process needs to adopt n.
func (n *Network) Handle() NetworkHandle {
	return NetworkHandle{Gateway: n.prefix.String(), Holder: n.holderPID, Start: startTime(n.holderPID)}
}

// AdoptNetwork takes over the running network of h, made by NewNetwork
// in another process: Attach attaches more machines (a machine booted
// again) and Close ends it. It returns an error wrapping ErrGone when the
// network has ended.
func AdoptNetwork(h NetworkHandle) (*Network, error) {
	n := &Network{tag: randomHex(3), holderPID: h.Holder, holderFD: -1}
	var err error
	if n.prefix, err = parsePrefix(h.Gateway); err != nil {
		return nil, err
	}
	if h.Holder <= 0 || startTime(h.Holder) != h.Start {
		return nil, fmt.Errorf("machine network %s: %w", h.Gateway, ErrGone)
	}
	if n.holderFD, err = unix.PidfdOpen(h.Holder, 0); err != nil {
		return nil, fmt.Errorf("machine network %s: %w (%v)", h.Gateway, ErrGone, err)
	}
	if startTime(h.Holder) != h.Start {
		n.Close()
		return nil, fmt.Errorf("machine network %s: %w", h.Gateway, ErrGone)
	}
	n.nsPath = fmt.Sprintf("/proc/%d/ns/net", h.Holder)
	return n, nil
}

// Stop ends what is left of the machine of h when it cannot be adopted
// whole (a machine whose systemd is gone but whose nspawn is not): it
// kills the supervisor and what runs below it, if they are still the
// recorded processes, and removes the cgroups.
func Stop(h Handle) error {
	if m, err := Adopt(h, nil); err == nil {
		return m.PowerOff()
	}
	if h.Supervisor > 0 && startTime(h.Supervisor) == h.SupervisorStart {
		for _, pid := range append(descendants(h.Supervisor), h.Supervisor) {
			unix.Kill(pid, unix.SIGKILL)
		}
		for deadline := time.Now().Add(killTimeout); startTime(h.Supervisor) == h.SupervisorStart; {
			if time.Now().After(deadline) {
				return fmt.Errorf("the systemd-nspawn of %s did not exit within %s of SIGKILL", h.Name, killTimeout)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return removeCgroups(h.Cgroups)
}

// startTime returns the start time of pid (clock ticks after boot, the
// 22nd field of /proc/PID/stat), or 0 when there is no such process. A
// zombie (exited, not yet reaped) counts as none.
func startTime(pid int) uint64 {
	if pid <= 0 {
		return 0
	}
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0
	}
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 {
		return 0
	}
	// After "PID (COMMAND)": state is field 3, starttime field 22.
	fields := strings.Fields(string(data[i+1:]))
	if len(fields) < 20 || fields[0] == "Z" || fields[0] == "X" {
		return 0
	}
	v, _ := strconv.ParseUint(fields[19], 10, 64)
	return v
}
