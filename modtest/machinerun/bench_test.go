//go:build linux

package machinerun

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/machine"
	"github.com/nodegen/nodegen/internal/nspawntest"
	"github.com/nodegen/nodegen/modtest"
	"github.com/nodegen/nodegen/modules"
)

// oneMachineTest is the smallest machine test: one machine of the
// library's defaults, no packages, one step.
const oneMachineTest = `machine "one" {}

run "one" {
  machines = ["one"]
  step "one" { succeed = "true" }
}
`

// onePackageTest is the same with one package the stock root lacks
// (Debian's hello), which nodegen switch installs through the run's
// package proxy: apt-get update and install, the proxy's cache warm after
// the first iteration.
const onePackageTest = `machine "one" {
  config "environment.packages.hello" {}
}

run "one" {
  machines = ["one"]
  step "one" { succeed = "hello" }
}
`

// BenchmarkOneMachineVsBareBoot runs, side by side in one process and
// interleaved, a bare boot of the cached root (an overlay, systemd-nspawn
// --boot until systemd reports the system running, power off, remove the
// overlay), the smallest machine test (nodegen test's path: build the
// profile, boot an overlay of the same root on the run's network, copy
// nodegen and the profile in, switch, run the step, clean up) and the same
// test with one package to install. Each iteration does one of each; the
// metrics are medians over the iterations, in seconds:
//
//   - bare-boot-s, bare-total-s: the bare machine's boot, and with its
//     power-off and cleanup;
//   - test-profile-s: evaluating and building the machine's profile;
//   - test-boot-s: the test machine's boot (overlay and network included);
//   - test-active-s: from the start of its boot to its profile active
//     (nodegen and the profile copied in, nodegen switch);
//   - test-total-s: the whole run, cleanup included;
//   - pkg-active-s, pkg-total-s: the same for the test with a package.
//
// It needs root and systemd-nspawn, and skips otherwise; the root is
// built first when it is not cached (not timed). Run it with:
//
//	go test -run '^$' -bench OneMachineVsBareBoot -benchtime 9x ./modtest/machinerun/
func BenchmarkOneMachineVsBareBoot(b *testing.B) {
	if err := machine.Available(); err != nil {
		b.Skip(err)
	}
	tree, _, err := machine.Root{}.Ensure()
	if err != nil {
		b.Fatal(err)
	}
	d := &Driver{Library: modules.FS(), Binary: nspawntest.BuildStatic(b, "./cmd/nodegen")}
	dir := b.TempDir()
	parse := func(name, src string) *modtest.File {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
		f := modtest.ParseFile(path)
		if f.Diags.HasErrors() {
			b.Fatal(f.Diags)
		}
		return f
	}
	f, pf := parse("one.test.hcl", oneMachineTest), parse("package.test.hcl", onePackageTest)
	runner := &modtest.Runner{Library: modules.FS(), Machines: d}
	var bare, bareTotal, profile, boot, active, total, pkgActive, pkgTotal []float64
	i := 0
	for b.Loop() {
		i++
		// The bare boot.
		t0 := time.Now()
		dk, err := newDisk(tree, filepath.Join(dir, "disks"))
		if err != nil {
			b.Fatal(err)
		}
		m, err := machine.Boot(machine.Options{Name: fmt.Sprintf("ngb-%s-%d", randomHex(4), i), HostName: "bare", Dir: dk.Root(), Lifetime: time.Hour, LogDir: dk.Base})
		if err != nil {
			dk.remove()
			b.Fatal(err)
		}
		bare = append(bare, time.Since(t0).Seconds())
		if err := m.PowerOff(); err != nil {
			b.Error(err)
		}
		if err := dk.remove(); err != nil {
			b.Error(err)
		}
		bareTotal = append(bareTotal, time.Since(t0).Seconds())

		// The machine test.
		t0 = time.Now()
		res := runner.Run(f, f.Runs[0])
		total = append(total, time.Since(t0).Seconds())
		if !res.Passed {
			b.Fatalf("the machine test failed: %v\n%q", res.Diags, res.Notes)
		}
		p, bt, ac, ok := phases(res.Notes)
		if !ok {
			b.Fatalf("the machine test's notes have no timings: %q", res.Notes)
		}
		profile, boot, active = append(profile, p), append(boot, bt), append(active, ac)

		// The machine test with a package.
		t0 = time.Now()
		res = runner.Run(pf, pf.Runs[0])
		pkgTotal = append(pkgTotal, time.Since(t0).Seconds())
		if !res.Passed {
			b.Fatalf("the machine test with a package failed: %v\n%q", res.Diags, res.Notes)
		}
		if _, _, ac, ok = phases(res.Notes); !ok {
			b.Fatalf("the machine test's notes have no timings: %q", res.Notes)
		}
		pkgActive = append(pkgActive, ac)
	}
	for _, m := range []struct {
		unit string
		xs   []float64
	}{{"bare-boot-s", bare}, {"bare-total-s", bareTotal}, {"test-profile-s", profile}, {"test-boot-s", boot}, {"test-active-s", active}, {"test-total-s", total}, {"pkg-active-s", pkgActive}, {"pkg-total-s", pkgTotal}} {
		b.ReportMetric(median(m.xs), m.unit)
	}
	b.ReportMetric(0, "ns/op")
}

var (
	profileNote = regexp.MustCompile(`^profiles built in (\S+)$`)
	bootNote    = regexp.MustCompile(`: booted in (\S+), profile active in (\S+)$`)
)

// phases reads a run's notes for the time its profiles took, and its one
// machine's boot and time to its profile active, in seconds.
func phases(notes []string) (profile, boot, active float64, ok bool) {
	var found int
	for _, n := range notes {
		if m := profileNote.FindStringSubmatch(n); m != nil {
			profile = seconds(m[1])
			found++
		}
		if m := bootNote.FindStringSubmatch(n); m != nil {
			boot, active = seconds(m[1]), seconds(m[2])
			found++
		}
	}
	return profile, boot, active, found == 2
}

func seconds(s string) float64 {
	d, err := time.ParseDuration(s)
	if err != nil {
		return -1
	}
	return d.Seconds()
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
