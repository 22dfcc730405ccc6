package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nodegen/nodegen/internal/assetlock"
)

// TestKubernetesDocsLock runs the host files of docs/kubernetes.md as a
// reader would: the plain host (no hashes, no skipInstall) does not
// evaluate without a lock file, and its error says to run nodegen lock;
// the offline set-up (site.hcl's mirrors, images.hcl's seeded pause
// image) locks every asset through a mirror on this machine; and the
// plain host, without a mirror, then evaluates with the same lock file.
func TestKubernetesDocsLock(t *testing.T) {
	src, err := os.ReadFile("../../docs/kubernetes.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]string{}
	for _, b := range fencedBlocks(string(src)) {
		if b.lang == "hcl" && b.fileName() != "example.hcl" {
			blocks[b.fileName()] = b.body
		}
	}
	for _, name := range []string{"kube.hcl", "site.hcl", "images.hcl"} {
		if blocks[name] == "" {
			t.Fatalf("docs/kubernetes.md has no hcl block # %s", name)
		}
	}
	if strings.Contains(blocks["kube.hcl"], "skipInstall") || strings.Contains(blocks["kube.hcl"], "Sha512") {
		t.Fatalf("the docs' plain host pins its binaries:\n%s", blocks["kube.hcl"])
	}

	// The site's mirror: every file the docs list, with made-up content.
	var (
		mu      sync.Mutex
		fetched []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		fetched = append(fetched, r.URL.Path)
		mu.Unlock()
		w.Write([]byte("the mirror's copy of " + r.URL.Path + "\n"))
	}))
	defer srv.Close()

	dir := t.TempDir()
	t.Chdir(dir)
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(strings.ReplaceAll(text, "http://mirror.lan", srv.URL)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range blocks {
		write(name, text)
	}
	write("offline.hcl", "imports = [\"./kube.hcl\", \"./site.hcl\", \"./images.hcl\"]\n")

	var stdout, stderr bytes.Buffer
	if code := run([]string{"eval", "kube.hcl", "-o", "result"}, &stdout, &stderr); code != exitError {
		t.Fatalf("eval without a lock file: exit %d, want %d\n%s", code, exitError, stderr.String())
	}
	for _, want := range []string{
		`environment.assets."kubernetes-server": no hash of https://dl.k8s.io/v1.37.2/kubernetes-server-linux-amd64.tar.gz`,
		`environment.assets."flannel": no hash of https://github.com/flannel-io/flannel/releases/download/v0.28.10/flanneld-amd64`,
		"Run `nodegen lock HOST.hcl`",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("eval without a lock file does not say %q:\n%s", want, stderr.String())
		}
	}

	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"lock", "offline.hcl"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("lock: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	// In the order of the assets' own URLs.
	wantFetched := []string{
		"/images/pause-3.10.tar",
		"/k8s/v1.37.2/kubernetes-server-linux-amd64.tar.gz",
		"/k8s/v1.37.2/kubernetes-src.tar.gz",
		"/github/flannel-io/flannel/releases/download/v0.28.10/flanneld-amd64",
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(fetched, " ") != strings.Join(wantFetched, " ") {
		t.Errorf("lock fetched %q from the mirror, want %q", fetched, wantFetched)
	}
	data, err := os.ReadFile(assetlock.FileName)
	if err != nil {
		t.Fatal(err)
	}
	lock, diags := assetlock.Parse(data, assetlock.FileName)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, url := range []string{
		"https://dl.k8s.io/v1.37.2/kubernetes-server-linux-amd64.tar.gz",
		"https://dl.k8s.io/v1.37.2/kubernetes-src.tar.gz",
		"https://github.com/flannel-io/flannel/releases/download/v0.28.10/flanneld-amd64",
		srv.URL + "/images/pause-3.10.tar",
	} {
		if _, ok := lock.Lookup(url); !ok {
			t.Errorf("the lock file has no entry for %s:\n%s", url, data)
		}
	}

	for _, host := range []string{"offline.hcl", "kube.hcl"} {
		stdout.Reset()
		stderr.Reset()
		if code := run([]string{"eval", host, "-o", "result-" + host}, &stdout, &stderr); code != exitOK {
			t.Errorf("eval %s with the lock file: exit %d\n%s", host, code, stderr.String())
		}
	}
	manifest, err := os.ReadFile("result-offline.hcl/nodegen-profile.json")
	if err != nil {
		t.Fatal(err)
	}
	if want := `"mirror": "` + srv.URL + `/k8s/v1.37.2/kubernetes-server-linux-amd64.tar.gz"`; !bytes.Contains(manifest, []byte(want)) {
		t.Errorf("the offline host's profile does not download from the mirror (%s)", want)
	}
}
