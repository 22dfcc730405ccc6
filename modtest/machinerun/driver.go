//go:build linux

package machinerun

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/internal/aptproxy"
	"github.com/nodegen/nodegen/internal/machine"
	"github.com/nodegen/nodegen/modtest"
	"github.com/nodegen/nodegen/profilecheck"
)

// Subnet is the private network of a run's machines: the gateway (the
// bridge) is .1, the machines .10, .11, ... in the order of the run's
// machines list. Each run has a network namespace of its own, so runs in
// parallel (and e2e's 10.88.0.0/24 networks) never collide.
const (
	gateway     = "10.89.0.1/24"
	firstHost   = 10
	addressBase = "10.89.0."
	// packageProxy is the run's package mirror (internal/aptproxy) on
	// the gateway, as a provider's: environment.packageProxy of every
	// machine (mkDefault), through which nodegen switch installs the
	// packages a profile lists.
	packageProxy = addressBase + "1:" + aptproxy.Port
)

// journalLines is how many of the machine's last journal lines a failed
// step reports.
const journalLines = 30

// profilesDir is where the driver copies profiles inside a machine, as a
// deployer would.
const profilesDir = "/root/nodegen-test/profiles"

// Driver runs machine runs (modtest.MachineDriver).
type Driver struct {
	// Library is the module library machines are evaluated with.
	Library fs.FS
	// Binary is the static nodegen executable copied into every machine;
	// when "", the first machine run finds it with StaticBinary from
	// Executable (the running command).
	Binary     string
	Executable string
	binaryOnce sync.Once
	binaryErr  error
	// Context, when cancelled (Ctrl-C), ends the runs: the step under
	// way stops and the machines are cleaned up. nil means never.
	Context context.Context
	// CacheDir is where the roots are cached (machine.Root.CacheDir);
	// "" is the default.
	CacheDir string
	// Checks says which checks of the profiles' files run on the host
	// before a profile goes to a machine (sshd -t, ...).
	Checks profilecheck.Mode
	// Keep leaves the machines running after the run, recorded in
	// StateDir, and a later run of the same test switches them instead
	// of booting new ones.
	Keep bool
	// PackageCache is where the run's package proxy keeps the Debian
	// packages and indexes it fetched, shared by runs (a provider's
	// mirror); "" means the directory apt in CacheDir's directory.
	PackageCache string
	// StateDir is where kept machines are recorded and disks live; ""
	// means /var/tmp/nodegen-machines.
	StateDir string
	// Logf, when set, receives progress lines.
	Logf func(format string, args ...any)
	// Unavailable, when set, is why machines cannot boot here: a run
	// still builds its machines' profiles, so that their errors are
	// reported, and is then skipped with this reason, or fails when
	// UnavailableFails (CI).
	Unavailable      string
	UnavailableFails bool
}

func (d *Driver) ctx() context.Context {
	if d.Context == nil {
		return context.Background()
	}
	return d.Context
}

func (d *Driver) stateDir() string {
	if d.StateDir != "" {
		return d.StateDir
	}
	return "/var/tmp/nodegen-machines"
}

func (d *Driver) logf(format string, args ...any) {
	if d.Logf != nil {
		d.Logf(format, args...)
	}
}

// node is one machine of a run.
type node struct {
	name   string // the machine block's name, its host name
	addr   string
	block  *modtest.Machine
	base   *built            // the machine block's profile
	config map[string]*built // the configurations' profiles by name
	m      *machine.Machine
	disk   *disk
	kept   bool // adopted from a kept run, not booted here
	// booted and active are the times from the start of its boot to
	// systemd running, and to its profile active.
	booted, active time.Duration
}

// run is the state of one machine run.
type run struct {
	d     *Driver
	f     *modtest.File
	r     *modtest.Run
	res   *modtest.Result
	tmp   string // the profiles, on the host
	nodes []*node
	net   *machine.Network
	proxy *aptproxy.Proxy
	// stopProxy stops the package proxy; nil when none runs.
	stopProxy func()
	root      machine.Root
	id        string
	kept      *keptRun // the kept machines this run adopted, or nil
}

