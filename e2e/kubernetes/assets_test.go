//go:build linux

package kubernetes

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/nodegen/nodegen/e2e/internal/k8se2e"
	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/evalprofile"
	"github.com/nodegen/nodegen/internal/nspawntest"
	"github.com/nodegen/nodegen/internal/suitereport"
	"github.com/nodegen/nodegen/modules"
	"github.com/nodegen/nodegen/profile"
)

// version is the Kubernetes release the tests run.
const version = "v1.37.2"

// programs are the binaries of a release that the tests need, whose flags
// TestFlagsAccepted checks.
var programs = []string{"kube-apiserver", "kube-controller-manager", "kube-scheduler", "kubelet", "kube-proxy", "kubectl"}

// addonManager is the addon manager's script, from the release's source
// (build-k8s.sh puts it beside the binaries); it takes no flags.
const addonManager = "kube-addons"

// rootPackages are the Debian packages of a node's root file system, on
// top of nspawntest's default root: the container runtime and its CNI
// plugins, etcd, and the tools the units and the test use. Every package a
// switched profile asks for is added to them (nodeRoot): the machine has
// no network, so nodegen switch must find them installed.
var rootPackages = []string{
	"containerd", "runc", "containernetworking-plugins", "iptables", "conntrack",
	"etcd-server", "etcd-client", "golang-cfssl", "iproute2", "kmod",
	"ca-certificates", "ethtool", "socat", "curl",
}

// suite is how make test's list of suites names these tests
// (internal/suitereport).
const suite = "Kubernetes " + version + " programs and clusters (e2e/kubernetes)"

// binaries returns the directory of the cached Kubernetes binaries
// (CACHE/VERSION/bin). When one is missing it skips t, or fails it under
// CI (where .ci/run builds them, about 17 minutes: make
// e2e-kubernetes-build).
func binaries(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(k8se2e.CacheDir(), version, "bin")
	var missing []string
	for _, p := range append(slices.Clone(programs), addonManager) {
		if info, err := os.Stat(filepath.Join(dir, p)); err != nil || info.Mode()&0o111 == 0 {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		suitereport.Skip(t, suite, fmt.Sprintf("no %s binaries (%s) in %s; make e2e-kubernetes-build builds them", version, strings.Join(missing, ", "), dir))
	}
	suitereport.Ran(t, suite)
	return dir
}

// nodeRoot describes a node's root file system: rootPackages and the
// packages of the profiles, with the daemons Debian enables at boot
// disabled (the profiles configure and start them), cached in
// CACHE/rootfs.
func nodeRoot(profiles ...profile.Profile) nspawntest.Root {
	packages := slices.Clone(rootPackages)
	for _, p := range profiles {
		for _, pkg := range p.Packages {
			packages = append(packages, pkg.Name)
		}
	}
	sort.Strings(packages)
	return nspawntest.Root{
		Packages: slices.Compact(packages),
		Disable:  []string{"containerd.service", "etcd.service"},
		CacheDir: filepath.Join(k8se2e.CacheDir(), "rootfs"),
	}
}

// evaluate evaluates host files with the module library, as nodegen eval
// does, and fails t on errors.
func evaluate(t testing.TB, files ...string) profile.Profile {
	t.Helper()
	ev, diags := eval.New(eval.Config{Files: files, Library: modules.FS()})
	if diags.HasErrors() {
		t.Fatalf("%s: %s", strings.Join(files, " "), diags.Error())
	}
	p, diags := evalprofile.Build(ev)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", strings.Join(files, " "), diags.Error())
	}
	return p
}

// writeProfile writes p into a new temporary directory and returns it.
func writeProfile(t testing.TB, p profile.Profile) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "profile")
	if err := profile.Write(dir, p); err != nil {
		t.Fatal(err)
	}
	return dir
}

// corednsVersion is the CoreDNS scripts/build-coredns.sh builds into
// CACHE/coredns-VERSION/coredns.
const corednsVersion = "v1.15.0"

// corednsTag is the reference of the CoreDNS image the DNS test imports.
const corednsTag = "k8s-e2e.local/coredns:1"

var corednsBuild struct {
	once sync.Once
	path string
	err  error
}

// corednsImage returns the path of an image tarball of the cached CoreDNS
// (tagged corednsTag), made with image/mkimage into the cache when it is
// missing; it skips t (fails it under CI) when CoreDNS is not built (make
// e2e-kubernetes-build).
func corednsImage(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(k8se2e.CacheDir(), "coredns-"+corednsVersion, "coredns")
	if info, err := os.Stat(bin); err != nil || info.Mode()&0o111 == 0 {
		suitereport.Skip(t, suite, "no CoreDNS in "+filepath.Dir(bin)+"; make e2e-kubernetes-build builds it")
	}
	corednsBuild.once.Do(func() { corednsBuild.path, corednsBuild.err = buildCorednsImage(bin) })
	if corednsBuild.err != nil {
		t.Fatalf("building the CoreDNS image: %v", corednsBuild.err)
	}
	return corednsBuild.path
}

// buildCorednsImage wraps bin into an image tarball unless it is cached.
func buildCorednsImage(bin string) (string, error) {
	return k8se2e.CachedImage("coredns-"+corednsVersion+"-image", func(_, tmp, mkimage string) error {
		return k8se2e.Run(tmp, nil, mkimage, "-bin", bin, "-name", "coredns", "-out", filepath.Join(tmp, "image.tar"), "-tag", corednsTag)
	})
}
