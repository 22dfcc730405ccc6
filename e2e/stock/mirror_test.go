//go:build linux

package stock

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nodegen/nodegen/e2e/internal/k8se2e"
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

// binaries returns the directory of the Kubernetes binaries built from
// source (e2e/kubernetes/scripts/build-k8s.sh), or stops t (a failure
// under CI) when one is missing.
func binaries(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(k8se2e.CacheDir(), version, "bin")
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
// images/images.tar.gz, an archive holding images.tar (k8se2e.Image, the
// image of e2e/kubernetes/image). It is made once into the
// cache, CACHE/stock-mirror-HASH, HASH of what went in (the binaries'
// names, sizes and times, the image's source), and renamed into place
// whole; the tarballs are made byte for byte the same from the same
// files.
func mirrorTree(t testing.TB, bins string) string {
	t.Helper()
	image := k8se2e.Image(t)
	key, err := mirrorKey(bins, image)
	if err != nil {
		t.Fatalf("the mirror's tarballs: %v", err)
	}
	out := filepath.Join(k8se2e.CacheDir(), "stock-mirror-"+key)
	if _, err := os.Stat(out); err == nil {
		return out
	}
	start := time.Now()
	tmp, err := os.MkdirTemp(k8se2e.CacheDir(), "stock-mirror-build-")
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
// modification times of the binaries' directory, and the image tarball's
// name (which names the hash of its source).
func mirrorKey(bins, image string) (string, error) {
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
	fmt.Fprintf(h, "image %s\n", filepath.Base(image))
	return hex.EncodeToString(h.Sum(nil))[:12], nil
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
