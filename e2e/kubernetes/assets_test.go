package kubernetes

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

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

// cacheDir is where the Kubernetes binaries, the node's root file system
// and the image are cached: $NODEGEN_K8S_CACHE, else
// /var/cache/nodegen-e2e/kubernetes.
func cacheDir() string {
	if dir := os.Getenv("NODEGEN_K8S_CACHE"); dir != "" {
		return dir
	}
	return "/var/cache/nodegen-e2e/kubernetes"
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
	dir := filepath.Join(cacheDir(), version, "bin")
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
		CacheDir: filepath.Join(cacheDir(), "rootfs"),
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

// imageTags are the references of the image: the pod sandbox and the
// workload are the same program.
var imageTags = []string{"k8s-e2e.local/pause:1", "k8s-e2e.local/sleeper:1"}

var imageBuild struct {
	once sync.Once
	path string
	err  error
}

// image returns the path of the image tarball (image/: the sleeper
// program in a one-layer image tagged imageTags), building it into the
// cache when it is missing: CACHE/image-HASH.tar, HASH of image/'s files.
func image(t testing.TB) string {
	t.Helper()
	imageBuild.once.Do(func() { imageBuild.path, imageBuild.err = buildImage() })
	if imageBuild.err != nil {
		t.Fatalf("building the image: %v", imageBuild.err)
	}
	return imageBuild.path
}

// buildImage builds the image tarball unless it is cached.
func buildImage() (string, error) {
	return cachedImage("image", func(src, tmp, mkimage string) error {
		sleeper := filepath.Join(tmp, "sleeper")
		if err := run(src, []string{"CGO_ENABLED=0", "GOWORK=off", "GOFLAGS="}, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", sleeper, "./sleeper"); err != nil {
			return err
		}
		args := []string{"-bin", sleeper, "-out", filepath.Join(tmp, "image.tar")}
		for _, tag := range imageTags {
			args = append(args, "-tag", tag)
		}
		return run(tmp, nil, mkimage, args...)
	})
}

// cachedImage returns CACHE/NAME-HASH.tar, HASH of image/'s files, making
// it when it is missing: build gets image/'s path, a temporary directory
// and image/mkimage built into it, and writes image.tar there, which is
// then renamed into place (a tarball in the cache is always whole).
func cachedImage(name string, build func(src, tmp, mkimage string) error) (string, error) {
	src, err := filepath.Abs("image")
	if err != nil {
		return "", err
	}
	sum, err := treeHash(src)
	if err != nil {
		return "", err
	}
	out := filepath.Join(cacheDir(), name+"-"+sum+".tar")
	if _, err := os.Stat(out); err == nil {
		return out, nil
	}
	if err := os.MkdirAll(cacheDir(), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(cacheDir(), "image-build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	mkimage := filepath.Join(tmp, "mkimage")
	if err := run(src, []string{"CGO_ENABLED=0", "GOWORK=off", "GOFLAGS="}, "go", "build", "-o", mkimage, "./mkimage"); err != nil {
		return "", err
	}
	if err := build(src, tmp, mkimage); err != nil {
		return "", err
	}
	return out, os.Rename(filepath.Join(tmp, "image.tar"), out)
}

// treeHash hashes the names and contents of the regular files below dir.
func treeHash(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(h, "%s %d\n", rel, len(data))
		h.Write(data)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:12], err
}

// run runs a command in dir with env added to this process's environment,
// killed after ten minutes, and returns an error with its output unless it
// succeeds.
func run(dir string, env []string, name string, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 10 * time.Second
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return nil
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
	bin := filepath.Join(cacheDir(), "coredns-"+corednsVersion, "coredns")
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
	return cachedImage("coredns-"+corednsVersion+"-image", func(_, tmp, mkimage string) error {
		return run(tmp, nil, mkimage, "-bin", bin, "-name", "coredns", "-out", filepath.Join(tmp, "image.tar"), "-tag", corednsTag)
	})
}
