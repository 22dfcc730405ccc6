//go:build linux

package stock

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nodegen/nodegen/e2e/internal/k8se2e"
	"github.com/nodegen/nodegen/internal/nspawntest"
)

// Paths in a host, as the library lays them out.
const (
	kubectlPath     = "/opt/kubernetes/bin/kubectl"              // services.kubernetes.package's bin/kubectl
	adminKubeconfig = "/etc/kubernetes/cluster-admin.kubeconfig" // the master's, with cluster-admin rights (easyCerts)
	apiToken        = "/var/lib/kubernetes/secrets/apitoken.secret"
)

// kubeUnits are the units whose journals a failure shows, in start order.
var kubeUnits = []string{
	"nspawn-node-prep", "cfssl", "cfssl-online", "kube-certs", "etcd", "containerd",
	"kube-apiserver-lb", "kube-service-account-key",
	"kube-apiserver", "kube-apiserver-online", "kube-controller-manager",
	"kube-scheduler", "kubelet", "kube-proxy", "kube-addon-manager",
}

// stockRoot is the machines' root file system: Debian bookworm as
// debootstrap installs it (nspawntest's default root), with OpenSSH's
// server and Debian's containerd package, as a provider's image has them,
// and nothing else changed: their units enabled, their configuration
// files as shipped. The other packages the profiles list are not there:
// nodegen switch installs them with apt-get, through the package proxy a
// provider gives (environment.packageProxy, the test's internal/aptproxy).
func stockRoot() nspawntest.Root {
	return nspawntest.Root{
		Packages: []string{"containerd", "openssh-server"},
		CacheDir: filepath.Join(k8se2e.CacheDir(), "rootfs"),
	}
}

// host is a machine booted from the stock root, attached to the test
// network at address.
type host struct {
	*nspawntest.Machine
	name, address string
	t             *testing.T
	tl            *timeline
	d             *deployer
}

// bootHost boots a machine from root as a cloud provider boots a VM: a
// network (address on the test network) and the deployer's SSH key for
// root. What a container needs besides, and a VM does not: no system call
// filter (runc needs keyctl), every capability, cgroups of its own in
// every cgroup v1 hierarchy, /dev/kmsg (the kubelet's OOM watcher), and
// /var/lib/containerd, /var/lib/kubernetes and /var/log/pods on the
// host's disk (containerd's overlayfs snapshots cannot sit on the
// machine's overlay root; cAdvisor wants a real file system behind the
// kubelet's directory). When the test fails, the state and journal of
// every Kubernetes unit are logged.
func bootHost(t *testing.T, tl *timeline, d *deployer, root nspawntest.Root, name, address string) *host {
	t.Helper()
	m := nspawntest.Boot(t, k8se2e.BootOptions(t, root))
	h := &host{Machine: m, name: name, address: address, t: t, tl: tl, d: d}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("%s (%s):\n%s", name, m.Name(), h.journals(40))
		}
		// The apiserver's clients go first: its graceful shutdown waits
		// for their watches.
		h.Run("systemctl", "stop", "kubelet", "kube-proxy", "kube-controller-manager", "kube-scheduler", "kube-addon-manager")
	})
	m.WriteFile("/root/.ssh/authorized_keys", d.pub, 0o600)
	m.MustRun("chmod", "700", "/root/.ssh")
	d.network.Attach(m, address)
	h.poll("sshd answers", 30*time.Second, func() (bool, string) {
		r := d.ssh(address, nil, "true")
		return r.code == 0, fmt.Sprintf("ssh exit %d: %s", r.code, r.stderr)
	})
	return h
}

