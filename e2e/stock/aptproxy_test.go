package stock

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/nspawntest"
)

// aptProxyAddress is where the package proxy listens in the test network:
// the gateway's port 3142 (apt-cacher-ng's), as testdata/walkthrough's
// common.hcl gives it to environment.packageProxy.
const aptProxyAddress = "10.88.0.1:3142"

// aptCacheDir is where the package proxy keeps what it fetched:
// $NODEGEN_APT_CACHE, else /var/cache/nodegen-e2e/apt, so that later runs
// download nothing they had.
func aptCacheDir() string {
	if dir := os.Getenv("NODEGEN_APT_CACHE"); dir != "" {
		return dir
	}
	return "/var/cache/nodegen-e2e/apt"
}

// aptProxy is a caching forward HTTP proxy, as a cloud provider's package
// proxy or apt-cacher is: apt asks it for http:// URLs of Debian's
// archive (GET http://deb.debian.org/debian/... HTTP/1.1) and it fetches
// them from there, from this machine's network. What never changes under
// its name, a package (pool/.../NAME_VERSION_ARCH.deb) and an index named
// by its hash (.../by-hash/SHA256/HEX), is kept in the cache and served
// from it; the rest (InRelease, the indexes by name) is fetched every
// time. apt checks the InRelease's signature with Debian's keys, and
// every file against the hashes it signs, whatever the proxy.
type aptProxy struct {
	cache  string
	client *http.Client
	tl     *timeline

	mu                      sync.Mutex
	requests, hits, fetched int
	releases                int // requests of a suite's InRelease or Release: apt-get update's
	hitBytes, fetchedBytes  int64
	refused                 []string
}

// serveAptProxy starts the package proxy at aptProxyAddress in the
// network, until the test ends, caching in aptCacheDir.
func serveAptProxy(t *testing.T, network *nspawntest.Network, tl *timeline) *aptProxy {
	t.Helper()
	p := newAptProxy(t, aptCacheDir(), tl)
	p.serve(t, network.Listen(aptProxyAddress))
	return p
}

// newAptProxy returns a package proxy that caches in dir and notes what
// went wrong on tl (when not nil).
func newAptProxy(t testing.TB, dir string, tl *timeline) *aptProxy {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return &aptProxy{
		cache: dir,
		client: &http.Client{
			Transport: &http.Transport{
				Proxy:                 http.ProxyFromEnvironment,
				ResponseHeaderTimeout: time.Minute,
				IdleConnTimeout:       30 * time.Second,
				MaxIdleConnsPerHost:   4,
				DisableCompression:    true, // apt's files go through as they are
			},
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
			Timeout:       10 * time.Minute,
		},
		tl: tl,
	}
}

// serve answers on ln until the test ends, then notes its summary.
func (p *aptProxy) serve(t testing.TB, ln net.Listener) {
	server := &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	go server.Serve(ln)
	t.Cleanup(func() {
		server.Close()
		if p.tl != nil {
			p.tl.note("package proxy: " + p.summary())
		}
	})
}

// summary says how many requests the proxy answered, and how.
func (p *aptProxy) summary() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := fmt.Sprintf("%d requests, %d from the cache (%.1f MB), %d fetched from Debian's archive (%.1f MB)",
		p.requests, p.hits, float64(p.hitBytes)/1e6, p.fetched, float64(p.fetchedBytes)/1e6)
	if len(p.refused) > 0 {
		s += fmt.Sprintf("; refused: %s", strings.Join(p.refused, ", "))
	}
	return s
}

// releaseRequests returns how many times apt asked for a suite's
// InRelease or Release (each apt-get update does).
func (p *aptProxy) releaseRequests() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.releases
}

// count records a request's answer.
func (p *aptProxy) count(hit bool, n int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.requests++
	if hit {
		p.hits++
		p.hitBytes += n
	} else {
		p.fetched++
		p.fetchedBytes += n
	}
}

// refuse answers a request the proxy does not forward.
func (p *aptProxy) refuse(w http.ResponseWriter, r *http.Request, code int, why string) {
	p.mu.Lock()
	p.refused = append(p.refused, fmt.Sprintf("%s %s (%s)", r.Method, r.RequestURI, why))
	p.mu.Unlock()
	http.Error(w, why, code)
}

