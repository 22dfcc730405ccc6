// Package aptproxy is a caching forward HTTP proxy to Debian's archive,
// as a cloud provider's package proxy or apt-cacher-ng is: the package
// mirror that test machines (e2e/stock's, machine tests') reach on their
// private network, and through which nodegen switch installs the packages
// their profiles list (environment.packageProxy). What never changes
// under its name is kept in a cache directory shared by runs, so a run
// downloads only what no earlier run did.
package aptproxy

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
	"time"
)

// Port is the port a package proxy listens on by custom: apt-cacher-ng's.
const Port = "3142"

// Proxy is a caching forward HTTP proxy, as a cloud provider's package
// proxy or apt-cacher is: apt asks it for http:// URLs of Debian's
// archive (GET http://deb.debian.org/debian/... HTTP/1.1) and it fetches
// them from there, from this machine's network. What never changes under
// its name, a package (pool/.../NAME_VERSION_ARCH.deb) and an index named
// by its hash (.../by-hash/SHA256/HEX), is kept in the cache and served
// from it; the rest (InRelease, the indexes by name) is fetched every
// time. apt checks the InRelease's signature with Debian's keys, and
// every file against the hashes it signs, whatever the proxy.
type Proxy struct {
	cache  string
	client *http.Client
	notef  func(string)

	mu                      sync.Mutex
	requests, hits, fetched int
	releases                int // requests of a suite's InRelease or Release: apt-get update's
	hitBytes, fetchedBytes  int64
	refused                 []string
}

// New returns a package proxy that caches in dir, made when missing, and
// tells notef (when not nil) of an answer of the archive that is not a
// success.
func New(dir string, notef func(string)) (*Proxy, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return &Proxy{
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
		notef: notef,
	}, nil
}

// Serve answers proxy requests on ln until the returned function is
// called, which closes ln and every connection.
func (p *Proxy) Serve(ln net.Listener) (stop func()) {
	server := &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	go server.Serve(ln)
	return func() { server.Close() }
}

// Refused returns the requests the proxy did not forward, with why.
func (p *Proxy) Refused() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.refused...)
}

// Summary says how many requests the proxy answered, and how.
func (p *Proxy) Summary() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := fmt.Sprintf("%d requests, %d from the cache (%.1f MB), %d fetched from Debian's archive (%.1f MB)",
		p.requests, p.hits, float64(p.hitBytes)/1e6, p.fetched, float64(p.fetchedBytes)/1e6)
	if len(p.refused) > 0 {
		s += fmt.Sprintf("; refused: %s", strings.Join(p.refused, ", "))
	}
	return s
}

// ReleaseRequests returns how many times apt asked for a suite's
// InRelease or Release (each apt-get update does).
func (p *Proxy) ReleaseRequests() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.releases
}

// count records a request's answer.
func (p *Proxy) count(hit bool, n int64) {
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
func (p *Proxy) refuse(w http.ResponseWriter, r *http.Request, code int, why string) {
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
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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
func (p *Proxy) fetchInto(w http.ResponseWriter, r *http.Request, file string) {
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
func (p *Proxy) forward(w http.ResponseWriter, r *http.Request, keep io.Writer) (int64, bool) {
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
	if p.notef != nil && resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusNotModified {
		p.notef(fmt.Sprintf("package proxy: %s %s: %s", r.Method, r.URL, resp.Status))
	}
	return n, err == nil && resp.StatusCode == http.StatusOK && (resp.ContentLength < 0 || resp.ContentLength == n)
}
