//go:build linux

package switchtest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/nspawntest"
)

// stockServices is a stock Debian root with the Debian packages of the
// library's services installed as a cloud image or an admin's apt-get
// install leaves them: their units enabled and started at boot, their
// conffiles (dpkg's and ucf's) in /etc. The switch takes them over. curl,
// dig and ip are the tests' clients.
var stockServices = nspawntest.Root{Packages: []string{
	"openssh-server", "nginx", "chrony", "prometheus", "prometheus-node-exporter",
	"unbound", "unbound-anchor", "nftables", "ca-certificates",
	"curl", "bind9-dnsutils", "iproute2",
}}

// serviceCase is one library service switched on a stock machine: host
// is the host file (%[1]s in it is what setup returned), check proves
// the service works.
type serviceCase struct {
	name string
	// opts are the machine's boot options besides its root.
	opts nspawntest.Options
	// setup prepares the machine before the host is evaluated (a key
	// pair the host authorizes) and returns text for the host.
	setup func(t *testing.T, m *nspawntest.Machine) string
	host  string
	// check proves the service answers.
	check func(t *testing.T, m *nspawntest.Machine)
}

// TestLibraryServices switches a host enabling one service of the
// library on a booted stock Debian machine with the service's package
// installed (and running, as the package left it), and checks that the
// service answers as its options say.
func TestLibraryServices(t *testing.T) {
	for _, tc := range serviceCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.opts
			opts.Root = stockServices
			bin := nspawntest.BuildStatic(t, "./cmd/nodegen")
			m := nspawntest.Boot(t, opts)
			m.CopyFile(bin, "/usr/local/bin/nodegen", 0o755)
			extra := ""
			if tc.setup != nil {
				extra = tc.setup(t, m)
			}
			host := tc.host
			if strings.Contains(host, "%[1]s") {
				host = fmt.Sprintf(host, extra)
			}
			p := profileOf(t, m, tc.name, host)
			start := time.Now()
			mustNodegen(t, m, "switch", p)
			t.Logf("switch: %s", time.Since(start).Round(time.Millisecond))
			tc.check(t, m)
		})
	}
}

// waitOutput runs the command in m until it exits 0 and its output contains
// want, for at most timeout; it returns the last output.
func waitOutput(t *testing.T, m *nspawntest.Machine, timeout time.Duration, want string, args ...string) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		stdout, stderr, code, err := m.Run(args...)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if code == 0 && strings.Contains(stdout, want) {
			return stdout
		}
		if time.Now().After(deadline) {
			t.Fatalf("%q did not succeed with %q in its output within %s: exit %d\nstdout:\n%s\nstderr:\n%s", args, want, timeout, code, stdout, stderr)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// active fails t unless unit is active in m, with its journal.
func active(t *testing.T, m *nspawntest.Machine, unit string) {
	t.Helper()
	if st := prop(t, m, unit, "ActiveState"); st != "active" {
		t.Fatalf("%s is %s after the switch\n%s", unit, st, m.Journal(unit, 30))
	}
}

// hclString quotes s as an HCL string.
func hclString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "${", "$${", "%{", "%%{").Replace(s) + `"`
}