// requireStock fails the test unless the machine is as the stock root
// made it: /etc/hostname as the installer wrote it, Debian's containerd
// configuration file as its package shipped it, and none of the packages
// absent installed. It marks which of the profiles' packages wanted
// the machine lacks.
func (h *host) requireStock(wanted, absent []string) {
	h.t.Helper()
	var missing []string
	for _, p := range wanted {
		if !h.installed(p) {
			missing = append(missing, p)
		}
	}
	h.tl.mark(fmt.Sprintf("%s: packages the profiles list that the stock machine lacks: %s", h.name, strings.Join(missing, " ")))
	for _, p := range absent {
		if h.installed(p) {
			h.t.Fatalf("%s: the stock root has package %s installed, which nodegen switch is to install", h.name, p)
		}
	}
	if _, _, code, err := h.Run("test", "-s", "/etc/hostname"); err != nil || code != 0 {
		h.t.Fatalf("%s: the stock root has no /etc/hostname, which every installed Debian system has: nspawntest's root build removes it (internal/nspawntest/rootfs.go); issue 35 part 1 has it kept and taken over by nodegen switch", h.name)
	}
	if out, _, code, err := h.Run("dpkg", "--verify", "containerd"); err != nil || code != 0 || strings.TrimSpace(out) != "" {
		h.t.Fatalf("%s: Debian's containerd package is not as installed (dpkg --verify: exit %d, %v):\n%s", h.name, code, err, out)
	}
	states, _, _, _ := h.Run("systemctl", "is-active", "ssh.service", "containerd.service", "etcd.service")
	h.tl.mark(fmt.Sprintf("%s: stock machine %s up at %s, /etc/hostname %q, ssh/containerd/etcd %s", h.name, h.Name(), h.address,
		strings.TrimSpace(h.MustRun("cat", "/etc/hostname")), strings.Join(strings.Fields(states), "/")))
}

// poll calls check every half second until it reports done, then marks
// what on the timeline; after timeout it fails the test with check's
// last word on why it was not done.
func (h *host) poll(what string, timeout time.Duration, check func() (done bool, why string)) {
	h.t.Helper()
	poll(h.t, h.tl, h.name+": "+what, timeout, check)
}

