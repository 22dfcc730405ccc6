package activate

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/internal/suitereport"
	"github.com/nodegen/nodegen/profile"
)

// assetServer serves files on 127.0.0.1 and counts the requests.
type assetServer struct {
	*httptest.Server
	mu    sync.Mutex
	files map[string][]byte
	hits  map[string]int
}

func newAssetServer(t *testing.T) *assetServer {
	s := &assetServer{files: map[string][]byte{}, hits: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.hits[r.URL.Path]++
		data, ok := s.files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(data)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *assetServer) serve(name string, data []byte) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.files["/"+name] = data
	return s.URL + "/" + name
}

func (s *assetServer) count(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits["/"+name]
}

func sum256(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

func tarGz(t *testing.T, files map[string]string) []byte {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(files[name])), Typeflag: tar.TypeReg})
		tw.Write([]byte(files[name]))
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

func zipOf(t *testing.T, files map[string]string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate}
		h.SetMode(0o755)
		w, _ := zw.CreateHeader(h)
		w.Write([]byte(files[name]))
	}
	zw.Close()
	return buf.Bytes()
}

// binaryProfile writes a profile with one etc file and the assets.
func binaryProfile(t *testing.T, assets []profile.Asset, packages ...profile.Package) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "profile")
	p := profile.Profile{Entries: []profile.Entry{file("hostname", "h\n")}, Assets: assets, Packages: packages}
	if err := profile.Write(dir, p); err != nil {
		t.Fatal(err)
	}
	return dir
}

// linkIn reads where a symlink below root points.
func linkIn(t *testing.T, root, p string) string {
	t.Helper()
	target, err := os.Readlink(filepath.Join(root, p))
	if err != nil {
		t.Fatal(err)
	}
	return target
}

func TestAssets(t *testing.T) {
	srv := newAssetServer(t)
	v1 := []byte("#!/bin/sh\necho kubelet 1\n")
	v2 := []byte("#!/bin/sh\necho kubelet 2\n")
	cni := tarGz(t, map[string]string{"./bridge": "bridge!", "./loopback": "loopback!", "./other": "x"})
	tools := zipOf(t, map[string]string{"bin/tool": "tool!"})
	kubelet := func(data []byte, name string) profile.Asset {
		return profile.Asset{Name: "kubelet", URL: srv.serve(name, data), SHA256: sum256(data),
			Files: []profile.AssetFile{{Path: "/opt/kubernetes/bin/kubelet"}}, Option: "environment.assets.kubelet"}
	}
	cniAsset := profile.Asset{Name: "cni", URL: srv.serve("cni.tgz", cni), SHA256: sum256(cni), Archive: "tar.gz",
		Files: []profile.AssetFile{{Path: "/opt/cni/bin/bridge", Member: "bridge"}, {Path: "/opt/cni/bin/loopback", Member: "loopback"}}, Option: "environment.assets.cni"}
	toolSum := sha512.Sum512(tools)
	toolAsset := profile.Asset{Name: "tool", URL: srv.serve("tools.zip", tools), SHA512: hex.EncodeToString(toolSum[:]), Archive: "zip",
		Files: []profile.AssetFile{{Path: "/usr/local/bin/tool", Member: "bin/tool"}}, Option: "environment.assets.tool"}

	root := newRoot(t, nil)
	one := binaryProfile(t, []profile.Asset{kubelet(v1, "kubelet-1"), cniAsset, toolAsset})
	res := mustSwitch(t, root, one, SwitchOptions{})
	if d := cmp.Diff([]string{"cni", "kubelet", "tool"}, res.Plan.Download); d != "" {
		t.Errorf("download (-want +got):\n%s", d)
	}
	for p, want := range map[string]string{
		"opt/kubernetes/bin/kubelet": string(v1),
		"opt/cni/bin/bridge":         "bridge!",
		"opt/cni/bin/loopback":       "loopback!",
		"usr/local/bin/tool":         "tool!",
	} {
		if got := readIn(t, root, p); got != want {
			t.Errorf("%s: %q, want %q", p, got, want)
		}
		fi, err := os.Stat(filepath.Join(root, strings.TrimPrefix(linkIn(t, root, p), "/")))
		if err != nil || fi.Mode().Perm()&0o111 == 0 {
			t.Errorf("%s is not executable: %v %v", p, fi.Mode(), err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, assetsDir, cniAsset.Key(), "files", "other")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a member nobody installs was unpacked: %v", err)
	}

	// The same assets again: nothing is downloaded.
	two := binaryProfile(t, []profile.Asset{kubelet(v2, "kubelet-2"), cniAsset, toolAsset})
	res = mustSwitch(t, root, two, SwitchOptions{})
	if d := cmp.Diff([]string{"kubelet"}, res.Plan.Download); d != "" {
		t.Errorf("download (-want +got):\n%s", d)
	}
	if srv.count("cni.tgz") != 1 || srv.count("tools.zip") != 1 {
		t.Errorf("cached assets downloaded again: %v", srv.hits)
	}
	if got := readIn(t, root, "opt/kubernetes/bin/kubelet"); got != string(v2) {
		t.Errorf("kubelet after the switch: %q", got)
	}

	// A rollback brings the previous kubelet back, from the cache.
	if _, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Rollback(0, SwitchOptions{Offline: true}) }); err != nil {
		t.Fatal(err)
	}
	if got := readIn(t, root, "opt/kubernetes/bin/kubelet"); got != string(v1) {
		t.Errorf("kubelet after the rollback: %q", got)
	}
	if srv.count("kubelet-1") != 1 {
		t.Errorf("kubelet 1 downloaded %d times", srv.count("kubelet-1"))
	}

	// gc keeps what the remaining generations use.
	if _, err := run(t, root, nil, func(s *System) ([]int, error) { return s.GC(0) }); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, assetsDir, kubelet(v2, "kubelet-2").Key())); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("gc kept kubelet 2: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, assetsDir, kubelet(v1, "kubelet-1").Key())); err != nil {
		t.Errorf("gc removed the active kubelet: %v", err)
	}

	// Deactivate removes the links and the directories made for them.
	if _, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Deactivate(SwitchOptions{}) }); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"opt/kubernetes", "opt/cni", "usr/local/bin/tool"} {
		if _, err := os.Lstat(filepath.Join(root, p)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left after deactivate: %v", p, err)
		}
	}
}

