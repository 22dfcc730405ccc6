//go:build linux

package nspawntest

import (
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"

	"github.com/nodegen/nodegen/internal/machine"
)

// Forward makes the TCP port port of the machine's loopback reachable
// from the test process: it listens on 127.0.0.1 on a free port of the
// test's own network namespace, and connects every connection accepted
// there to 127.0.0.1:port inside the machine's network namespace (a
// machine has a private network with only loopback). It returns the
// address it listens on, "127.0.0.1:PORT". The listener is closed, and
// the connections through it cut, when the test ends.
func (m *Machine) Forward(port int) string {
	m.t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		m.t.Fatalf("nspawntest: forwarding to %s: %v", m.Name(), err)
	}
	var (
		mu    sync.Mutex
		conns []net.Conn
		done  bool
	)
	track := func(c net.Conn) bool {
		mu.Lock()
		defer mu.Unlock()
		if done {
			c.Close()
			return false
		}
		conns = append(conns, c)
		return true
	}
	m.t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		done = true
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	})
	target := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if !track(c) {
				return
			}
			go func() {
				defer c.Close()
				up, err := m.dialInside(target)
				if err != nil {
					return // the client sees the connection closed, as refused
				}
				if !track(up) {
					return
				}
				defer up.Close()
				go func() {
					io.Copy(up, c)
					if tc, ok := up.(*net.TCPConn); ok {
						tc.CloseWrite()
					}
				}()
				io.Copy(c, up)
			}()
		}
	}()
	return ln.Addr().String()
}

// dialInside connects to the TCP address addr from inside the machine's
// network namespace.
func (m *Machine) dialInside(addr string) (net.Conn, error) {
	var conn net.Conn
	err := machine.InNetNS(fmt.Sprintf("/proc/%d/ns/net", m.PID()), func() error {
		var err error
		conn, err = net.Dial("tcp", addr)
		return err
	})
	if err != nil && conn != nil { // dialled, but the thread could not come back
		conn.Close()
		return nil, err
	}
	return conn, err
}