// poll is host.poll for anything.
func poll(t *testing.T, tl *timeline, what string, timeout time.Duration, check func() (done bool, why string)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		done, why := check()
		if done {
			tl.mark(what)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s: %s", what, timeout, why)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// journals returns the state and last lines of the journal of each
// Kubernetes unit that the machine has, and nodegen status.
func (h *host) journals(lines int) string {
	var b strings.Builder
	status, _, _, _ := h.Run("sh", "-c", `for f in /var/lib/nodegen/deploy/nodegen-*; do "$f" status; break; done`)
	fmt.Fprintf(&b, "---- nodegen status:\n%s", status)
	for _, unit := range kubeUnits {
		state, _, _, err := h.Run("systemctl", "show", "-P", "LoadState,ActiveState,SubState,Result", unit+".service")
		if err != nil || strings.Contains(state, "not-found") {
			continue
		}
		journal, _, _, _ := h.Run("journalctl", "-u", unit, "-n", fmt.Sprint(lines), "--no-pager", "-o", "cat")
		fmt.Fprintf(&b, "---- %s: %s\n%s", unit, strings.Join(strings.Fields(state), " "), journal)
	}
	return b.String()
}

// invocations returns the InvocationID of every active service of the
// machine, by unit name, but for the units of the deployer's SSH logins
// (user@UID, user-runtime-dir@UID) and nodegen's own transient rollback
// units, which each deploy starts.
func (h *host) invocations() map[string]string {
	h.t.Helper()
	list := h.MustRun("systemctl", "list-units", "--type=service", "--state=active", "--no-legend", "--plain")
	var units []string
	for _, line := range strings.Split(list, "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		u := fields[0]
		if strings.HasPrefix(u, "user@") || strings.HasPrefix(u, "user-runtime-dir@") || strings.HasPrefix(u, "nodegen-") {
			continue
		}
		units = append(units, u)
	}
	ids := map[string]string{}
	if len(units) == 0 {
		return ids
	}
	out := h.MustRun(append([]string{"systemctl", "show", "-p", "Id", "-p", "InvocationID"}, units...)...)
	for _, block := range strings.Split(out, "\n\n") {
		var id, inv string
		for _, line := range strings.Split(block, "\n") {
			if v, ok := strings.CutPrefix(line, "Id="); ok {
				id = v
			}
			if v, ok := strings.CutPrefix(line, "InvocationID="); ok {
				inv = v
			}
		}
		if id != "" {
			ids[id] = inv
		}
	}
	return ids
}

// restartedSince returns the units of before that are active now with
// another InvocationID (restarted) or are not active any more (stopped),
// sorted.
func (h *host) restartedSince(before map[string]string) []string {
	h.t.Helper()
	now := h.invocations()
	var changed []string
	for unit, id := range before {
		if now[unit] != id {
			changed = append(changed, unit)
		}
	}
	slices.Sort(changed)
	return changed
}

// generation returns the machine's active generation, as its nodegen
// says (0: none).
func (h *host) generation() int {
	h.t.Helper()
	out, stderr, code, err := h.Run("sh", "-c", `for f in /var/lib/nodegen/deploy/nodegen-*; do exec "$f" generations --json; done`)
	if err != nil || code != 0 {
		h.t.Fatalf("%s: nodegen generations: exit %d, %v: %s", h.name, code, err, stderr)
	}
	var gens []struct {
		Number  int  `json:"number"`
		Current bool `json:"current"`
	}
	if err := json.Unmarshal([]byte(out), &gens); err != nil {
		h.t.Fatalf("%s: nodegen generations --json: %v\n%s", h.name, err, out)
	}
	for _, g := range gens {
		if g.Current {
			return g.Number
		}
	}
	return 0
}

// requireNoFailedUnits fails the test when a unit of the machine failed.
func (h *host) requireNoFailedUnits() {
	h.t.Helper()
	if out := h.MustRun("systemctl", "list-units", "--state=failed", "--no-legend", "--plain"); strings.TrimSpace(out) != "" {
		h.t.Errorf("%s: units failed in %s:\n%s", h.name, h.Name(), out)
	}
}

// requireInstalledBySwitch fails the test unless nodegen switch's
// apt-get installed packages on the machine (apt's history.log names its
// command line), and marks how many and how long it took on the timeline.
func (h *host) requireInstalledBySwitch() {
	h.t.Helper()
	log, _, _, _ := h.Run("cat", "/var/log/apt/history.log")
	runs := aptHistory(log)
	if len(runs) == 0 {
		h.t.Fatalf("%s: apt's history.log has no install by nodegen switch:\n%s", h.name, log)
	}
	for _, r := range runs {
		h.tl.mark(fmt.Sprintf("%s: nodegen switch's apt-get installed %d packages (%d asked for, the rest their dependencies) in %s: %s",
			h.name, r.installed, r.asked, r.took, strings.Join(r.names, " ")))
	}
}

// aptRun is an apt-get install of apt's history.log.
type aptRun struct {
	asked, installed int
	names            []string // the packages asked for
	took             time.Duration
}

// aptHistory returns the installs of apt's history.log that nodegen
// switch ran (apt-get ... install -y --no-install-recommends -- NAMES).
func aptHistory(log string) []aptRun {
	var runs []aptRun
	for _, entry := range strings.Split(log, "\n\n") {
		var r aptRun
		var start, end time.Time
		ours := false
		for _, line := range strings.Split(entry, "\n") {
			key, value, _ := strings.Cut(line, ": ")
			switch key {
			case "Start-Date":
				start, _ = time.Parse("2006-01-02  15:04:05", value)
			case "End-Date":
				end, _ = time.Parse("2006-01-02  15:04:05", value)
			case "Commandline":
				if _, names, ok := strings.Cut(value, " install -y --no-install-recommends -- "); ok {
					ours = true
					r.names = strings.Fields(names)
					r.asked = len(r.names)
				}
			case "Install":
				r.installed = len(strings.Split(value, "), "))
			}
		}
		if ours {
			r.took = end.Sub(start)
			runs = append(runs, r)
		}
	}
	return runs
}

// installed reports whether dpkg has the package installed.
func (h *host) installed(pkg string) bool {
	out, _, _, _ := h.Run("dpkg-query", "-W", "-f=${db:Status-Abbrev}", pkg)
	return strings.HasPrefix(out, "ii")
}
