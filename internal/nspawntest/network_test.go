//go:build linux

package nspawntest

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/machine"
)

// greet answers every connection ln accepts with word and a newline.
func greet(ln net.Listener, word string) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		fmt.Fprintln(c, word)
		c.Close()
	}
}

// TestNetwork attaches two machines to a test network: each reaches a
// server of the test's on the gateway and the other machine, at their
// addresses; the namespace has the bridge, and the machines their
// addresses on eth0.
func TestNetwork(t *testing.T) {
	n := NewNetwork(t, "10.88.0.1/24")
	a := Boot(t, Options{})
	b := Boot(t, Options{})
	n.Attach(a, "10.88.0.10")
	n.Attach(b, "10.88.0.11")

	go greet(n.Listen("10.88.0.1:80"), "gateway")
	var inB net.Listener
	if err := machine.InNetNS(fmt.Sprintf("/proc/%d/ns/net", b.PID()), func() (err error) {
		inB, err = net.Listen("tcp", "10.88.0.11:7")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	defer inB.Close()
	go greet(inB, "machine b")

	for _, c := range []struct{ address, want string }{
		{"10.88.0.1/80", "gateway"},
		{"10.88.0.11/7", "machine b"},
	} {
		out := a.MustRun("timeout", "10", "bash", "-c", "exec 3<>/dev/tcp/"+c.address+" && cat <&3")
		if strings.TrimSpace(out) != c.want {
			t.Errorf("a machine read %q from %s, want %q", out, c.address, c.want)
		}
	}
	if out := a.MustRun("cat", "/sys/class/net/eth0/operstate"); strings.TrimSpace(out) != "up" {
		t.Errorf("eth0 of a is %q", out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := n.Command(ctx, "ip", "-br", "addr", "show", "br0").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "10.88.0.1/24") {
		t.Errorf("the network's bridge: %v\n%s", err, out)
	}
	if n.Gateway() != "10.88.0.1" {
		t.Errorf("Gateway() = %q", n.Gateway())
	}
}
