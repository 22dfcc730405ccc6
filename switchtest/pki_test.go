//go:build linux

package switchtest

import (
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/cfssltest"
	"github.com/nodegen/nodegen/internal/nspawntest"
)

// kubeCertsHost is a host with easyCerts and one certificate of its own,
// whose CA answers on the machine's loopback; cfssl-online.service (a
// curl loop, and the machine has no curl) is left out.
const kubeCertsHost = `
config "networking" { hostName = "e2e" }
config "services.kubernetes" {
  masterAddress = "127.0.0.1"
  easyCerts     = true
}
config "services.kubernetes.pki.certs.e2e" {
  CN              = "e2e"
  hosts           = ["e2e", "127.0.0.1"]
  fields          = { O = "nodegen" }
  privateKeyOwner = "root"
  action          = "touch /run/e2e-restarted"
}
config "systemd.services.cfssl-online" { enable = false }
`

// TestKubeCertsService switches a host with easyCerts on a real systemd,
// with the real cfssl (Debian's golang-cfssl) as its CA in the machine:
// the switch starts kube-certs.service, which runs the machine's nodegen
// pki fetch and fails (the switch says so) until the API token is there,
// then fetches the CA on bootstrap and writes the certificate and key; a
// second run keeps them; with the CA stopped the unit fails and systemd
// restarts it until the CA is back.
func TestKubeCertsService(t *testing.T) {
	cfssl := cfssltest.Bin(t)
	m := machine(t)

	// cfssl and the one library it links besides the C library.
	m.CopyFile(cfssl, "/usr/bin/cfssl", 0o755)
	ldd, err := exec.Command("ldd", cfssl).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, lib := range regexp.MustCompile(`=> (\S*libsqlite3\S*)`).FindAllStringSubmatch(string(ldd), -1) {
		real, err := filepath.EvalSymlinks(lib[1])
		if err != nil {
			t.Fatal(err)
		}
		m.CopyFile(real, lib[1], 0o644)
	}

	// The CA, made on this host as cfssl.service's preStart makes it.
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cfssltest.Gen(t, cfssl, filepath.Join(dir, "ca"), "genkey", "-initca", write("ca-csr.json", `{"key": {"algo": "rsa", "size": 2048}, "names": [{"O": "e2e CA"}]}`))
	cfssltest.Gen(t, cfssl, filepath.Join(dir, "cfssl"), "gencert", "-ca", filepath.Join(dir, "ca.pem"), "-ca-key", filepath.Join(dir, "ca-key.pem"),
		write("cfssl-csr.json", `{"key": {"algo": "rsa", "size": 2048}, "CN": "127.0.0.1", "hosts": ["127.0.0.1"]}`))
	write("config.json", `{"signing": {"profiles": {"default": {"usages": ["digital signature"], "auth_key": "default", "expiry": "720h"}}},
 "auth_keys": {"default": {"type": "standard", "key": "env:CFSSL_API_TOKEN"}}}`)
	for _, f := range []string{"ca.pem", "ca-key.pem", "cfssl.pem", "cfssl-key.pem", "config.json"} {
		m.CopyFile(filepath.Join(dir, f), "/var/lib/cfssl/"+f, 0o600)
	}
	token := hex.EncodeToString([]byte("0123456789abcdef"))
	startCA := func() {
		t.Helper()
		m.MustRun("systemd-run", "--unit=test-cfssl", "--setenv=CFSSL_API_TOKEN="+token,
			"/usr/bin/cfssl", "serve", "-address=127.0.0.1", "-port=8888",
			"-ca=/var/lib/cfssl/ca.pem", "-ca-key=/var/lib/cfssl/ca-key.pem", "-config=/var/lib/cfssl/config.json",
			"-tls-cert=/var/lib/cfssl/cfssl.pem", "-tls-key=/var/lib/cfssl/cfssl-key.pem")
	}
	startCA()
	waitFor(t, m, "cfssl to listen", func() bool {
		return strings.Contains(m.Journal("test-cfssl.service", 50), "Now listening on https://127.0.0.1:8888")
	})

	// Without the API token, the unit fails and is restarted; the switch,
	// which waits for it to come up until its job timeout, reports it.
	out, code := nodegen(t, m, "switch", "--timeout", "15s", profileOf(t, m, "certs", kubeCertsHost))
	if code != 1 || !strings.Contains(out, "unit kube-certs.service failed") || !strings.Contains(out, "the API token file /var/lib/kubernetes/secrets/apitoken.secret does not exist") {
		t.Errorf("switch without the token: exit %d, want 1 with kube-certs.service's error", code)
	}
	m.WriteFile("/var/lib/kubernetes/secrets/apitoken.secret", []byte(token+"\n"), 0o600)
	waitFor(t, m, "kube-certs.service to succeed once the token is there", func() bool {
		return prop(t, m, "kube-certs.service", "ActiveState") == "inactive" && prop(t, m, "kube-certs.service", "Result") == "success"
	})
	j := m.Journal("kube-certs.service", 300) // every attempt since the switch
	if !strings.Contains(j, "nodegen pki: e2e: fetched the CA certificate from https://127.0.0.1:8888 into /var/lib/kubernetes/secrets/ca.pem (trust on bootstrap); no certificate yet, and a new one could not be issued: the API token file") ||
		!strings.Contains(j, "e2e: issued a new certificate (no certificate yet)") ||
		strings.Count(j, "running touch /run/e2e-restarted") != 1 {
		t.Errorf("kube-certs.service's journal: want the CA fetched, the token missing, then the certificate issued and the action run once:\n%s", j)
	}
	if got := m.MustRun("stat", "-c", "%a %U %n", "/var/lib/kubernetes/secrets/e2e-key.pem", "/var/lib/kubernetes/secrets/e2e.pem", "/run/e2e-restarted"); got != "600 root /var/lib/kubernetes/secrets/e2e-key.pem\n644 root /var/lib/kubernetes/secrets/e2e.pem\n644 root /run/e2e-restarted\n" {
		t.Errorf("files:\n%s", got)
	}
	if st := prop(t, m, "kube-certs.timer", "ActiveState"); st != "active" {
		t.Errorf("kube-certs.timer is %s", st)
	}

	// The timer's next run keeps the certificate and runs no action.
	m.MustRun("rm", "/run/e2e-restarted")
	m.MustRun("systemctl", "start", "kube-certs.service")
	if j := m.Journal("kube-certs.service", 5); !strings.Contains(j, "e2e: up to date (renews after ") {
		t.Errorf("second run's journal:\n%s", j)
	}
	if _, _, code, _ := m.Run("test", "-e", "/run/e2e-restarted"); code == 0 {
		t.Error("the second run ran the action")
	}

	// Without its CA the unit fails, and systemd tries again until the CA
	// is back.
	m.MustRun("systemctl", "stop", "test-cfssl.service")
	m.MustRun("rm", "/var/lib/kubernetes/secrets/e2e.pem")
	m.MustRun("systemctl", "start", "--no-block", "kube-certs.service")
	waitFor(t, m, "kube-certs.service to be restarted", func() bool {
		n := prop(t, m, "kube-certs.service", "NRestarts")
		return n != "" && n != "0"
	})
	if j := m.Journal("kube-certs.service", 20); !strings.Contains(j, "e2e: no certificate yet, and a new one could not be issued: cannot reach the CA: https://127.0.0.1:8888/api/v1/cfssl/authsign") {
		t.Errorf("journal without the CA:\n%s", j)
	}
	startCA()
	waitFor(t, m, "the certificate to come back", func() bool {
		_, _, code, _ := m.Run("test", "-s", "/var/lib/kubernetes/secrets/e2e.pem")
		return code == 0
	})
	waitFor(t, m, "kube-certs.service to succeed", func() bool {
		return prop(t, m, "kube-certs.service", "ActiveState") == "inactive" && prop(t, m, "kube-certs.service", "Result") == "success"
	})
}

// waitFor polls cond for up to a minute; kube-certs.service's journal is
// logged when it times out.
func waitFor(t *testing.T, m *nspawntest.Machine, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s timed out; kube-certs.service's journal:\n%s", what, m.Journal("kube-certs.service", 30))
		}
	}
}
