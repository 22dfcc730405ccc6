//go:build linux

package machine

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Network is a private network, as a cloud provider gives its machines
// one: a network namespace that only its maker made, holding a bridge
// with the network's first address (the gateway), to which Attach
// connects machines, each with an address of the network and a default
// route through the gateway. Nothing in the namespace leads out of it:
// the machines reach each other and the gateway, and its maker reaches
// them from the namespace (Command, Listen), never from its own.
type Network struct {
	prefix    netip.Prefix // the gateway's address and the network's length
	holder    *exec.Cmd    // the process that holds the namespace, or nil when adopted
	holderPID int          // its PID
	holderFD  int          // a pidfd of an adopted holder, or -1
	nsPath    string       // /proc/PID/ns/net of holder
	ifIndex   int          // counts the machines attached, for veth names
	tag       string       // random, in the names of the veth pairs
	veths     []string     // the machines' ends, deleted by Close if left here
}

// NewNetwork makes a network namespace with a bridge whose address is
// gateway, a prefix such as "10.88.0.1/24", and loopback up. It is held by
// a process that lives until Close or for lifetime at most; the namespace
// goes with it, and with it every veth end and socket in it. It needs
// unshare and ip (util-linux and iproute2); without them, or where nspawn
// cannot run, it returns an *UnavailableError.
func NewNetwork(gateway string, lifetime time.Duration) (*Network, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	if missing := MissingTools("unshare", "ip"); len(missing) > 0 {
		return nil, &UnavailableError{fmt.Sprintf("a machine network needs %v (packages util-linux and iproute2)", missing)}
	}
	prefix, err := parsePrefix(gateway)
	if err != nil {
		return nil, err
	}
	if lifetime <= 0 {
		lifetime = defaultLifetime
	}
	n := &Network{prefix: prefix, tag: randomHex(3), holderFD: -1}
	// unshare runs sleep in the new namespace, in its own process, in a
	// process group of its own: a Ctrl-C at the terminal is its maker's
	// to handle (a kept network outlives its maker).
	n.holder = exec.Command("unshare", "--net", "--", "sleep", strconv.Itoa(int(lifetime.Seconds())))
	n.holder.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := n.holder.Start(); err != nil {
		return nil, fmt.Errorf("starting the network's namespace: %v", err)
	}
	n.holderPID = n.holder.Process.Pid
	n.nsPath = fmt.Sprintf("/proc/%d/ns/net", n.holderPID)
	self, err := os.Readlink("/proc/self/ns/net")
	if err != nil {
		n.Close()
		return nil, err
	}
	// unshare has made the namespace once the holder's link differs.
	for deadline := time.Now().Add(10 * time.Second); ; {
		if ns, err := os.Readlink(n.nsPath); err == nil && ns != self {
			break
		}
		if time.Now().After(deadline) {
			n.Close()
			return nil, fmt.Errorf("unshare --net made no network namespace within 10s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, args := range [][]string{
		{"link", "set", "lo", "up"},
		{"link", "add", "br0", "type", "bridge"},
		{"addr", "add", prefix.String(), "dev", "br0"},
		{"link", "set", "br0", "up"},
	} {
		if err := n.ip(args...); err != nil {
			n.Close()
			return nil, err
		}
	}
	return n, nil
}

// parsePrefix parses a network's gateway, as "10.88.0.1/24".
func parsePrefix(gateway string) (netip.Prefix, error) {
	prefix, err := netip.ParsePrefix(gateway)
	if err != nil || !prefix.Addr().Is4() {
		return netip.Prefix{}, fmt.Errorf("network gateway %q: want an IPv4 address with a length, as 10.88.0.1/24", gateway)
	}
	return prefix, nil
}

// Close ends the network: its namespace, with the bridge and the
// machines' veth pairs.
func (n *Network) Close() {
	if n.holder != nil {
		n.holder.Process.Kill()
		n.holder.Wait()
	} else if n.holderFD >= 0 {
		unix.PidfdSendSignal(n.holderFD, unix.SIGKILL, nil, 0)
		unix.Close(n.holderFD)
		n.holderFD = -1
	}
	for _, v := range n.veths {
		// Gone with the namespaces; only an end not moved yet is left here.
		exec.Command("ip", "link", "del", v).Run()
	}
}

// Gateway returns the bridge's address.
func (n *Network) Gateway() string { return n.prefix.Addr().String() }

// NSPath returns the path of the network namespace, for setns or
// nsenter --net.
func (n *Network) NSPath() string { return n.nsPath }

// Attach connects the machine m to the network: a veth pair with one end
// in m called eth0, up, with address (an address of the network, such as
// "10.88.0.10") and a default route through the gateway, and the other on
// the bridge. This is what a cloud provider's network and DHCP give a VM:
// nothing in m's file system changes.
func (n *Network) Attach(m *Machine, address string) error {
	addr, err := netip.ParseAddr(address)
	if err != nil || !n.prefix.Contains(addr) || addr == n.prefix.Addr() {
		return fmt.Errorf("attaching %s: %q is not a free address of the network %s", m.Name(), address, n.prefix.Masked())
	}
	n.ifIndex++
	outside := fmt.Sprintf("ngn%s%db", n.tag, n.ifIndex)
	inside := fmt.Sprintf("ngn%s%da", n.tag, n.ifIndex)
	run := func(args ...string) error {
		if err := RunBounded(time.Minute, "", nil, args[0], args[1:]...); err != nil {
			return fmt.Errorf("attaching %s to the network: %v", m.Name(), err)
		}
		return nil
	}
	if err := run("ip", "link", "add", inside, "type", "veth", "peer", "name", outside); err != nil {
		return err
	}
	n.veths = append(n.veths, inside)
	if err := run("ip", "link", "set", outside, "netns", strconv.Itoa(n.holderPID)); err != nil {
		return err
	}
	if err := n.ip("link", "set", outside, "master", "br0", "up"); err != nil {
		return err
	}
	if err := run("ip", "link", "set", inside, "netns", strconv.Itoa(m.PID())); err != nil {
		return err
	}
	// The host's ip, in the machine's network namespace only: the machine
	// needs no iproute2 of its own.
	inM := []string{"nsenter", "-t", strconv.Itoa(m.PID()), "-n", "ip"}
	for _, args := range [][]string{
		{"link", "set", inside, "name", "eth0"},
		{"addr", "add", netip.PrefixFrom(addr, n.prefix.Bits()).String(), "dev", "eth0"},
		{"link", "set", "eth0", "up"},
		{"route", "add", "default", "via", n.Gateway()},
	} {
		if err := run(append(inM, args...)...); err != nil {
			return err
		}
	}
	return nil
}

// Command returns a command that runs name with args in the network's
// namespace (nsenter --net), and otherwise as the test process: its
// files, its environment. Its context is ctx.
func (n *Network) Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	return exec.CommandContext(ctx, "nsenter", append([]string{"--net=" + n.nsPath, "--", name}, args...)...)
}

// Listen listens on the TCP address addr (such as "10.88.0.1:80") in the
// network's namespace: the machines reach it, its maker's own namespace
// does not.
func (n *Network) Listen(addr string) (net.Listener, error) {
	var ln net.Listener
	err := InNetNS(n.nsPath, func() error {
		var err error
		ln, err = net.Listen("tcp", addr)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("listening on %s in the machine network: %v", addr, err)
	}
	return ln, nil
}

// ip runs ip with args in the network's namespace.
func (n *Network) ip(args ...string) error {
	if err := RunBounded(time.Minute, "", nil, "nsenter", append([]string{"--net=" + n.nsPath, "--", "ip"}, args...)...); err != nil {
		return fmt.Errorf("in the machine network: %v", err)
	}
	return nil
}

// InNetNS calls fn on a thread that is in the network namespace at
// nsPath, and comes back: a socket stays in the namespace it was made in.
// A thread that cannot come back is not given back to the Go runtime.
func InNetNS(nsPath string, fn func() error) error {
	runtime.LockOSThread()
	self, err := os.Open("/proc/thread-self/ns/net")
	if err != nil {
		runtime.UnlockOSThread()
		return err
	}
	defer self.Close()
	target, err := os.Open(nsPath)
	if err != nil {
		runtime.UnlockOSThread()
		return err
	}
	defer target.Close()
	if err := unix.Setns(int(target.Fd()), unix.CLONE_NEWNET); err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("entering the network namespace %s: %w", nsPath, err)
	}
	fnErr := fn()
	if err := unix.Setns(int(self.Fd()), unix.CLONE_NEWNET); err != nil {
		// This thread stays locked and ends with its goroutine.
		return fmt.Errorf("leaving the network namespace %s: %w (and %v)", nsPath, err, fnErr)
	}
	runtime.UnlockOSThread()
	return fnErr
}
