//go:build linux

package nspawntest

import (
	"context"
	"errors"
	"net"
	"os/exec"
	"testing"

	"github.com/nodegen/nodegen/internal/machine"
)

// Network is a network of the test's own, as a cloud provider gives its
// machines one (machine.Network), ended when the test ends. Its methods
// fail the test on errors.
type Network struct {
	n *machine.Network
	t testing.TB
}

// NewNetwork makes a network namespace with a bridge whose address is
// gateway, a prefix such as "10.88.0.1/24" (machine.NewNetwork), which
// lives until the test ends (at most its deadline, as a machine). It
// skips t (fails it under CI) as Boot does where nspawn cannot run or
// unshare and ip are missing.
func NewNetwork(t testing.TB, gateway string) *Network {
	t.Helper()
	requireNspawn(t)
	n, err := machine.NewNetwork(gateway, lifetime(t))
	var ue *machine.UnavailableError
	if errors.As(err, &ue) {
		unavailable(t, "%s", ue.Reason)
	}
	if err != nil {
		t.Fatalf("nspawntest: %v", err)
	}
	t.Cleanup(n.Close)
	return &Network{n: n, t: t}
}

// Gateway returns the bridge's address, where the test's servers listen.
func (n *Network) Gateway() string { return n.n.Gateway() }

// NSPath returns the path of the network namespace, for setns or
// nsenter --net.
func (n *Network) NSPath() string { return n.n.NSPath() }

// Attach connects the machine m to the network (machine.Network.Attach):
// eth0 in m with address and a default route through the gateway.
func (n *Network) Attach(m *Machine, address string) {
	n.t.Helper()
	if err := n.n.Attach(m.Machine, address); err != nil {
		n.t.Fatalf("nspawntest: %v", err)
	}
}

// Command returns a command that runs name with args in the network's
// namespace (nsenter --net), and otherwise as the test process: its
// files, its environment. Its context is ctx.
func (n *Network) Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	return n.n.Command(ctx, name, args...)
}

// Listen listens on the TCP address addr (such as "10.88.0.1:80") in the
// network's namespace: the machines reach it, the test's own namespace
// does not. The listener is closed when the test ends.
func (n *Network) Listen(addr string) net.Listener {
	n.t.Helper()
	ln, err := n.n.Listen(addr)
	if err != nil {
		n.t.Fatalf("nspawntest: %v", err)
	}
	n.t.Cleanup(func() { ln.Close() })
	return ln
}