// RunMachines boots the machines of r, drives its steps and cleans up.
func (d *Driver) RunMachines(f *modtest.File, r *modtest.Run) *modtest.Result {
	start := time.Now()
	res := &modtest.Result{File: f.Path, Name: r.Name, Range: r.Block.DefRange(), Files: map[string]*hcl.File{f.Path: f.HCL}}
	rn := &run{d: d, f: f, r: r, res: res, id: randomHex(4)}
	defer func() {
		t0 := time.Now()
		rn.cleanup()
		res.Notes = append(res.Notes, fmt.Sprintf("cleaned up in %s; total %s", since(t0), since(start)))
	}()
	if err := d.ctx().Err(); err != nil {
		rn.fail(r.Block.DefRange(), "Interrupted", "The run did not start: "+err.Error())
		return res
	}
	tmp, err := os.MkdirTemp("", "nodegen-machinerun-")
	if err != nil {
		rn.fail(r.Block.DefRange(), "Cannot run machines", err.Error())
		return res
	}
	rn.tmp = tmp
	t0 := time.Now()
	if !rn.buildProfiles() {
		return res
	}
	rn.note("profiles built in %s", since(t0))
	if d.Unavailable != "" {
		return modtest.MachinesUnavailable(r, res, d.Unavailable, d.UnavailableFails)
	}
	d.binaryOnce.Do(func() {
		if d.Binary == "" {
			t0 := time.Now()
			d.Binary, d.binaryErr = StaticBinary(d.Executable, machine.Root{CacheDir: d.CacheDir}.Dir())
			if d.binaryErr == nil && d.Binary != d.Executable {
				d.logf("nodegen test: %s is not static; using %s (found or built in %s)", d.Executable, d.Binary, since(t0))
			}
		}
	})
	if d.binaryErr != nil {
		rn.fail(r.Block.DefRange(), "No nodegen for the machines", d.binaryErr.Error())
		return res
	}
	if !rn.start() {
		return res
	}
	for _, s := range r.Steps {
		if err := d.ctx().Err(); err != nil {
			rn.fail(s.Range(), "Interrupted", fmt.Sprintf("%s: not run: %v.", s, err))
			return res
		}
		if !rn.step(s) {
			return res
		}
	}
	res.Passed = !res.Diags.HasErrors()
	return res
}

// fail adds an error at rng.
func (rn *run) fail(rng hcl.Range, summary, detail string) {
	rn.res.Diags = append(rn.res.Diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   detail,
		Subject:  rng.Ptr(),
	})
	rn.res.Passed = false
}

// buildProfiles evaluates every machine of the run and the
// configurations its switch steps name. A machine whose profile cannot be
// built fails the run with the evaluation's errors; a configuration's
// errors are kept for its switch step.
func (rn *run) buildProfiles() bool {
	addrs := map[string]string{}
	for i, name := range rn.r.Machines {
		addrs[name] = fmt.Sprintf("%s%d", addressBase, firstHost+i)
	}
	ok := true
	for _, name := range rn.r.Machines {
		n := &node{name: name, addr: addrs[name], block: rn.f.Machine(name), config: map[string]*built{}}
		rn.nodes = append(rn.nodes, n)
		n.base = buildProfile(rn.d.Library, rn.d.Checks, rn.f, n.block.Body, name, addrs, filepath.Join(rn.tmp, name))
		rn.addFiles(n.base)
		if n.base.Diags.HasErrors() {
			ok = false
			rn.fail(n.block.Block.DefRange(), "Cannot build the machine's profile", fmt.Sprintf("The profile of the machine %q cannot be built; the errors follow.", name))
			rn.res.Diags = append(rn.res.Diags, n.base.Diags...)
		}
	}
	if !ok {
		return false
	}
	for _, s := range rn.r.Steps {
		if s.Action != modtest.Switch {
			continue
		}
		n := rn.node(s.Machine)
		if _, done := n.config[s.Arg]; done {
			continue
		}
		c := rn.f.Configuration(s.Arg)
		b := buildProfile(rn.d.Library, rn.d.Checks, rn.f, c.Body, n.name, rn.addrs(), filepath.Join(rn.tmp, n.name+"-"+c.Name))
		rn.addFiles(b)
		n.config[s.Arg] = b
	}
	return true
}

func (rn *run) addFiles(b *built) {
	for name, file := range b.Files {
		rn.res.Files[name] = file
	}
}

func (rn *run) addrs() map[string]string {
	out := map[string]string{}
	for _, n := range rn.nodes {
		out[n.name] = n.addr
	}
	return out
}

func (rn *run) node(name string) *node {
	for _, n := range rn.nodes {
		if n.name == name {
			return n
		}
	}
	return nil
}

