package nspawntest

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Network is a network of the test's own, as a cloud provider gives its
// machines one: a network namespace that only the test made, holding a
// bridge with the network's first address (the gateway), to which Attach
// connects machines, each with an address of the network and a default
// route through the gateway. Nothing in the namespace leads out of it:
// the machines reach each other and the gateway, and the test reaches
// them from the namespace (Command, Listen), never from its own.
type Network struct {
	t       testing.TB
	prefix  netip.Prefix // the gateway's address and the network's length
	holder  *exec.Cmd    // the process that holds the namespace
	nsPath  string       // /proc/PID/ns/net of holder
	ifIndex int          // counts the machines attached, for veth names
	tag     string       // random, in the names of the veth pairs
}

// NewNetwork makes a network namespace with a bridge whose address is
// gateway, a prefix such as "10.88.0.1/24", and loopback up. It is held by
// a process that lives until the test ends (at most its deadline, as a
// machine); the namespace goes with it, and with it every veth end and
// socket in it. It needs unshare and ip (util-linux and iproute2), and
// skips t (fails it under CI) as Boot does where nspawn cannot run.
func NewNetwork(t testing.TB, gateway string) *Network {
	t.Helper()
	requireNspawn(t)
	if missing := missingTools("unshare", "ip"); len(missing) > 0 {
		unavailable(t, "a test network needs %v (packages util-linux and iproute2)", missing)
	}
	prefix, err := netip.ParsePrefix(gateway)
	if err != nil || !prefix.Addr().Is4() {
		t.Fatalf("nspawntest: network gateway %q: want an IPv4 address with a length, as 10.88.0.1/24", gateway)
	}
	n := &Network{t: t, prefix: prefix, tag: randomHex(3)}
	// unshare runs sleep in the new namespace, in its own process.
	n.holder = exec.Command("unshare", "--net", "--", "sleep", strconv.Itoa(int(lifetime(t).Seconds())))
	if err := n.holder.Start(); err != nil {
		t.Fatalf("nspawntest: starting the network's namespace: %v", err)
	}
	t.Cleanup(func() {
		n.holder.Process.Kill()
		n.holder.Wait()
	})
	n.nsPath = fmt.Sprintf("/proc/%d/ns/net", n.holder.Process.Pid)
	self, err := os.Readlink("/proc/self/ns/net")
	if err != nil {
		t.Fatalf("nspawntest: %v", err)
	}
	// unshare has made the namespace once the holder's link differs.
	for deadline := time.Now().Add(10 * time.Second); ; {
		if ns, err := os.Readlink(n.nsPath); err == nil && ns != self {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("nspawntest: unshare --net made no network namespace within 10s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	n.ip("link", "set", "lo", "up")
	n.ip("link", "add", "br0", "type", "bridge")
	n.ip("addr", "add", prefix.String(), "dev", "br0")
	n.ip("link", "set", "br0", "up")
	return n
}

// Gateway returns the bridge's address, where the test's servers listen.
func (n *Network) Gateway() string { return n.prefix.Addr().String() }

// NSPath returns the path of the network namespace, for setns or
// nsenter --net.
func (n *Network) NSPath() string { return n.nsPath }

// Attach connects the machine m to the network: a veth pair with one end
// in m called eth0, up, with address (an address of the network, such as
// "10.88.0.10") and a default route through the gateway, and the other on
// the bridge. This is what a cloud provider's network and DHCP give a VM:
// nothing in m's file system changes.
func (n *Network) Attach(m *Machine, address string) {
	n.t.Helper()
	addr, err := netip.ParseAddr(address)
	if err != nil || !n.prefix.Contains(addr) || addr == n.prefix.Addr() {
		n.t.Fatalf("nspawntest: attaching %s: %q is not a free address of the network %s", m.Name(), address, n.prefix.Masked())
	}
	n.ifIndex++
	outside := fmt.Sprintf("ngn%s%db", n.tag, n.ifIndex)
	inside := fmt.Sprintf("ngn%s%da", n.tag, n.ifIndex)
	run := func(args ...string) {
		n.t.Helper()
		if err := runBounded(time.Minute, "", nil, args[0], args[1:]...); err != nil {
			n.t.Fatalf("nspawntest: attaching %s to the network: %v", m.Name(), err)
		}
	}
	run("ip", "link", "add", inside, "type", "veth", "peer", "name", outside)
	// Gone with the namespaces; only an end not moved yet is left here.
	n.t.Cleanup(func() { exec.Command("ip", "link", "del", inside).Run() })
	run("ip", "link", "set", outside, "netns", strconv.Itoa(n.holder.Process.Pid))
	n.ip("link", "set", outside, "master", "br0", "up")
	run("ip", "link", "set", inside, "netns", strconv.Itoa(m.PID()))
	// The host's ip, in the machine's network namespace only: the machine
	// needs no iproute2 of its own.
	inM := []string{"nsenter", "-t", strconv.Itoa(m.PID()), "-n", "ip"}
	run(append(inM, "link", "set", inside, "name", "eth0")...)
	run(append(inM, "addr", "add", netip.PrefixFrom(addr, n.prefix.Bits()).String(), "dev", "eth0")...)
	run(append(inM, "link", "set", "eth0", "up")...)
	run(append(inM, "route", "add", "default", "via", n.Gateway())...)
}

// Command returns a command that runs name with args in the network's
// namespace (nsenter --net), and otherwise as the test process: its
// files, its environment. Its context is ctx.
func (n *Network) Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	return exec.CommandContext(ctx, "nsenter", append([]string{"--net=" + n.nsPath, "--", name}, args...)...)
}

// Listen listens on the TCP address addr (such as "10.88.0.1:80") in the
// network's namespace: the machines reach it, the test's own namespace
// does not. The listener is closed when the test ends.
func (n *Network) Listen(addr string) net.Listener {
	n.t.Helper()
	var ln net.Listener
	err := inNetNS(n.nsPath, func() error {
		var err error
		ln, err = net.Listen("tcp", addr)
		return err
	})
	if err != nil {
		n.t.Fatalf("nspawntest: listening on %s in the test network: %v", addr, err)
	}
	n.t.Cleanup(func() { ln.Close() })
	return ln
}

// ip runs ip with args in the network's namespace, and fails the test
// unless it succeeds.
func (n *Network) ip(args ...string) {
	n.t.Helper()
	if err := runBounded(time.Minute, "", nil, "nsenter", append([]string{"--net=" + n.nsPath, "--", "ip"}, args...)...); err != nil {
		n.t.Fatalf("nspawntest: in the test network: %v", err)
	}
}

// inNetNS calls fn on a thread that is in the network namespace at
// nsPath, and comes back: a socket stays in the namespace it was made in.
// A thread that cannot come back is not given back to the Go runtime.
func inNetNS(nsPath string, fn func() error) error {
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
