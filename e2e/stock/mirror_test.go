package stock

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/nspawntest"
)

// version is the Kubernetes release the cluster runs (the library's
// default, services.kubernetes.release.version).
const version = "v1.37.2"

// The tarballs of a release, as dl.k8s.io/VERSION/ has them, and the
// binaries each holds (binaries.hcl unpacks these members).
var releaseTarballs = []struct {
	name    string
	members map[string]string // member → file of the binaries' directory
}{
	{"kubernetes-server-linux-amd64.tar.gz", map[string]string{
		"kubernetes/server/bin/kube-apiserver":          "kube-apiserver",
		"kubernetes/server/bin/kube-controller-manager": "kube-controller-manager",
		"kubernetes/server/bin/kube-scheduler":          "kube-scheduler",
		"kubernetes/server/bin/kubelet":                 "kubelet",
		"kubernetes/server/bin/kube-proxy":              "kube-proxy",
		"kubernetes/server/bin/kubectl":                 "kubectl",
	}},
	{"kubernetes-node-linux-amd64.tar.gz", map[string]string{
		"kubernetes/node/bin/kubelet":    "kubelet",
		"kubernetes/node/bin/kube-proxy": "kube-proxy",
		"kubernetes/node/bin/kubectl":    "kubectl",
	}},
	// The source tarball's addon manager, as build-k8s.sh copies it from
	// the release's source (kube-addons is kube-addons-main.sh).
	{"kubernetes-src.tar.gz", map[string]string{
		"cluster/addons/addon-manager/kube-addons-main.sh": "kube-addons",
		"cluster/addons/addon-manager/kube-addons.sh":      "kube-addons.sh",
	}},
}

// imageTags are the references of the image archive's one image (the
// sleeper program of e2e/kubernetes/image): the pod sandbox that
// testdata/walkthrough/common.hcl names, and the workload.
var imageTags = []string{"k8s-e2e.local/pause:1", "k8s-e2e.local/sleeper:1"}

// cacheDir is where the Kubernetes binaries are cached, as e2e/kubernetes
// has it: $NODEGEN_K8S_CACHE, else /var/cache/nodegen-e2e/kubernetes.
func cacheDir() string {
	if dir := os.Getenv("NODEGEN_K8S_CACHE"); dir != "" {
		return dir
	}
	return "/var/cache/nodegen-e2e/kubernetes"
}

