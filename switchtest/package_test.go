//go:build linux

package switchtest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nodegen/nodegen/internal/nspawntest"
)

// debOf returns the host path of the Debian package pkg's .deb, fetched
// once with apt-get download into the test cache ($NODEGEN_TEST_CACHE/debs).
func debOf(t *testing.T, pkg string) string {
	t.Helper()
	cache := os.Getenv("NODEGEN_TEST_CACHE")
	if cache == "" {
		cache = "/var/cache/nodegen-test"
	}
	dir := filepath.Join(cache, "debs")
	if found, _ := filepath.Glob(filepath.Join(dir, pkg+"_*.deb")); len(found) == 1 {
		return found[0]
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("timeout", "300", "apt-get", "download", pkg)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("apt-get download %s: %v\n%s", pkg, err, out)
	}
	found, _ := filepath.Glob(filepath.Join(dir, pkg+"_*.deb"))
	if len(found) != 1 {
		t.Fatalf("apt-get download %s: found %v", pkg, found)
	}
	return found[0]
}

// localRepo makes the machine's apt see only a local repository of debs
// at /root/debs (the machine has no network), so that apt-get update and
// install work in it.
func localRepo(t *testing.T, m *nspawntest.Machine, debs ...string) {
	t.Helper()
	var index strings.Builder
	for _, deb := range debs {
		data, err := os.ReadFile(deb)
		if err != nil {
			t.Fatal(err)
		}
		control, err := exec.Command("dpkg-deb", "-f", deb).Output()
		if err != nil {
			t.Fatalf("dpkg-deb -f %s: %v", deb, err)
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(&index, "%sFilename: ./%s\nSize: %d\nSHA256: %s\n\n", control, filepath.Base(deb), len(data), hex.EncodeToString(sum[:]))
		m.WriteFile("/root/debs/"+filepath.Base(deb), data, 0o644)
	}
	m.WriteFile("/root/debs/Packages", []byte(index.String()), 0o644)
	m.MustRun("sh", "-c", "mv /etc/apt/sources.list /root/sources.list.orig; rm -f /etc/apt/sources.list.d/*; rm -rf /var/lib/apt/lists/*")
	m.WriteFile("/etc/apt/sources.list.d/local.list", []byte("deb [trusted=yes] file:/root/debs ./\n"), 0o644)
}

// TestPackageConffileIsTakenOver: a package the switch installs brings a
// conffile at a path the profile manages. The check comes after the
// install, so it finds the package's file there as dpkg installed it:
// the switch takes it over without --backup, and deactivate puts it back.
func TestPackageConffileIsTakenOver(t *testing.T) {
	m := machine(t)
	localRepo(t, m, debOf(t, "netbase"))
	p := profileOf(t, m, "services", `
config "networking" { hostName = "e2e" }
config "environment" { systemPackages = ["netbase"] }
config "environment.etc.services" { text = "nodegen's services\n" }
`)
	out := mustNodegen(t, m, "switch", p)
	if !strings.Contains(out, "taking over /etc/services (dpkg conffile of netbase, unmodified; backed up)") {
		t.Errorf("the switch does not say it takes the package's conffile over:\n%s", out)
	}
	if st := m.MustRun("dpkg-query", "-W", "-f=${db:Status-Abbrev}", "netbase"); !strings.HasPrefix(st, "ii") {
		t.Fatalf("netbase is not installed: %q", st)
	}
	packaged := m.MustRun("sha256sum", "/var/lib/nodegen/backups/etc/services")
	if got := m.MustRun("cat", "/etc/services"); got != "nodegen's services\n" {
		t.Errorf("/etc/services: %q", got)
	}
	mustNodegen(t, m, "deactivate")
	if got := m.MustRun("sha256sum", "/etc/services"); got != strings.Replace(packaged, "/var/lib/nodegen/backups/etc/services", "/etc/services", 1) {
		t.Errorf("/etc/services after deactivate is not the package's: %s, want %s", got, packaged)
	}
	if got := m.MustRun("dpkg", "--verify", "netbase"); got != "" {
		t.Errorf("dpkg --verify netbase after deactivate: %s", got)
	}
}
