// Package cfssltest runs the real cfssl of Debian's golang-cfssl package
// (cfssl 1.2.0) for tests: the tests of package pki, and those of the
// fixtures that bring up the library's CA (fixtures/kubernetes_pki_test.go).
package cfssltest

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/nodegen/nodegen/internal/suitereport"
)

// Bin is the path of cfssl. Without it the test is skipped, or fails when
// the environment variable CI is set (.ci/run installs golang-cfssl).
func Bin(t *testing.T) string {
	t.Helper()
	return suitereport.Program(t, "cfssl serve as the CA (pki, fixtures)", "cfssl", "Debian's golang-cfssl")
}

// Gen runs a cfssl command that prints a certificate and its key as JSON
// (genkey -initca, gencert) and writes them as cfssljson -bare does:
// PREFIX.pem and PREFIX-key.pem (mode 0600).
func Gen(t *testing.T, bin, prefix string, args ...string) {
	t.Helper()
	out, err := exec.Command(bin, args...).Output()
	if err != nil {
		t.Fatalf("cfssl %s: %v", strings.Join(args, " "), err)
	}
	var res struct{ Cert, Key string }
	if err := json.Unmarshal(out, &res); err != nil || res.Cert == "" || res.Key == "" {
		t.Fatalf("cfssl %s printed no certificate and key: %s", strings.Join(args, " "), out)
	}
	if err := os.WriteFile(prefix+".pem", []byte(res.Cert), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(prefix+"-key.pem", []byte(res.Key), 0o600); err != nil {
		t.Fatal(err)
	}
}

// FreePort is a TCP port of 127.0.0.1 that nothing listened on a moment
// ago.
func FreePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Serve starts "cfssl serve" with args (after "serve") and env added to
// the test's environment, and stops it when the test ends; a test that
// failed logs what cfssl printed. It does not wait for cfssl to answer.
func Serve(t *testing.T, bin string, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("cfssl serve %s:\n%s", strings.Join(args, " "), log.String())
		}
	})
}
