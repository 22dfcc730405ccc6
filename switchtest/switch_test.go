//go:build linux

package switchtest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/internal/nspawntest"
)

// machine boots a machine with the nodegen command in /usr/local/bin.
func machine(t *testing.T) *nspawntest.Machine {
	t.Helper()
	bin := nspawntest.BuildStatic(t, "./cmd/nodegen")
	m := nspawntest.Boot(t, nspawntest.Options{})
	m.CopyFile(bin, "/usr/local/bin/nodegen", 0o755)
	return m
}

// profileOf evaluates host files (HCL text, or paths of fixture hosts) on
// the host with the nodegen command and copies the profile into the
// machine at /root/profiles/NAME, whose path it returns.
func profileOf(t *testing.T, m *nspawntest.Machine, name string, hosts ...string) string {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for i, h := range hosts {
		if strings.HasSuffix(h, ".hcl") && !strings.Contains(h, "\n") {
			abs, err := filepath.Abs(h)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, abs)
			continue
		}
		f := filepath.Join(dir, "host"+string(rune('a'+i))+".hcl")
		if err := os.WriteFile(f, []byte(h), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	out := filepath.Join(dir, "profile")
	cmd := exec.Command(nspawntest.BuildStatic(t, "./cmd/nodegen"), append([]string{"eval", "-o", out}, files...)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nodegen eval %s: %v\n%s", strings.Join(files, " "), err, b)
	}
	dst := "/root/profiles/" + name
	m.MustRun("mkdir", "-p", "/root/profiles")
	if b, err := exec.Command("cp", "-a", out, m.Path(dst)).CombinedOutput(); err != nil {
		t.Fatalf("copying the profile into the machine: %v\n%s", err, b)
	}
	return dst
}

// nodegen runs the nodegen command in the machine and returns its output
// and exit code.
func nodegen(t *testing.T, m *nspawntest.Machine, args ...string) (string, int) {
	t.Helper()
	stdout, stderr, code, err := m.Run(append([]string{"nodegen"}, args...)...)
	if err != nil {
		t.Fatalf("nodegen %s: %v", strings.Join(args, " "), err)
	}
	t.Logf("nodegen %s (exit %d):\n%s%s", strings.Join(args, " "), code, stdout, stderr)
	return stdout + stderr, code
}

func mustNodegen(t *testing.T, m *nspawntest.Machine, args ...string) string {
	t.Helper()
	out, code := nodegen(t, m, args...)
	if code != 0 {
		t.Fatalf("nodegen %s: exit %d\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

// prop reads one property of a unit.
func prop(t *testing.T, m *nspawntest.Machine, unit, name string) string {
	t.Helper()
	return strings.TrimSpace(m.MustRun("systemctl", "show", "-P", name, unit))
}

// etcListing lists /etc: every path with its type, mode, owner and link
// target, and every file's sha256.
func etcListing(t *testing.T, m *nspawntest.Machine) string {
	t.Helper()
	paths := m.MustRun("find", "/etc", "-xdev", "-printf", `%p %y %m %u:%g %l\n`)
	sums := m.MustRun("find", "/etc", "-xdev", "-type", "f", "-exec", "sha256sum", "{}", "+")
	lines := strings.Split(strings.TrimSpace(paths+sums), "\n")
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// The hosts the tests switch between: gen2 restarts web, reloads
// reloader and removes doomed.
const (
	gen1 = `
config "networking" { hostName = "e2e" }
config "systemd.services.web" {
  wantedBy      = ["multi-user.target"]
  environment   = { GEN = "1" }
  serviceConfig = { ExecStart = "/bin/sleep infinity" }
}
config "systemd.services.reloader" {
  wantedBy        = ["multi-user.target"]
  reloadIfChanged = true
  environment     = { GEN = "1" }
  serviceConfig = {
    ExecStart  = "/bin/sleep infinity"
    ExecReload = "/bin/sh -c 'echo reloaded >> /run/reloads'"
  }
}
config "systemd.services.doomed" {
  wantedBy      = ["multi-user.target"]
  serviceConfig = { ExecStart = "/bin/sleep infinity" }
}
config "environment.etc.\"app/config\"" { text = "gen 1" }
`
	gen2 = `
config "networking" { hostName = "e2e" }
config "systemd.services.web" {
  wantedBy      = ["multi-user.target"]
  environment   = { GEN = "2" }
  serviceConfig = { ExecStart = "/bin/sleep infinity" }
}
config "systemd.services.reloader" {
  wantedBy        = ["multi-user.target"]
  reloadIfChanged = true
  environment     = { GEN = "2" }
  serviceConfig = {
    ExecStart  = "/bin/sleep infinity"
    ExecReload = "/bin/sh -c 'echo reloaded >> /run/reloads'"
  }
}
config "environment.etc.\"app/config\"" { text = "gen 2" }
`
	broken = `
config "systemd.services.broken" {
  wantedBy      = ["multi-user.target"]
  serviceConfig = { ExecStart = "/bin/sh -c 'echo cannot start >&2; exit 3'" }
}
`
)

func TestFirstSwitchStartsUnits(t *testing.T) {
	m := machine(t)
	before := etcListing(t, m)
	p := profileOf(t, m, "minimal", "../fixtures/minimal/host.hcl")
	// Debian ships /etc/motd: the switch refuses to overwrite it, and
	// with --backup keeps it.
	out, code := nodegen(t, m, "switch", p)
	if code != 1 || !strings.Contains(out, "/etc/motd: a file that nodegen does not manage") {
		t.Errorf("switch onto Debian's /etc/motd: exit %d\n%s", code, out)
	}
	out = mustNodegen(t, m, "switch", "--backup", p)
	if !strings.Contains(out, "backup   /etc/motd") || !strings.Contains(out, "generation 1 is active") {
		t.Errorf("output:\n%s", out)
	}
	for _, unit := range []string{"hello.service", "app.target", "reload-config.path", "cleanup.timer"} {
		if st := prop(t, m, unit, "ActiveState"); st != "active" {
			t.Errorf("%s is %s, want active", unit, st)
		}
	}
	if j := m.Journal("hello.service", 20); !strings.Contains(j, "hello world from ") {
		t.Errorf("hello.service did not say hello:\n%s", j)
	}
	// Every unit of the profile loads without complaint.
	for _, unit := range []string{"hello.service", "cleanup.service", "cleanup.timer", "reload-config.path", "reload-config.service", "app.target"} {
		if st := prop(t, m, unit, "LoadState"); st != "loaded" {
			t.Errorf("%s: LoadState %s", unit, st)
		}
	}
	gens := mustNodegen(t, m, "generations")
	if !regexp.MustCompile(`(?m)^1 +\S+ +minimal +[0-9a-f]{12} +\*$`).MatchString(gens) {
		t.Errorf("generations:\n%s", gens)
	}
	mustNodegen(t, m, "deactivate")
	if d := cmp.Diff(before, etcListing(t, m)); d != "" {
		t.Errorf("/etc after deactivate differs from before the first switch (-before +after):\n%s", d)
	}
}

func TestSwitchRestartsReloadsStops(t *testing.T) {
	m := machine(t)
	before := etcListing(t, m)
	mustNodegen(t, m, "switch", profileOf(t, m, "gen1", gen1))
	webPID := prop(t, m, "web.service", "MainPID")
	reloaderPID := prop(t, m, "reloader.service", "MainPID")
	if prop(t, m, "doomed.service", "ActiveState") != "active" || webPID == "0" {
		t.Fatal("generation 1's units are not running")
	}

	out := mustNodegen(t, m, "switch", profileOf(t, m, "gen2", gen2))
	for _, want := range []string{"stop:    doomed.service web.service", "reload:  reloader.service", "start:   web.service", "generation 2 is active"} {
		if !strings.Contains(out, want) {
			t.Errorf("switch output lacks %q:\n%s", want, out)
		}
	}
	if pid := prop(t, m, "web.service", "MainPID"); pid == webPID || pid == "0" {
		t.Errorf("web.service was not restarted: MainPID %s, before %s", pid, webPID)
	}
	if env := prop(t, m, "web.service", "Environment"); !strings.Contains(env, "GEN=2") {
		t.Errorf("web.service runs with %q", env)
	}
	if pid := prop(t, m, "reloader.service", "MainPID"); pid != reloaderPID {
		t.Errorf("reloader.service was restarted (MainPID %s, before %s), want reloaded", pid, reloaderPID)
	}
	if got := m.MustRun("cat", "/run/reloads"); got != "reloaded\n" {
		t.Errorf("/run/reloads: %q", got)
	}
	if st := prop(t, m, "doomed.service", "ActiveState"); st != "inactive" {
		t.Errorf("doomed.service is %s after its removal", st)
	}
	if got := m.MustRun("cat", "/etc/app/config"); got != "gen 2" {
		t.Errorf("/etc/app/config: %q", got)
	}

	// Rollback: generation 1's files and units again.
	out = mustNodegen(t, m, "rollback")
	if !strings.Contains(out, "generation 1 is active") {
		t.Errorf("rollback output:\n%s", out)
	}
	if st := prop(t, m, "doomed.service", "ActiveState"); st != "active" {
		t.Errorf("doomed.service is %s after the rollback", st)
	}
	if got := m.MustRun("cat", "/etc/app/config"); got != "gen 1" {
		t.Errorf("/etc/app/config after the rollback: %q", got)
	}

	// Deactivate: /etc is as it was before the first switch, the units
	// are gone.
	mustNodegen(t, m, "deactivate")
	if d := cmp.Diff(before, etcListing(t, m)); d != "" {
		t.Errorf("/etc after deactivate differs from before the first switch (-before +after):\n%s", d)
	}
	for _, unit := range []string{"web.service", "reloader.service", "doomed.service"} {
		if st := prop(t, m, unit, "ActiveState"); st != "inactive" {
			t.Errorf("%s is %s after deactivate", unit, st)
		}
	}
}

func TestRollbackLeavesEtcAsBefore(t *testing.T) {
	m := machine(t)
	before := etcListing(t, m)
	mustNodegen(t, m, "switch", profileOf(t, m, "gen1", gen1))
	mustNodegen(t, m, "switch", "--backup", profileOf(t, m, "minimal", "../fixtures/minimal/host.hcl"))
	mustNodegen(t, m, "rollback", "--to", "1")
	mustNodegen(t, m, "deactivate")
	if d := cmp.Diff(before, etcListing(t, m)); d != "" {
		t.Errorf("/etc after rollback and deactivate differs (-before +after):\n%s", d)
	}
}

func TestConflictChangesNothing(t *testing.T) {
	m := machine(t)
	m.WriteFile("/etc/app/config", []byte("the admin's\n"), 0o644)
	before := etcListing(t, m)
	out, code := nodegen(t, m, "switch", profileOf(t, m, "gen1", gen1))
	if code != 1 || !strings.Contains(out, "/etc/app/config: a file that nodegen does not manage") || !strings.Contains(out, "nothing was changed") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if d := cmp.Diff(before, etcListing(t, m)); d != "" {
		t.Errorf("a refused switch changed /etc (-before +after):\n%s", d)
	}
	if st := prop(t, m, "web.service", "LoadState"); st != "not-found" {
		t.Errorf("web.service: LoadState %s", st)
	}
	// With --backup it goes through, and deactivate brings the file back.
	mustNodegen(t, m, "switch", "--backup", "/root/profiles/gen1")
	mustNodegen(t, m, "deactivate")
	if got := m.MustRun("cat", "/etc/app/config"); got != "the admin's\n" {
		t.Errorf("/etc/app/config after deactivate: %q", got)
	}
}

func TestFailedUnitRollsBack(t *testing.T) {
	m := machine(t)
	mustNodegen(t, m, "switch", profileOf(t, m, "gen2", gen2))
	bad := profileOf(t, m, "bad", gen1, broken)

	// Without --rollback-on-failure: exit 1, the unit named with its
	// journal; the new generation stays active.
	out, code := nodegen(t, m, "switch", bad)
	if code != 1 || !strings.Contains(out, "unit broken.service failed") || !strings.Contains(out, "cannot start") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if !strings.Contains(mustNodegen(t, m, "generations"), "*") {
		t.Error("no current generation")
	}

	// With it: generation 1 (gen2's profile) is active again, its units
	// running.
	mustNodegen(t, m, "rollback", "--to", "1")
	out, code = nodegen(t, m, "switch", "--rollback-on-failure", bad)
	if code != 1 || !strings.Contains(out, "rolled back: generation 1 is active again") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if got := m.MustRun("cat", "/etc/app/config"); got != "gen 2" {
		t.Errorf("/etc/app/config after the rollback: %q", got)
	}
	for unit, want := range map[string]string{"web.service": "active", "reloader.service": "active", "doomed.service": "inactive"} {
		if st := prop(t, m, unit, "ActiveState"); st != want {
			t.Errorf("%s is %s after the rollback, want %s", unit, st, want)
		}
	}
	if st := prop(t, m, "broken.service", "LoadState"); st != "not-found" {
		t.Errorf("broken.service: LoadState %s after the rollback", st)
	}
}

// noBinaries drops every binary of the library's fixtures, for a machine
// without a network: neither installed nor looked for in the image (which
// lacks them: the units that run them fail). The packages the library
// declares itself, to say what they provide (Debian's containerd, the
// nodes' iproute2), are dropped by name; systemPackages' by emptying it.
const noBinaries = `
config "services.kubernetes.release" { skipInstall = true }
config "environment" {
  systemPackages  = mkForce([])
  providedByImage = mkForce([])
}
config "environment.packages" {
  etcd-server  = { enable = false }
  golang-cfssl = { enable = false }
  containerd   = { enable = false }
  iproute2     = { enable = false }
}
config "environment.assets" {
  flannel     = { enable = false }
  containerd  = { enable = false }
  runc        = { enable = false }
  cni-plugins = { enable = false }
}
`

// unitsOf lists the unit files a profile has in etc/systemd/system.
func unitsOf(t *testing.T, m *nspawntest.Machine, profile string) []string {
	t.Helper()
	out := m.MustRun("find", profile+"/etc/systemd/system", "-maxdepth", "1", "-type", "f", "-printf", `%f\n`)
	units := strings.Fields(out)
	sort.Strings(units)
	return units
}

// missingExec matches what systemd-analyze verify says of an executable
// that is not on the machine (the binaries issue brings them).
var missingExec = regexp.MustCompile(`(Command .* is not executable: No such file or directory|Unit configuration has fatal error, unit will not be started\.|: Failed to .*: No such file or directory)$`)

// TestLibraryProfilesLoad switches the Kubernetes worker and the
// containerd nodes (the kubelet on containerd, the containerd workers with
// kubenet and with flannel) into a machine: systemd loads every unit of their profiles, and
// systemd-analyze verify in the machine finds nothing wrong but missing
// binaries; every target whose units can run is reached.
func TestLibraryProfilesLoad(t *testing.T) {
	for _, fixture := range []string{"k8s-worker", "containerd-kubelet", "containerd-worker", "containerd-worker-flannel"} {
		t.Run(fixture, func(t *testing.T) {
			m := machine(t)
			// The fixtures leave the Kubernetes binaries to the image
			// (skipInstall), which lacks them: the switch refuses before
			// it changes anything, naming each.
			before := etcListing(t, m)
			full := profileOf(t, m, fixture+"-full", "../fixtures/"+fixture+"/host.hcl")
			out, code := nodegen(t, m, "switch", "--backup", full)
			if code != 1 || !strings.Contains(out, "that the profile leaves to the image are not on the system; nothing was changed:") ||
				!strings.Contains(out, "/opt/kubernetes/bin/kubelet (run by systemd.services.kubelet): no such file") {
				t.Errorf("switch without the image's binaries: exit %d\n%s", code, out)
			}
			// Not looked for in the image (providedByImage emptied), the
			// other binaries come with the profile, and the machine has no
			// network: its assets cannot be downloaded nor its packages
			// installed, and the switch refuses before it changes
			// anything, naming each (a node on Debian's containerd has
			// packages only).
			inImage := profileOf(t, m, fixture+"-image", "../fixtures/"+fixture+"/host.hcl", `config "environment" { providedByImage = mkForce([]) }`)
			out, code = nodegen(t, m, "switch", "--backup", inImage)
			if code != 1 || !strings.Contains(out, "cannot be provided; nothing was changed in /etc") || !(strings.Contains(out, "asset ") || strings.Contains(out, "package ")) {
				t.Errorf("switch without the binaries: exit %d\n%s", code, out)
			}
			if d := cmp.Diff(before, etcListing(t, m)); d != "" {
				t.Errorf("the refused switch changed /etc (-before +after):\n%s", d)
			}
			// Without them (not in the image either), the units are
			// installed.
			p := profileOf(t, m, fixture, "../fixtures/"+fixture+"/host.hcl", noBinaries)
			// The binaries are not on the machine: units fail, and the
			// wait loops never finish; the switch says so and exits 1.
			out, code = nodegen(t, m, "switch", "--backup", "--timeout", "5s", p)
			if code != 1 || !strings.Contains(out, "is active") {
				t.Errorf("switch: exit %d\n%s", code, out)
			}
			units := unitsOf(t, m, p)
			if len(units) < 3 {
				t.Fatalf("units: %v", units)
			}
			for _, unit := range units {
				if strings.Contains(unit, "@.") {
					continue
				}
				if st := prop(t, m, unit, "LoadState"); st != "loaded" {
					t.Errorf("%s: LoadState %s", unit, st)
				}
			}
			var paths []string
			for _, unit := range units {
				paths = append(paths, "/etc/systemd/system/"+unit)
			}
			_, stderr, _, err := m.Run(append([]string{"systemd-analyze", "verify", "--man=no"}, paths...)...)
			if err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
				if line != "" && !missingExec.MatchString(line) {
					t.Errorf("systemd-analyze verify: %s", line)
				}
			}
			// A target is reached unless something it pulls in cannot run
			// here: a binary that is missing (exit status 203 or 127), a
			// wait loop for a service that cannot start, or a start that
			// waits for one of those.
			for _, unit := range units {
				if !strings.HasSuffix(unit, ".target") || prop(t, m, unit, "ActiveState") == "active" {
					continue
				}
				var why []string
				deps := strings.Fields(m.MustRun("systemctl", "list-dependencies", "--plain", "--no-legend", "--no-pager", unit))
				for _, dep := range deps {
					if dep == unit {
						continue
					}
					status := prop(t, m, dep, "ExecMainStatus")
					state := prop(t, m, dep, "ActiveState")
					// A start job still queued waits for a unit it is
					// ordered after.
					queued := prop(t, m, dep, "Job") != ""
					if status == "203" || status == "127" || state == "activating" || queued {
						why = append(why, dep)
					}
				}
				if len(why) == 0 {
					t.Errorf("%s is not reached, and none of its units lacks a binary: %v", unit, deps)
				} else {
					t.Logf("%s is not reached: %s cannot run here", unit, strings.Join(why, " "))
				}
			}
		})
	}
}

// TestAssetProvidesTheUnitsProgram installs a program as an asset (from a
// file:// URL, the machine has no network): the unit that runs it starts.
// An asset whose hash is wrong stops the switch in its check stage, with
// nothing changed.
func TestAssetProvidesTheUnitsProgram(t *testing.T) {
	m := machine(t)
	program := []byte("#!/bin/sh\necho started by an asset\nexec sleep infinity\n")
	m.WriteFile("/root/assets/hello", program, 0o644)
	sum := sha256.Sum256(program)
	host := func(hash string) string {
		return fmt.Sprintf(`
config "environment.assets.hello" {
  url        = "file:///root/assets/hello"
  sha256     = %q
  executable = "/usr/local/bin/hello"
}
config "systemd.services.hello" {
  wantedBy      = ["multi-user.target"]
  serviceConfig = { ExecStart = "/usr/local/bin/hello" }
}
`, hash)
	}
	before := etcListing(t, m)
	wrong := sha256.Sum256([]byte("something else"))
	out, code := nodegen(t, m, "switch", profileOf(t, m, "wrong", host(hex.EncodeToString(wrong[:]))))
	if code != 1 || !strings.Contains(out, "asset hello (from environment.assets.hello)") || !strings.Contains(out, "not installed") {
		t.Errorf("switch with a wrong hash: exit %d\n%s", code, out)
	}
	if d := cmp.Diff(before, etcListing(t, m)); d != "" {
		t.Errorf("the refused switch changed /etc (-before +after):\n%s", d)
	}
	if _, _, code, _ := m.Run("test", "-e", "/usr/local/bin/hello"); code == 0 {
		t.Error("the asset with the wrong hash was installed")
	}

	out = mustNodegen(t, m, "switch", profileOf(t, m, "right", host(hex.EncodeToString(sum[:]))))
	if !strings.Contains(out, "assets: download hello") {
		t.Errorf("switch output:\n%s", out)
	}
	if st := prop(t, m, "hello.service", "ActiveState"); st != "active" {
		t.Errorf("hello.service is %s\n%s", st, m.Journal("hello.service", 10))
	}
	if j := m.Journal("hello.service", 10); !strings.Contains(j, "started by an asset") {
		t.Errorf("journal:\n%s", j)
	}
	mustNodegen(t, m, "deactivate")
	if _, _, code, _ := m.Run("test", "-e", "/usr/local/bin/hello"); code == 0 {
		t.Error("deactivate left the asset's link")
	}
}
