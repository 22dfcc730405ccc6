//go:build linux

package switchtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/evalprofile"
	"github.com/nodegen/nodegen/internal/nspawntest"
	"github.com/nodegen/nodegen/modules"
)

// TestUnitValuesReadBySystemd: the library writes a service's environment
// values and its systemdexecarg() arguments as data (issue 27); a real
// systemd, starting the service, must hand it "%n" as it is (not the
// unit's name), "a b" as one value, and the script's % and $ unexpanded.
func TestUnitValuesReadBySystemd(t *testing.T) {
	host := filepath.Join(t.TempDir(), "host.hcl")
	text := `
config "systemd.services.envpct" {
  environment   = { B = "%n", C = "a b" }
  serviceConfig = {
    Type      = "oneshot"
    ExecStart = "/bin/sh -c ${systemdexecarg("printf '%s|%s|%s\\n' \"$B\" \"$C\" \"$0\" > /run/out")} %n"
  }
}
`
	if err := os.WriteFile(host, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	ev, diags := eval.New(eval.Config{Files: []string{host}, Library: modules.FS()})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	p, diags := evalprofile.Build(ev)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var unit []byte
	for _, e := range p.Entries {
		if e.Target == "systemd/system/envpct.service" {
			unit = e.Content
		}
	}
	if unit == nil {
		t.Fatal("no systemd/system/envpct.service in the profile")
	}
	t.Logf("the unit:\n%s", unit)

	m := nspawntest.Boot(t, nspawntest.Options{})
	m.WriteFile("/etc/systemd/system/envpct.service", unit, 0o644)
	m.MustRun("systemctl", "daemon-reload")
	m.MustRun("systemctl", "start", "envpct.service")
	// The unit's own %n, in unit syntax, is its name: the check that
	// specifiers expand at all where the library did not double them.
	if got, want := strings.TrimSpace(m.MustRun("cat", "/run/out")), "%n|a b|envpct.service"; got != want {
		t.Errorf("the service printed %q, want %q", got, want)
	}
	if got, want := prop(t, m, "envpct.service", "Environment"), "B=%n \"C=a b\""; got != want {
		t.Errorf("systemctl show -P Environment: %q, want %q", got, want)
	}
}
