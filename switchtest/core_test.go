//go:build linux

package switchtest

import (
	"strings"
	"testing"
)

// coreHost uses the core modules that service modules build on: a system
// user with its home, a tmpfiles.d directory, a drop-in and an alias for a
// unit the distribution ships, and a service with reloadTriggers.
const coreHost = `
config "users.users.svc" {
  isSystemUser = true
  group        = "svc"
  home         = "/var/lib/svc"
  createHome   = true
}
config "users.groups.svc" {}

config "systemd.tmpfiles" {
  settings = {
    "20-demo" = { "/var/lib/demo" = { d = { mode = "0750", user = "svc", group = "svc" } } }
  }
}

config "systemd.services.systemd-hostnamed" {
  overrideStrategy = "asDropin"
  environment      = { NODEGEN_DEMO = "1" }
  aliases          = ["nodegen-hostnamed.service"]
}

config "systemd.services.triggered" {
  wantedBy       = ["multi-user.target"]
  reloadTriggers = [local.generation]
  serviceConfig = {
    ExecStart  = "/bin/sleep infinity"
    ExecReload = "/bin/sh -c 'echo reloaded >> /run/triggered'"
  }
}
`

// TestCoreModulesSwitch switches to a host of the core modules and checks,
// in a running systemd, that the accounts, directories, drop-in and alias
// are there, and that a changed reload trigger reloads its unit rather
// than restarting it.
func TestCoreModulesSwitch(t *testing.T) {
	m := machine(t)
	// /etc/hostname is debootstrap's: the switch takes it over.
	mustNodegen(t, m, "switch", profileOf(t, m, "gen1", coreHost+`locals { generation = "1" }`))

	if out := m.MustRun("getent", "passwd", "svc"); !strings.Contains(out, ":/var/lib/svc:") {
		t.Errorf("getent passwd svc: %q", out)
	}
	for _, dir := range []string{"/var/lib/svc", "/var/lib/demo"} {
		if got := strings.TrimSpace(m.MustRun("stat", "-c", "%U:%G %a", dir)); !strings.HasPrefix(got, "svc:svc ") {
			t.Errorf("%s: %s, want owned by svc:svc", dir, got)
		}
	}
	if env := prop(t, m, "systemd-hostnamed.service", "Environment"); !strings.Contains(env, "NODEGEN_DEMO=1") {
		t.Errorf("the drop-in does not apply to Debian's systemd-hostnamed: Environment=%q", env)
	}
	if path := prop(t, m, "systemd-hostnamed.service", "FragmentPath"); !strings.HasPrefix(path, "/usr/lib/") && !strings.HasPrefix(path, "/lib/") {
		t.Errorf("systemd-hostnamed.service is read from %s, want the distribution's unit", path)
	}
	if id := prop(t, m, "nodegen-hostnamed.service", "Id"); id != "systemd-hostnamed.service" {
		t.Errorf("the alias is %s", id)
	}

	pid := prop(t, m, "triggered.service", "MainPID")
	if pid == "0" {
		t.Fatal("triggered.service is not running")
	}
	out := mustNodegen(t, m, "switch", profileOf(t, m, "gen2", coreHost+`locals { generation = "2" }`))
	if !strings.Contains(out, "reload:  triggered.service") {
		t.Errorf("switch output does not reload triggered.service:\n%s", out)
	}
	if got := prop(t, m, "triggered.service", "MainPID"); got != pid {
		t.Errorf("triggered.service was restarted (MainPID %s, before %s), want reloaded", got, pid)
	}
	if got := m.MustRun("cat", "/run/triggered"); got != "reloaded\n" {
		t.Errorf("/run/triggered: %q", got)
	}
}
