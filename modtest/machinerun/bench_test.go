//go:build linux

package machinerun

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
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
	bb := newBenchBench(b)
	f, pf := bb.parse("one.test.hcl", oneMachineTest), bb.parse("package.test.hcl", onePackageTest)
	var bare, bareTotal, profile, boot, active, total, pkgActive, pkgTotal []float64
	for b.Loop() {
		// The bare boot.
		bt, tt := bb.bareBoots(1)
		bare, bareTotal = append(bare, bt), append(bareTotal, tt)

		// The machine test.
		res, secs := bb.run(f)
		total = append(total, secs)
		p, bt, ac, ok := phases(res.Notes)
		if !ok {
			b.Fatalf("the machine test's notes have no timings: %q", res.Notes)
		}
		profile, boot, active = append(profile, p), append(boot, bt), append(active, ac)

		// The machine test with a package.
		res, secs = bb.run(pf)
		pkgTotal = append(pkgTotal, secs)
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

// manyMachineTest is n machines of the library's defaults on one
// network, m00, m01, ..., each of which resolves the next by name.
func manyMachineTest(n int) string {
	var b strings.Builder
	names := make([]string, n)
	for i := range n {
		names[i] = fmt.Sprintf("m%02d", i)
		fmt.Fprintf(&b, "machine %q {}\n", names[i])
	}
	fmt.Fprintf(&b, "\nrun \"many\" {\n  machines = [\"%s\"]\n", strings.Join(names, `", "`))
	for i, name := range names {
		fmt.Fprintf(&b, "  step %q { succeed = \"getent hosts %s\" }\n", name, names[(i+1)%n])
	}
	b.WriteString("}\n")
	return b.String()
}

// BenchmarkMachinesVsBareBoots is the side by side for a run of several
// machines, 4 and 12 (24 at once, NixOS's figure for its container tests,
// left one bare machine not running within a minute on the 2-core
// machines here): in each iteration, as many bare boots of the cached root
// at once (as BenchmarkOneMachineVsBareBoot's, in parallel), then a
// machine test of as many machines on one network, which the driver boots
// in parallel, each resolving another by name. The metrics are medians
// over the iterations, in seconds:
//
//   - bare-boot-s, bare-total-s: until all the bare machines run, and
//     with their power-off and cleanup;
//   - test-active-s: from the start of the test's boots to the last of its
//     profiles active;
//   - test-total-s: the whole run, cleanup included;
//   - test-per-machine-s: test-total-s over the number of machines, the
//     cost of a machine in a run of several.
//
// It needs root and systemd-nspawn, and skips otherwise. Run it with:
//
//	go test -run '^$' -bench MachinesVsBareBoots -benchtime 5x ./modtest/machinerun/
func BenchmarkMachinesVsBareBoots(b *testing.B) {
	for _, n := range []int{4, 12} {
		b.Run(fmt.Sprintf("machines=%d", n), func(b *testing.B) {
			bb := newBenchBench(b)
			f := bb.parse("many.test.hcl", manyMachineTest(n))
			var bare, bareTotal, active, total []float64
			for b.Loop() {
				bt, tt := bb.bareBoots(n)
				bare, bareTotal = append(bare, bt), append(bareTotal, tt)

				res, secs := bb.run(f)
				total = append(total, secs)
				var last float64
				var booted int
				for _, note := range res.Notes {
					if m := bootNote.FindStringSubmatch(note); m != nil {
						last = max(last, seconds(m[2]))
						booted++
					}
				}
				if booted != n {
					b.Fatalf("the machine test's notes time %d machines, want %d: %q", booted, n, res.Notes)
				}
				active = append(active, last)
			}
			b.ReportMetric(median(bare), "bare-boot-s")
			b.ReportMetric(median(bareTotal), "bare-total-s")
			b.ReportMetric(median(active), "test-active-s")
			b.ReportMetric(median(total), "test-total-s")
			b.ReportMetric(median(total)/float64(n), "test-per-machine-s")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// benchBench is what the side-by-side benchmarks share: the cached root,
// a temporary directory and a runner whose machines nodegen test's driver
// boots.
type benchBench struct {
	b      *testing.B
	tree   string
	dir    string
	runner *modtest.Runner
}

// newBenchBench skips unless machines can boot here, builds the root when
// it is not cached (before the timing starts) and a static nodegen for the
// machines.
func newBenchBench(b *testing.B) *benchBench {
	if err := machine.Available(); err != nil {
		b.Skip(err)
	}
	tree, _, err := machine.Root{}.Ensure()
	if err != nil {
		b.Fatal(err)
	}
	d := &Driver{Library: modules.FS(), Binary: nspawntest.BuildStatic(b, "./cmd/nodegen")}
	return &benchBench{b: b, tree: tree, dir: b.TempDir(), runner: &modtest.Runner{Library: modules.FS(), Machines: d}}
}

// parse writes src as the test file name and parses it.
func (bb *benchBench) parse(name, src string) *modtest.File {
	path := filepath.Join(bb.dir, name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		bb.b.Fatal(err)
	}
	f := modtest.ParseFile(path)
	if f.Diags.HasErrors() {
		bb.b.Fatal(f.Diags)
	}
	return f
}

// run runs f's first run, timed, and fails the benchmark unless it
// passed.
func (bb *benchBench) run(f *modtest.File) (*modtest.Result, float64) {
	t0 := time.Now()
	res := bb.runner.Run(f, f.Runs[0])
	secs := time.Since(t0).Seconds()
	if !res.Passed {
		bb.b.Fatalf("the machine test %s failed: %v\n%q", f.Path, res.Diags, res.Notes)
	}
	return res, secs
}

// bareBoots boots n machines of the cached root at once, each on an
// overlay, without a network (systemd-nspawn --boot until systemd reports
// the system running), then powers them off and removes their overlays.
// It returns, in seconds, the time until all n ran and the time until all
// were cleaned up.
func (bb *benchBench) bareBoots(n int) (boot, total float64) {
	b, tree, parent := bb.b, bb.tree, filepath.Join(bb.dir, "disks")
	b.Helper()
	t0 := time.Now()
	ms := make([]*machine.Machine, n)
	disks := make([]*disk, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dk, err := newDisk(tree, parent)
			if err != nil {
				errs[i] = err
				return
			}
			disks[i] = dk
			ms[i], errs[i] = machine.Boot(machine.Options{Name: "ngb-" + randomHex(6), HostName: "bare", Dir: dk.Root(), Lifetime: time.Hour, LogDir: dk.Base})
		}()
	}
	wg.Wait()
	boot = time.Since(t0).Seconds()
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ms[i] != nil {
				if err := ms[i].PowerOff(); err != nil {
					b.Error(err)
				}
			}
			if disks[i] != nil {
				if err := disks[i].remove(); err != nil {
					b.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			b.Fatal(err)
		}
	}
	return boot, time.Since(t0).Seconds()
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
