//go:build linux

package switchtest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/internal/nspawntest"
)

// stockContainerd is a stock Debian root with Debian's containerd package
// as installed: its /etc/containerd/config.toml (a dpkg conffile), its
// enable link in multi-user.target.wants, debootstrap's /etc/hostname and
// /etc/hosts; nothing removed or edited.
var stockContainerd = nspawntest.Root{Packages: []string{"containerd"}}

// containerdHost sets the host name and writes containerd's configuration,
// and enables containerd itself, as a node's profile does.
const containerdHost = `
config "networking" { hostName = "stock1" }
config "environment.etc.\"containerd/config.toml\"" {
  text = "version = 2\nroot = \"/var/lib/containerd\"\n"
}
config "systemd.services.containerd" {
  description = "containerd container runtime"
  wantedBy    = ["multi-user.target"]
  serviceConfig = {
    ExecStart = "/usr/bin/containerd"
    Type      = "notify"
    Delegate  = "yes"
    KillMode  = "process"
  }
}
`

// TestFirstSwitchOnAStockMachine: the first switch onto a stock Debian
// machine takes over the files its installer and packages put there
// unmodified (/etc/hostname, containerd's conffile, the package's enable
// link of the unit the profile enables too) without --backup, naming each
// in its plan; deactivate puts every one back byte for byte. A conffile an
// admin edited still stops the switch, and the refusal names the flags.
func TestFirstSwitchOnAStockMachine(t *testing.T) {
	bin := nspawntest.BuildStatic(t, "./cmd/nodegen")
	m := nspawntest.Boot(t, nspawntest.Options{Root: stockContainerd, NoSeccomp: true, AllCapabilities: true})
	m.CopyFile(bin, "/usr/local/bin/nodegen", 0o755)
	if got := strings.TrimSpace(m.MustRun("cat", "/etc/hostname")); got == "" || got == "stock1" {
		t.Fatalf("the stock root's /etc/hostname is %q", got)
	}
	if got := strings.TrimSpace(m.MustRun("readlink", "/etc/systemd/system/multi-user.target.wants/containerd.service")); got != "/lib/systemd/system/containerd.service" {
		t.Fatalf("containerd's enable link points to %q", got)
	}
	p := profileOf(t, m, "containerd", containerdHost)
	before := etcListing(t, m)
	hostname := m.MustRun("cat", "/etc/hostname")
	config := m.MustRun("cat", "/etc/containerd/config.toml")

	dry := mustNodegen(t, m, "switch", "--dry-run", p)
	for _, want := range []string{
		"taking over /etc/containerd/config.toml (dpkg conffile of containerd, unmodified; backed up)",
		"taking over /etc/hostname (",
		"taking over /etc/systemd/system/multi-user.target.wants/containerd.service (",
	} {
		if !strings.Contains(dry, want) {
			t.Errorf("the dry run does not say %q:\n%s", want, dry)
		}
	}
	if after := etcListing(t, m); after != before {
		t.Errorf("the dry run changed /etc:\n%s", cmp.Diff(before, after))
	}

	// The package's containerd runs, with the package's unit and config:
	// the switch restarts it with the profile's.
	pid := prop(t, m, "containerd.service", "MainPID")
	if pid == "0" {
		t.Fatalf("the package's containerd.service does not run on the stock machine\n%s", m.Journal("containerd.service", 20))
	}
	out := mustNodegen(t, m, "switch", p)
	if !strings.Contains(out, "taking over /etc/containerd/config.toml (dpkg conffile of containerd, unmodified; backed up)") {
		t.Errorf("the switch does not name the file it takes over:\n%s", out)
	}
	if !strings.Contains(out, "restart: containerd.service") {
		t.Errorf("the switch does not restart the package's running containerd:\n%s", out)
	}
	if now := prop(t, m, "containerd.service", "MainPID"); now == pid || now == "0" {
		t.Errorf("containerd's main PID was %s before the switch and is %s after it: not restarted", pid, now)
	}
	if got := m.MustRun("cat", "/etc/hostname"); got != "stock1\n" {
		t.Errorf("/etc/hostname after the switch: %q", got)
	}
	if got := m.MustRun("cat", "/etc/containerd/config.toml"); !strings.HasPrefix(got, "version = 2\n") {
		t.Errorf("/etc/containerd/config.toml after the switch: %q", got)
	}
	if got := prop(t, m, "containerd.service", "ActiveState"); got != "active" {
		t.Errorf("containerd.service is %s after the switch\n%s", got, m.Journal("containerd.service", 20))
	}

	mustNodegen(t, m, "deactivate")
	if got := m.MustRun("cat", "/etc/hostname"); got != hostname {
		t.Errorf("/etc/hostname after deactivate: %q, want the installer's %q", got, hostname)
	}
	if got := m.MustRun("cat", "/etc/containerd/config.toml"); got != config {
		t.Errorf("/etc/containerd/config.toml after deactivate is not the package's:\n%s", cmp.Diff(config, got))
	}
	if after := etcListing(t, m); after != before {
		t.Errorf("/etc after deactivate differs from the stock machine's (-before +after):\n%s", cmp.Diff(before, after))
	}
	if got := m.MustRun("dpkg", "--verify", "containerd"); got != "" {
		t.Errorf("dpkg --verify containerd after deactivate: %s", got)
	}

	// An admin's edit of the conffile is the admin's: refused, and the
	// refusal says how to keep it.
	m.MustRun("sh", "-c", `echo '# the admin was here' >> /etc/containerd/config.toml`)
	out, code := nodegen(t, m, "switch", p)
	if code != 1 {
		t.Fatalf("switch onto an edited conffile: exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{"/etc/containerd/config.toml: the package containerd's conffile (dpkg), edited since it was installed,", "nodegen switch --backup", "nodegen deploy --backup", "deployment.backupConflicts"} {
		if !strings.Contains(out, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, out)
		}
	}
	mustNodegen(t, m, "switch", "--backup", p)
	mustNodegen(t, m, "deactivate")
	if got := m.MustRun("tail", "-n1", "/etc/containerd/config.toml"); got != "# the admin was here\n" {
		t.Errorf("the admin's edit after deactivate: %q", got)
	}
}