// binaries returns the directory of the Kubernetes binaries built from
// source (e2e/kubernetes/scripts/build-k8s.sh), or stops t (a failure
// under CI) when one is missing.
func binaries(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(cacheDir(), version, "bin")
	var missing []string
	for _, tb := range releaseTarballs {
		for _, file := range tb.members {
			if info, err := os.Stat(filepath.Join(dir, file)); err != nil || !info.Mode().IsRegular() {
				missing = append(missing, file)
			}
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		unavailable(t, "no %s binaries (%s) in %s: run make e2e-kubernetes", version, strings.Join(slices.Compact(missing), ", "), dir)
	}
	return dir
}

// mirrorTree returns a directory laid out as the test network's mirror
// serves it: k8s/VERSION/ with the three release tarballs made from the
// binaries in bins, as dl.k8s.io/VERSION/ has them, and
// images/images.tar.gz, an archive holding images.tar (the image of
// e2e/kubernetes/image, tagged imageTags). It is made once into the
// cache, CACHE/stock-mirror-HASH, HASH of what went in (the binaries'
// names, sizes and times, the image's source), and renamed into place
// whole; the tarballs are made byte for byte the same from the same
// files.
func mirrorTree(t testing.TB, bins string) string {
	t.Helper()
	src, err := filepath.Abs("../kubernetes/image")
	if err != nil {
		t.Fatal(err)
	}
	key, err := mirrorKey(bins, src)
	if err != nil {
		t.Fatalf("the mirror's tarballs: %v", err)
	}
	out := filepath.Join(cacheDir(), "stock-mirror-"+key)
	if _, err := os.Stat(out); err == nil {
		return out
	}
	start := time.Now()
	tmp, err := os.MkdirTemp(cacheDir(), "stock-mirror-build-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	tree := filepath.Join(tmp, "tree")
	for _, tb := range releaseTarballs {
		files := map[string]string{}
		for member, file := range tb.members {
			files[member] = filepath.Join(bins, file)
		}
		if err := writeTarGz(filepath.Join(tree, "k8s", version, tb.name), files); err != nil {
			t.Fatalf("the mirror's %s: %v", tb.name, err)
		}
	}
	image, err := buildImage(src, tmp)
	if err != nil {
		t.Fatalf("the mirror's image archive: %v", err)
	}
	if err := writeTarGz(filepath.Join(tree, "images", "images.tar.gz"), map[string]string{"images.tar": image}); err != nil {
		t.Fatalf("the mirror's image archive: %v", err)
	}
	if err := os.Rename(tree, out); err != nil && !exists(out) { // another test process made it meanwhile
		t.Fatal(err)
	}
	t.Logf("made the mirror's tarballs in %s in %s", out, time.Since(start).Round(time.Second))
	return out
}

// mirrorKey hashes what goes into the mirror's tree: the names, sizes and
// modification times of the binaries' directory, and the image's source
// files.
func mirrorKey(bins, imageSrc string) (string, error) {
	h := sha256.New()
	entries, err := os.ReadDir(bins)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d %d\n", e.Name(), info.Size(), info.ModTime().UnixNano())
	}
	err = filepath.WalkDir(imageSrc, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(imageSrc, path)
		fmt.Fprintf(h, "%s %d\n", rel, len(data))
		h.Write(data)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:12], err
}

// writeTarGz writes a gzip'd tarball at path with the files of members
// (member name → file), sorted by name, each with a fixed time and
// owner, executables 0755 and other files 0644, as a release tarball has
// them; the same files make the same bytes.
func writeTarGz(path string, members map[string]string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewWriterLevel(f, gzip.BestSpeed)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	epoch := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	names := make([]string, 0, len(members))
	for name := range members {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		src, err := os.Open(members[name])
		if err != nil {
			return err
		}
		info, err := src.Stat()
		if err != nil {
			src.Close()
			return err
		}
		mode := int64(0o644)
		if info.Mode()&0o111 != 0 {
			mode = 0o755
		}
		hdr := &tar.Header{Name: name, Mode: mode, Size: info.Size(), ModTime: epoch, Typeflag: tar.TypeReg, Uname: "root", Gname: "root", Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			src.Close()
			return err
		}
		_, err = io.Copy(tw, src)
		src.Close()
		if err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := gz.Close(); err != nil {
		return err
	}
	return f.Close()
}

// buildImage builds the image of e2e/kubernetes/image (a module of its
// own) into dir: the sleeper program, wrapped by its mkimage into a
// one-layer image tarball tagged imageTags, whose path it returns.
func buildImage(src, dir string) (string, error) {
	env := []string{"CGO_ENABLED=0", "GOWORK=off", "GOFLAGS="}
	sleeper, mkimage, out := filepath.Join(dir, "sleeper"), filepath.Join(dir, "mkimage"), filepath.Join(dir, "images.tar")
	if err := runIn(src, env, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", sleeper, "./sleeper"); err != nil {
		return "", err
	}
	if err := runIn(src, env, "go", "build", "-o", mkimage, "./mkimage"); err != nil {
		return "", err
	}
	args := []string{"-bin", sleeper, "-out", out}
	for _, tag := range imageTags {
		args = append(args, "-tag", tag)
	}
	return out, runIn(dir, nil, mkimage, args...)
}

// runIn runs a command in dir with env added to this process's
// environment, killed after ten minutes, and returns an error with its
// output unless it succeeds.
func runIn(dir string, env []string, name string, args ...string) error {
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

// mirrorAddress is where the mirror listens in the test network: the
// gateway's port 80, as testdata/walkthrough/common.hcl names it.
const mirrorAddress = "10.88.0.1:80"

// serveMirror serves the directory tree over HTTP at mirrorAddress in the
// network, until the test ends, and logs each request on the timeline.
func serveMirror(t *testing.T, network *nspawntest.Network, tree string, tl *timeline) {
	t.Helper()
	files := http.FileServer(http.Dir(tree))
	server := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			tl.note(fmt.Sprintf("mirror: GET %s from %s", r.URL.Path, r.RemoteAddr))
			files.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: 10 * time.Second,
	}
	ln := network.Listen(mirrorAddress)
	go server.Serve(ln)
	t.Cleanup(func() { server.Close() })
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
