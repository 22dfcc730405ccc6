package evalprofile_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/evalprofile"
	"github.com/nodegen/nodegen/modules"
)

// TestLocatedWarning: a warning of the profile that a check of Build
// found (an executable nothing provides) is located at the user's
// definition by the diagnostic Build marks with it, and only by that one:
// a text that merely begins the warning, or an assertion's warning, is
// not located.
func TestLocatedWarning(t *testing.T) {
	dir := t.TempDir()
	host := filepath.Join(dir, "host.hcl")
	src := "config \"systemd.services.web\" {\n  serviceConfig = { ExecStart = \"/opt/web/bin/web --port 80\" }\n}\n" +
		"config {\n  warnings = [\"an assertion's warning\"]\n}\n"
	if err := os.WriteFile(host, []byte(src), 0o644); err != nil {
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
	var exe string
	for _, w := range p.Warnings {
		if strings.Contains(w, "/opt/web/bin/web") {
			exe = w
		}
	}
	if exe == "" {
		t.Fatalf("no warning about /opt/web/bin/web in %q", p.Warnings)
	}
	d := evalprofile.LocatedWarning(exe, diags)
	if d == nil || d.Subject == nil {
		t.Fatalf("LocatedWarning(%q) = %v, want a diagnostic with a subject", exe, d)
	}
	if d.Subject.Filename != host || d.Subject.Start.Line != 1 {
		t.Errorf("the warning is located at %s, want %s line 1 (the unit's definition)", d.Subject, host)
	}
	for _, w := range []string{exe[:len(exe)/2], "an assertion's warning"} {
		if d := evalprofile.LocatedWarning(w, diags); d != nil {
			t.Errorf("LocatedWarning(%q) = %s, want nil", w, d.Subject)
		}
	}
}