// cacheable reports whether the file at the URL path never changes under
// its name: a package, or an index named by its hash.
func cacheable(urlPath string) bool {
	return strings.HasSuffix(urlPath, ".deb") || strings.Contains(urlPath, "/by-hash/")
}

// ServeHTTP forwards a GET or HEAD of an absolute http:// URL.
func (p *aptProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodConnect:
		p.refuse(w, r, http.StatusMethodNotAllowed, "this proxy forwards http:// only")
		return
	case r.Method != http.MethodGet && r.Method != http.MethodHead:
		p.refuse(w, r, http.StatusMethodNotAllowed, "GET and HEAD only")
		return
	case !r.URL.IsAbs() || r.URL.Scheme != "http" || r.URL.Host == "":
		p.refuse(w, r, http.StatusBadRequest, "not a proxy request for an http:// URL")
		return
	}
	clean := path.Clean("/" + r.URL.Path)
	if base := path.Base(clean); base == "InRelease" || base == "Release" {
		p.mu.Lock()
		p.releases++
		p.mu.Unlock()
	}
	if cacheable(clean) {
		file := filepath.Join(p.cache, r.URL.Host, filepath.FromSlash(clean))
		if f, err := os.Open(file); err == nil {
			defer f.Close()
			if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
				p.count(true, fi.Size())
				http.ServeContent(w, r, path.Base(clean), fi.ModTime(), f)
				return
			}
		}
		if r.Method == http.MethodGet && r.Header.Get("Range") == "" {
			p.fetchInto(w, r, file)
			return
		}
	}
	p.forward(w, r, nil)
}

// fetchInto fetches the whole file for r, streams it to w, and keeps it
// at file when all of it came (written to a temporary file, renamed into
// place).
func (p *aptProxy) fetchInto(w http.ResponseWriter, r *http.Request, file string) {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		p.forward(w, r, nil)
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".fetch-*")
	if err != nil {
		p.forward(w, r, nil)
		return
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	if n, complete := p.forward(w, r, tmp); complete && n > 0 {
		if tmp.Sync() == nil && tmp.Close() == nil {
			os.Rename(tmp.Name(), file)
		}
	}
}

// hopHeaders are the headers of one connection, which a proxy does not
// pass on.
var hopHeaders = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

// forward fetches r's URL from the origin and copies the answer to w, and
// the body to keep too when keep is not nil (a copy of a whole file: the
// request's conditions and ranges are not passed on then). It returns how
// many bytes of the body came, and whether the answer was a 200 that came
// whole.
func (p *aptProxy) forward(w http.ResponseWriter, r *http.Request, keep io.Writer) (int64, bool) {
	out, err := http.NewRequestWithContext(r.Context(), r.Method, r.URL.String(), nil)
	if err != nil {
		p.refuse(w, r, http.StatusBadRequest, err.Error())
		return 0, false
	}
	out.Header = r.Header.Clone()
	for _, h := range hopHeaders {
		out.Header.Del(h)
	}
	if keep != nil {
		for _, h := range []string{"Range", "If-Range", "If-Modified-Since", "If-None-Match"} {
			out.Header.Del(h)
		}
	}
	resp, err := p.client.Do(out)
	if err != nil {
		p.refuse(w, r, http.StatusBadGateway, err.Error())
		return 0, false
	}
	defer resp.Body.Close()
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	for _, h := range hopHeaders {
		w.Header().Del(h)
	}
	w.WriteHeader(resp.StatusCode)
	dst := io.Writer(w)
	if keep != nil && resp.StatusCode == http.StatusOK {
		dst = io.MultiWriter(w, keep)
	}
	n, err := io.Copy(dst, resp.Body)
	p.count(false, n)
	if p.tl != nil && resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusNotModified {
		p.tl.note(fmt.Sprintf("package proxy: %s %s: %s", r.Method, r.URL, resp.Status))
	}
	return n, err == nil && resp.StatusCode == http.StatusOK && (resp.ContentLength < 0 || resp.ContentLength == n)
}