// start gets the machines up with their profiles active: kept machines of
// an earlier run of this test are switched; otherwise new ones boot.
func (rn *run) start() bool {
	// The stock root, as a provider's image: the packages the profiles
	// list are installed by nodegen switch in the machine, through the
	// run's package proxy.
	rn.root = machine.Root{CacheDir: rn.d.CacheDir}
	if rn.adoptKept() {
		// The kept network is back; its proxy went with the run before.
		return rn.serveProxy() && rn.switchAll()
	}
	t0 := time.Now()
	tree, built, err := rn.root.Ensure()
	if err != nil {
		rn.fail(rn.r.Block.DefRange(), "Cannot make the machines' root", err.Error())
		return false
	}
	if built {
		rn.res.Notes = append(rn.res.Notes, fmt.Sprintf("built the root %s in %s", filepath.Base(tree), since(t0)))
	}
	rn.net, err = machine.NewNetwork(gateway, lifetime(rn.d.Keep))
	if err != nil {
		rn.fail(rn.r.Block.DefRange(), "Cannot make the machines' network", err.Error())
		return false
	}
	if !rn.serveProxy() {
		return false
	}
	var wg sync.WaitGroup
	errs := make([]error, len(rn.nodes))
	for i, n := range rn.nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = rn.bootNode(n, tree)
		}()
	}
	wg.Wait()
	for i, n := range rn.nodes {
		if errs[i] == nil {
			rn.note("%s: booted in %s, profile active in %s", n.name, round(n.booted), round(n.active))
		}
		if errs[i] != nil {
			rn.fail(n.block.Block.DefRange(), "Machine did not come up", fmt.Sprintf("The machine %q: %v", n.name, errs[i]))
		}
	}
	return !rn.res.Diags.HasErrors()
}

// serveProxy serves the run's package proxy on the gateway of its
// network, caching in the driver's PackageCache; false, with the run
// failed, when it cannot.
func (rn *run) serveProxy() bool {
	dir := rn.d.PackageCache
	if dir == "" {
		dir = filepath.Join(machine.Root{CacheDir: rn.d.CacheDir}.Dir(), "apt")
	}
	p, err := aptproxy.New(dir, func(s string) { rn.note("%s", s) })
	var ln net.Listener
	if err == nil {
		ln, err = rn.net.Listen(packageProxy)
	}
	if err != nil {
		rn.fail(rn.r.Block.DefRange(), "Cannot serve the machines' package proxy", err.Error())
		return false
	}
	rn.proxy, rn.stopProxy = p, p.Serve(ln)
	return true
}

// bootNode boots n from an overlay of tree, attaches it to the network,
// copies nodegen and the profile in and switches.
func (rn *run) bootNode(n *node, tree string) error {
	t0 := time.Now()
	var err error
	n.disk, err = newDisk(tree, filepath.Join(rn.d.stateDir(), "disks"))
	if err != nil {
		return err
	}
	if err := rn.boot(n); err != nil {
		return err
	}
	booted := time.Since(t0)
	if err := n.m.WriteFile("/usr/local/bin/nodegen", mustRead(rn.d.Binary), 0o755); err != nil {
		return err
	}
	if out, err := rn.switchTo(n, n.base, "base"); err != nil {
		return fmt.Errorf("%v\n%s\n%s", err, out, rn.journal(n))
	}
	n.booted, n.active = booted, time.Since(t0)
	return nil
}

// boot boots n's disk and attaches it to the network.
func (rn *run) boot(n *node) error {
	var err error
	n.m, err = machine.Boot(machine.Options{
		Name:     machineName(rn.id, n.name),
		HostName: n.name,
		Dir:      n.disk.Root(),
		Lifetime: lifetime(rn.d.Keep),
		LogDir:   n.disk.Base,
		Logf:     rn.d.Logf,
		// The run's network has no DNS server, and the root's
		// resolv.conf is the build host's (debootstrap copies it),
		// naming a server no machine reaches: every lookup that got to
		// DNS (getent hosts's IPv6 query of a name /etc/hosts gives
		// only an IPv4 address) would wait out the resolver's 2 x 5 s.
		// As a provider's network configures the resolver it offers,
		// the run configures none: glibc then asks 127.0.0.1, which
		// refuses at once, and names resolve from /etc/hosts alone.
		ResolvConf: "delete",
	})
	if err != nil {
		return err
	}
	return rn.net.Attach(n.m, n.addr)
}

