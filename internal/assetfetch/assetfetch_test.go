package assetfetch_test

import (
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nodegen/nodegen/internal/assetfetch"
)

func TestRewrite(t *testing.T) {
	mirrors := map[string]string{
		"https://dl.k8s.io":                "http://mirror.lan/k8s",
		"https://dl.k8s.io/v1.37.2":        "file:///srv/k8s/v1.37.2",
		"https://github.com/flannel-io/":   "http://mirror.lan/flannel/",
		"https://example.com/a/b?x":        "http://wrong/",
		"https://example.com/exact/file.x": "http://mirror.lan/file.x",
	}
	for _, tt := range []struct{ in, want string }{
		{"https://dl.k8s.io/v1.36.0/kubernetes-node-linux-amd64.tar.gz", "http://mirror.lan/k8s/v1.36.0/kubernetes-node-linux-amd64.tar.gz"},
		// the longest prefix wins
		{"https://dl.k8s.io/v1.37.2/kubernetes-src.tar.gz", "file:///srv/k8s/v1.37.2/kubernetes-src.tar.gz"},
		// whole path segments only
		{"https://dl.k8s.io.evil.example/x", "https://dl.k8s.io.evil.example/x"},
		{"https://dl.k8s.io/v1.37.20/x", "http://mirror.lan/k8s/v1.37.20/x"},
		{"https://github.com/flannel-io/flannel/releases/download/v0.28.10/flanneld-amd64", "http://mirror.lan/flannel/flannel/releases/download/v0.28.10/flanneld-amd64"},
		{"https://example.com/exact/file.x", "http://mirror.lan/file.x"},
		{"https://example.com/exact/file.xz", "https://example.com/exact/file.xz"},
		{"https://other.example/x", "https://other.example/x"},
	} {
		if got := assetfetch.Rewrite(tt.in, mirrors); got != tt.want {
			t.Errorf("Rewrite(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := assetfetch.Rewrite("https://dl.k8s.io/x", nil); got != "https://dl.k8s.io/x" {
		t.Errorf("no mirrors: %q", got)
	}
}

func TestFetch(t *testing.T) {
	data := []byte("a release tarball\n")
	sum := sha512.Sum512(data)
	want := assetfetch.Sum{Size: int64(len(data)), SHA512: hex.EncodeToString(sum[:])}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/x.tar.gz" {
			http.NotFound(w, r)
			return
		}
		w.Write(data)
	}))
	defer srv.Close()
	dir := t.TempDir()
	file := filepath.Join(dir, "x.tar.gz")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{srv.URL + "/x.tar.gz", "file://" + file} {
		got, err := assetfetch.Fetch(src, 1<<20)
		if err != nil || got != want {
			t.Errorf("Fetch(%s) = %+v, %v; want %+v", src, got, err, want)
		}
		if _, err := assetfetch.Fetch(src, 4); err == nil || (!errors.Is(err, assetfetch.ErrTooLarge) && !strings.Contains(err.Error(), "larger than")) {
			t.Errorf("Fetch(%s) with a limit of 4 bytes: %v", src, err)
		}
	}
	for src, msg := range map[string]string{
		srv.URL + "/missing":         "404 Not Found",
		"file://" + dir:              "is not a regular file",
		"file://" + dir + "/missing": "no such file or directory",
	} {
		if _, err := assetfetch.Fetch(src, 1<<20); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("Fetch(%s): %v, want it to say %q", src, err, msg)
		}
	}
}