func serviceCases(t *testing.T) []serviceCase {
	return []serviceCase{
		{
			name: "sshd",
			setup: func(t *testing.T, m *nspawntest.Machine) string {
				m.MustRun("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", "/root/login")
				return strings.TrimSpace(m.MustRun("cat", "/root/login.pub"))
			},
			host: `
config "services.openssh" {
  enable   = true
  settings = { PasswordAuthentication = false }
}
config "users.users.root.openssh.authorizedKeys" { keys = ["%[1]s"] }
`,
			check: func(t *testing.T, m *nspawntest.Machine) {
				active(t, m, "sshd.service")
				out := waitOutput(t, m, 10*time.Second, "logged in as root",
					"ssh", "-i", "/root/login", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
					"-o", "UserKnownHostsFile=/dev/null", "root@127.0.0.1", "echo logged in as $(id -un)")
				t.Logf("ssh: %s", out)
				// Without the key there is no login, and sshd offers no
				// password (PasswordAuthentication = false).
				_, stderr, code, _ := m.Run("ssh", "-o", "BatchMode=yes", "-o", "PubkeyAuthentication=no",
					"-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "root@127.0.0.1", "true")
				if code == 0 || !strings.Contains(stderr, "Permission denied (publickey") || strings.Contains(stderr, "password") {
					t.Errorf("a login without the key: exit %d, %s", code, stderr)
				}
			},
		},
		{
			name: "nginx",
			setup: func(t *testing.T, m *nspawntest.Machine) string {
				// The certificate is made where it is used, as an
				// admin would with openssl (ca-certificates depends on it).
				m.MustRun("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
					"-nodes", "-subj", "/CN=site.test", "-addext", "subjectAltName=DNS:site.test",
					"-days", "1", "-keyout", "/root/site.key", "-out", "/root/site.crt")
				cert, key := m.MustRun("cat", "/root/site.crt"), m.MustRun("cat", "/root/site.key")
				return fmt.Sprintf(`
config "environment.etc.\"certs/site.crt\"" { text = %s }
config "environment.etc.\"certs/site.key\"" {
  text = %s
  mode = "0400"
  user = "nginx"
}
`, hclString(cert), hclString(key))
			},
			host: `
%[1]s
config "environment.etc.\"site/index.html\"" { text = "hello from the site\n" }
config "services.nginx" {
  enable = true
  virtualHosts = {
    site = {
      serverName        = "site.test"
      forceSSL          = true
      sslCertificate    = "/etc/certs/site.crt"
      sslCertificateKey = "/etc/certs/site.key"
      root              = "/etc/site"
    }
  }
}
`,
			check: func(t *testing.T, m *nspawntest.Machine) {
				active(t, m, "nginx.service")
				// Plain HTTP is redirected to HTTPS (forceSSL).
				head := waitOutput(t, m, 10*time.Second, "301",
					"curl", "-sS", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}",
					"--resolve", "site.test:80:127.0.0.1", "http://site.test/index.html")
				if !strings.Contains(head, "https://site.test/index.html") {
					t.Errorf("the redirect: %s", head)
				}
				body := waitOutput(t, m, 10*time.Second, "hello from the site",
					"curl", "-sS", "--cacert", "/etc/certs/site.crt",
					"--resolve", "site.test:443:127.0.0.1", "https://site.test/index.html")
				t.Logf("https: %s", body)
			},
		},
		{
			name: "chrony",
			host: `
config "services.chrony" {
  enable     = true
  servers    = []
  extraFlags = ["-x"]
}
`,
			check: func(t *testing.T, m *nspawntest.Machine) {
				active(t, m, "chronyd.service")
				out := waitOutput(t, m, 10*time.Second, "Reference ID", "chronyc", "tracking")
				t.Logf("chronyc tracking:\n%s", out)
			},
		},
		{
			name: "prometheus",
			host: `
config "services.prometheus.exporters.node" { enable = true }
config "services.prometheus" {
  enable       = true
  globalConfig = { scrape_interval = "1s" }
  scrapeConfigs = [{
    job_name       = "node"
    static_configs = [{ targets = ["127.0.0.1:9100"] }]
  }]
}
`,
			check: func(t *testing.T, m *nspawntest.Machine) {
				active(t, m, "prometheus.service")
				active(t, m, "prometheus-node-exporter.service")
				out := waitOutput(t, m, 30*time.Second, `"health":"up"`,
					"curl", "-fsS", "http://127.0.0.1:9090/api/v1/targets")
				if !strings.Contains(out, `"job":"node"`) {
					t.Errorf("the targets: %s", out)
				}
				waitOutput(t, m, 30*time.Second, "node_load1",
					"curl", "-fsS", "http://127.0.0.1:9090/api/v1/query?query=node_load1")
			},
		},
		{
			name: "unbound",
			host: `
config "services.unbound" {
  enable = true
  settings = {
    server = {
      local-zone = ["test. static"]
      local-data = ["\"answer.test. A 192.0.2.7\""]
    }
  }
}
`,
			check: func(t *testing.T, m *nspawntest.Machine) {
				active(t, m, "unbound.service")
				waitOutput(t, m, 10*time.Second, "192.0.2.7", "dig", "+short", "@127.0.0.1", "answer.test")
			},
		},
		{
			name: "users-tmpfiles",
			host: `
config "users.users.alice" {
  isNormalUser = true
  uid          = 1001
  home         = "/home/alice"
}
config "users.groups.web" {}
config "systemd.tmpfiles" {
  rules = [
    "d /var/lib/demo 0750 alice web - -",
    "f /var/lib/demo/note 0640 alice web - hello",
  ]
}
`,
			check: func(t *testing.T, m *nspawntest.Machine) {
				if got := m.MustRun("id", "-un", "alice"); got != "alice\n" {
					t.Errorf("id alice: %q", got)
				}
				got := m.MustRun("stat", "-c", "%n %a %U %G", "/var/lib/demo", "/var/lib/demo/note")
				want := "/var/lib/demo 750 alice web\n/var/lib/demo/note 640 alice web\n"
				if got != want {
					t.Errorf("the tmpfiles:\n%s\nwant:\n%s", got, want)
				}
				if got := m.MustRun("cat", "/var/lib/demo/note"); got != "hello" {
					t.Errorf("/var/lib/demo/note holds %q", got)
				}
			},
		},
	}
}