// machineName is the machine's unique name on the host (its cgroups'):
// "ngm-", the run's id and the machine block's name, cut to fit.
func machineName(id, name string) string {
	clean := regexp.MustCompile(`[^a-zA-Z0-9-]+`).ReplaceAllString(name, "-")
	s := "ngm-" + id + "-" + clean
	if len(s) > 60 {
		s = s[:60]
	}
	return strings.TrimRight(s, "-")
}

var noteMu sync.Mutex

func (rn *run) note(format string, args ...any) {
	noteMu.Lock()
	defer noteMu.Unlock()
	rn.res.Notes = append(rn.res.Notes, fmt.Sprintf(format, args...))
}

// switchTo copies the profile b into n (as profilesDir/NAME) and runs
// nodegen switch there; it returns the switch's output.
func (rn *run) switchTo(n *node, b *built, name string) (string, error) {
	dst := profilesDir + "/" + name
	tarCmd := exec.CommandContext(rn.d.ctx(), "tar", "-C", b.Dir, "-cf", "-", ".")
	pipe, err := tarCmd.StdoutPipe()
	if err != nil {
		return "", err
	}
	if err := tarCmd.Start(); err != nil {
		return "", err
	}
	_, stderr, code, err := n.m.RunInput(pipe, time.Minute, "sh", "-c", `rm -rf -- "$1" && mkdir -p -- "$1" && tar -C "$1" -xf -`, "sh", dst)
	if werr := tarCmd.Wait(); err == nil && werr != nil {
		err = fmt.Errorf("tar of %s: %v", b.Dir, werr)
	}
	if err == nil && code != 0 {
		err = fmt.Errorf("copying the profile into %s: exit code %d: %s", n.name, code, stderr)
	}
	if err != nil {
		return "", err
	}
	// A plain switch, as the docs tell an operator: the stock machine's
	// own files in the profile's way (a package's unmodified
	// sshd_config, its unit aliases, the resolver) are taken over by
	// switch's stock-file policy, anything else is refused.
	stdout, stderr, code, err := n.m.RunFor(5*time.Minute, append([]string{"nodegen", "switch"}, append(unitWait, dst)...)...)
	out := stdout + stderr
	if err == nil && code != 0 {
		err = fmt.Errorf("nodegen switch %s exited %d", dst, code)
	}
	return out, err
}

// unitWait are the flags of the driver's switches and rollbacks: units
// are read 200 ms after their jobs are done, and a service is up once it
// kept running for 1 s, not the 1 s and 3 s an operator's switch waits. A
// machine test waits for what it needs with its own steps (wait_for_unit
// fails at once on a failed unit), so the switch need not.
var unitWait = []string{"--settle=200ms", "--stable=1s"}

// journal returns the machine's last journal lines, as a section of a
// failure's detail.
func (rn *run) journal(n *node) string {
	j, err := n.m.Journal("", journalLines)
	if err != nil {
		j = err.Error()
	}
	return fmt.Sprintf("Last %d journal lines of %s:\n%s", journalLines, n.name, strings.TrimRight(j, "\n"))
}

// cleanup stops the run's package proxy (a kept run's next run serves its
// own), then powers the machines off, removes their disks and the network,
// unless they are kept.
func (rn *run) cleanup() {
	if rn.stopProxy != nil {
		rn.stopProxy()
		rn.stopProxy = nil
		rn.note("package proxy: %s", rn.proxy.Summary())
	}
	if rn.d.Keep {
		if rn.keep() {
			return
		}
	}
	var wg sync.WaitGroup
	for _, n := range rn.nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if n.m != nil {
				if err := n.m.PowerOff(); err != nil {
					rn.d.logf("%s: %v", n.name, err)
				}
			}
			if n.disk != nil {
				if err := n.disk.remove(); err != nil {
					rn.d.logf("%s: %v", n.name, err)
				}
			}
		}()
	}
	wg.Wait()
	if rn.net != nil {
		rn.net.Close()
	}
	if rn.kept != nil {
		rn.kept.forget()
	}
	if rn.tmp != "" {
		os.RemoveAll(rn.tmp)
	}
}

// lifetime bounds the machines' life should the driver die: kept
// machines live a day, others an hour.
func lifetime(keep bool) time.Duration {
	if keep {
		return 24 * time.Hour
	}
	return time.Hour
}

func mustRead(path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return b
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func since(t time.Time) string { return round(time.Since(t)) }

func round(d time.Duration) string {
	if d < 10*time.Second {
		return d.Round(10 * time.Millisecond).String()
	}
	return d.Round(100 * time.Millisecond).String()
}
