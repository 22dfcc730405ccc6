//go:build linux

package switchtest

import (
	"strings"
	"testing"

	"github.com/nodegen/nodegen/internal/nspawntest"
)

// stockSSH is a stock Debian root with Debian's openssh-server as
// installed: ssh.service enabled and running, the alias sshd.service, the
// package's sshd_config.
var stockSSH = nspawntest.Root{Packages: []string{"openssh-server", "sudo"}}

// TestLoginPathKept: a profile's sshd.service stands in for Debian's
// ssh.service; a switch to a profile without it, and deactivate, remove
// nodegen's unit and put the package's files back, and the package's
// ssh.service is started again: a remote host keeps a login path (issue
// 36, N13).
func TestLoginPathKept(t *testing.T) {
	bin := nspawntest.BuildStatic(t, "./cmd/nodegen")
	m := nspawntest.Boot(t, nspawntest.Options{Root: stockSSH})
	m.CopyFile(bin, "/usr/local/bin/nodegen", 0o755)
	if got := prop(t, m, "ssh.service", "ActiveState"); got != "active" {
		t.Fatalf("the stock machine's ssh.service is %s\n%s", got, m.Journal("ssh.service", 20))
	}
	withSSH := profileOf(t, m, "ssh", `config "services.openssh" { enable = true }`)
	without := profileOf(t, m, "plain", `config "environment.etc.motd" { text = "no sshd here\n" }`)

	sshdUp := func(when string) {
		t.Helper()
		if got := prop(t, m, "sshd.service", "ActiveState"); got != "active" {
			t.Fatalf("%s: sshd.service is %s\n%s", when, got, m.Journal("sshd.service", 20))
		}
	}
	packageSSHUp := func(when, out string) {
		t.Helper()
		if got := prop(t, m, "ssh.service", "ActiveState"); got != "active" {
			t.Errorf("%s: the package's ssh.service is %s: no sshd runs\n%s\n%s", when, got, out, m.Journal("ssh.service", 20))
		}
		if got := prop(t, m, "ssh.service", "FragmentPath"); got != "/lib/systemd/system/ssh.service" {
			t.Errorf("%s: ssh.service is loaded from %s, not the package's file", when, got)
		}
		if got := m.MustRun("sh", "-c", `ps -eo comm | grep -c '^sshd$' || true`); strings.TrimSpace(got) == "0" {
			t.Errorf("%s: no sshd process runs", when)
		}
		if !strings.Contains(out, "the system's own ssh.service (/lib/systemd/system/ssh.service, enabled) is started again") {
			t.Errorf("%s: the activation does not say it starts the package's ssh.service again:\n%s", when, out)
		}
	}

	mustNodegen(t, m, "switch", "--backup", withSSH)
	sshdUp("after the switch to services.openssh")
	out := mustNodegen(t, m, "switch", "--backup", without)
	packageSSHUp("after a switch to a profile without openssh", out)

	mustNodegen(t, m, "switch", "--backup", withSSH)
	sshdUp("after the switch back to services.openssh")
	out = mustNodegen(t, m, "deactivate")
	packageSSHUp("after deactivate", out)
}

// TestDeactivateStartsThePackagesUnitAgain: deactivate stops the
// profile's containerd.service, which took over the package's running
// one, and starts the package's again (its file and enable link are the
// system's own once nodegen's are gone).
func TestDeactivateStartsThePackagesUnitAgain(t *testing.T) {
	bin := nspawntest.BuildStatic(t, "./cmd/nodegen")
	m := nspawntest.Boot(t, nspawntest.Options{Root: stockContainerd, NoSeccomp: true, AllCapabilities: true})
	m.CopyFile(bin, "/usr/local/bin/nodegen", 0o755)
	if got := prop(t, m, "containerd.service", "ActiveState"); got != "active" {
		t.Fatalf("the stock machine's containerd.service is %s\n%s", got, m.Journal("containerd.service", 20))
	}
	p := profileOf(t, m, "containerd", containerdHost)
	mustNodegen(t, m, "switch", p)
	out := mustNodegen(t, m, "deactivate")
	if got := prop(t, m, "containerd.service", "ActiveState"); got != "active" {
		t.Errorf("after deactivate the package's containerd.service is %s\n%s\n%s", got, out, m.Journal("containerd.service", 20))
	}
	if got := prop(t, m, "containerd.service", "FragmentPath"); got != "/lib/systemd/system/containerd.service" {
		t.Errorf("containerd.service is loaded from %s after deactivate", got)
	}
	if !strings.Contains(out, "the system's own containerd.service (/lib/systemd/system/containerd.service, enabled) is started again") {
		t.Errorf("deactivate does not say it starts the package's containerd again:\n%s", out)
	}
}