// TestAssetMirror downloads an asset from its Mirror (the URL
// environment.assetMirrors gives), never from its URL, and names the
// mirror's URL and both hashes when the mirror serves another file.
func TestAssetMirror(t *testing.T) {
	srv := newAssetServer(t)
	good := []byte("#!/bin/sh\necho from the mirror\n")
	sum := sha512.Sum512(good)
	asset := profile.Asset{Name: "tool", URL: "https://unreachable.invalid/tool", Mirror: srv.serve("tool", good), SHA512: hex.EncodeToString(sum[:]),
		Files: []profile.AssetFile{{Path: "/usr/local/bin/tool"}}, Option: "environment.assets.tool"}
	root := newRoot(t, nil)
	mustSwitch(t, root, binaryProfile(t, []profile.Asset{asset}), SwitchOptions{})
	if got := readIn(t, root, "usr/local/bin/tool"); got != string(good) {
		t.Errorf("tool: %q, want the mirror's", got)
	}

	tampered := []byte("#!/bin/sh\necho tampered\n")
	bad := sha512.Sum512(tampered)
	other := asset
	other.Name, other.Option = "other", "environment.assets.other"
	other.Files = []profile.AssetFile{{Path: "/usr/local/bin/other"}}
	other.Mirror = srv.serve("other", tampered)
	other.SHA512 = strings.Repeat("ab", 64)
	_, err := run(t, root, nil, func(s *System) (*Result, error) {
		return s.Switch(binaryProfile(t, []profile.Asset{asset, other}), SwitchOptions{})
	})
	var be *BinariesError
	if !errors.As(err, &be) || len(be.Problems) != 1 {
		t.Fatalf("switch: %v, want one problem", err)
	}
	want := other.Mirror + ": sha512 mismatch: expected " + other.SHA512 + " (the profile's: the library's, the host's or nodegen.lock.hcl's), got " + hex.EncodeToString(bad[:]) + ": not installed"
	if got := be.Problems[0].Reason; got != want {
		t.Errorf("reason:\n%s\nwant:\n%s", got, want)
	}
}

