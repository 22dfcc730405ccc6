package aptproxy

import (
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestProxy checks the package proxy against an origin of its own (no
// root needed): packages and by-hash indexes come from the origin once
// and then from the cache, InRelease every time, a truncated download is
// not kept, and what is not a GET or HEAD of an http:// URL is refused.
func TestProxy(t *testing.T) {
	var mu sync.Mutex
	asked := map[string]int{}
	origin := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked[r.URL.Path]++
		mu.Unlock()
		switch r.URL.Path {
		case "/debian/dists/bookworm/InRelease":
			io.WriteString(w, "signed index\n")
		case "/debian/pool/main/c/curl/curl_7.88.1-10_amd64.deb", "/debian/dists/bookworm/main/binary-amd64/by-hash/SHA256/0123":
			io.WriteString(w, "package "+r.URL.Path+"\n")
		case "/debian/pool/main/t/truncated/truncated_1_amd64.deb":
			w.Header().Set("Content-Length", "100")
			io.WriteString(w, "only part")
		default:
			http.NotFound(w, r)
		}
	})}
	oln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go origin.Serve(oln)
	t.Cleanup(func() { origin.Close() })
	host := oln.Addr().String()

	t.Setenv("NO_PROXY", "*") // the origin is here, whatever this machine's proxy
	cache := t.TempDir()
	p, err := New(cache, nil)
	if err != nil {
		t.Fatal(err)
	}
	pln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Serve(pln))
	proxyURL, _ := url.Parse("http://" + pln.Addr().String())
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxyURL)}}
	get := func(p string) (int, string) {
		t.Helper()
		resp, err := client.Get("http://" + host + p)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}

	deb := "/debian/pool/main/c/curl/curl_7.88.1-10_amd64.deb"
	byHash := "/debian/dists/bookworm/main/binary-amd64/by-hash/SHA256/0123"
	for i := 0; i < 2; i++ {
		for _, f := range []string{deb, byHash, "/debian/dists/bookworm/InRelease"} {
			code, body := get(f)
			want := "package " + f + "\n"
			if strings.HasSuffix(f, "InRelease") {
				want = "signed index\n"
			}
			if code != 200 || body != want {
				t.Errorf("GET %s (round %d): %d %q, want 200 %q", f, i+1, code, body, want)
			}
		}
		if code, _ := get("/debian/pool/main/t/truncated/truncated_1_amd64.deb"); code != 200 {
			t.Errorf("GET of the truncated package: %d, want the origin's 200 (and a short body)", code)
		}
	}
	if code, _ := get("/debian/pool/main/n/nosuch/nosuch_1_amd64.deb"); code != 404 {
		t.Errorf("GET of a missing package: %d, want the origin's 404", code)
	}
	want := map[string]int{
		deb: 1, byHash: 1, "/debian/dists/bookworm/InRelease": 2,
		"/debian/pool/main/t/truncated/truncated_1_amd64.deb": 2, "/debian/pool/main/n/nosuch/nosuch_1_amd64.deb": 1,
	}
	if diff := cmp.Diff(want, asked); diff != "" {
		t.Errorf("what the origin was asked, by path (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(cache, host, filepath.FromSlash(deb))); err != nil {
		t.Errorf("the package is not in the cache: %v", err)
	}
	if _, err := os.Stat(filepath.Join(cache, host, "debian/pool/main/t/truncated/truncated_1_amd64.deb")); err == nil {
		t.Errorf("the truncated package was kept in the cache")
	}

	// Not a proxy's request: refused.
	for _, r := range []struct{ method, target string }{
		{"GET", "/debian/dists/bookworm/InRelease"},
		{"POST", "http://" + host + "/debian/dists/bookworm/InRelease"},
		{"CONNECT", "deb.debian.org:443"},
	} {
		req, _ := http.NewRequest(r.method, "http://"+pln.Addr().String(), nil)
		req.RequestURI = ""
		req.URL.Opaque = r.target
		if r.method == "CONNECT" {
			req.Host = r.target
			req.URL = &url.URL{Scheme: "http", Host: pln.Addr().String(), Opaque: r.target}
		}
		resp, err := http.DefaultTransport.(*http.Transport).Clone().RoundTrip(req)
		if err != nil {
			t.Errorf("%s %s: %v", r.method, r.target, err)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode < 400 {
			t.Errorf("%s %s: %s, want a refusal", r.method, r.target, resp.Status)
		}
	}
	if len(p.Refused()) != 3 {
		t.Errorf("the proxy refused %d requests, want 3: %s", len(p.Refused()), p.Summary())
	}
	t.Log(p.Summary())
}