func TestAssetProblemsChangeNothing(t *testing.T) {
	srv := newAssetServer(t)
	good := []byte("good")
	root := newRoot(t, nil)
	mustSwitch(t, root, binaryProfile(t, nil), SwitchOptions{})
	before := listing(t, root, "")
	bad := binaryProfile(t, []profile.Asset{
		{Name: "wrong", URL: srv.serve("wrong", []byte("tampered")), SHA256: sum256(good), Files: []profile.AssetFile{{Path: "/usr/local/bin/wrong"}}, Option: "environment.assets.wrong"},
		{Name: "gone", URL: srv.URL + "/gone", SHA256: sum256(good), Files: []profile.AssetFile{{Path: "/usr/local/bin/gone"}}, Option: "environment.assets.gone"},
		{Name: "nomember", URL: srv.serve("a.tgz", tarGz(t, map[string]string{"x": "x"})), SHA256: sum256(tarGz(t, map[string]string{"x": "x"})), Archive: "tar.gz",
			Files: []profile.AssetFile{{Path: "/usr/local/bin/y", Member: "y"}}, Option: "environment.assets.nomember"},
	})
	_, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Switch(bad, SwitchOptions{}) })
	var be *BinariesError
	if !errors.As(err, &be) {
		t.Fatalf("switch: %v, want a BinariesError", err)
	}
	var got []string
	for _, p := range be.Problems {
		got = append(got, p.What+": "+p.Reason)
	}
	for i, want := range []string{"404 Not Found", "has no file y", "sha256 mismatch: expected " + sum256(good) + " (the profile's: the library's, the host's or nodegen.lock.hcl's), got " + sum256([]byte("tampered")) + ": not installed"} {
		if i >= len(got) || !strings.Contains(got[i], want) {
			t.Errorf("problem %d: %q, want it to say %q", i, got, want)
		}
	}
	after := listing(t, root, "")
	for p := range after {
		if strings.HasPrefix(p, assetsDir) && !strings.Contains(p, "sha256-"+sum256(tarGz(t, map[string]string{"x": "x"}))) {
			delete(after, p)
		}
	}
	for p := range before {
		if strings.HasPrefix(p, assetsDir) {
			delete(before, p)
		}
	}
	// Only the cache learnt the archive that downloaded fine.
	for p := range after {
		if strings.HasPrefix(p, assetsDir) {
			delete(after, p)
		}
	}
	if d := cmp.Diff(before, after); d != "" {
		t.Errorf("a refused switch changed the system (-before +after):\n%s", d)
	}
	// --offline with nothing cached names what is missing.
	_, err = run(t, root, nil, func(s *System) (*Result, error) {
		return s.Switch(binaryProfile(t, []profile.Asset{{Name: "k", URL: srv.serve("k", good), SHA256: sum256(good), Files: []profile.AssetFile{{Path: "/usr/local/bin/k"}}, Option: "environment.assets.k"}}), SwitchOptions{Offline: true})
	})
	if !errors.As(err, &be) || !strings.Contains(be.Error(), "--offline") || srv.count("k") != 0 {
		t.Errorf("offline: %v (downloads %d)", err, srv.count("k"))
	}
}

func TestPackagesUnderRoot(t *testing.T) {
	if _, err := os.Stat("/usr/bin/dpkg-query"); err != nil {
		suitereport.Skip(t, "activate packages", "no /usr/bin/dpkg-query (Debian's dpkg)")
	}
	root := newRoot(t, map[string]string{
		"var/lib/dpkg/status": "Package: curl\nStatus: install ok installed\nVersion: 1\nArchitecture: amd64\n\nPackage: socat\nStatus: deinstall ok config-files\nVersion: 1\nArchitecture: amd64\n",
	})
	os.MkdirAll(filepath.Join(root, "var/lib/dpkg/info"), 0o755)
	ok := binaryProfile(t, nil, profile.Package{Name: "curl", Option: "environment.packages.curl"})
	mustSwitch(t, root, ok, SwitchOptions{})
	missing := binaryProfile(t, nil, profile.Package{Name: "curl", Option: "environment.packages.curl"}, profile.Package{Name: "socat", Option: "environment.packages.socat"})
	_, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Switch(missing, SwitchOptions{}) })
	var be *BinariesError
	if !errors.As(err, &be) || len(be.Problems) != 1 || be.Problems[0].What != "package socat" || !strings.Contains(be.Problems[0].Reason, "not installed in") {
		t.Errorf("switch: %v", err)
	}
}
