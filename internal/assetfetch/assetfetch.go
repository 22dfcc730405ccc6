// Package assetfetch downloads the release files of a profile
// (environment.assets): it rewrites an asset's URL through the mirrors of
// environment.assetMirrors (Rewrite), opens https://, http:// and file:///
// URLs with bounded sizes and time-outs (Open), and streams a download to
// its size and sha512 (Fetch). `nodegen lock` fetches through it to record
// hashes, and `nodegen switch` (package activate) downloads through it, so
// a mirror serves both alike.
package assetfetch

import (
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"
	"time"
)

// Rewrite returns the URL a download of u is fetched from: u with the
// longest prefix of mirrors that it starts with replaced by that
// prefix's mirror, or u when none applies. A prefix matches whole URLs or
// whole path segments: "https://dl.k8s.io" matches
// "https://dl.k8s.io/v1.37.2/x.tar.gz", not "https://dl.k8s.io.example/";
// a prefix that ends in "/" matches anything below it.
func Rewrite(u string, mirrors map[string]string) string {
	best := ""
	for prefix := range mirrors {
		if prefix == "" || !strings.HasPrefix(u, prefix) {
			continue
		}
		rest := u[len(prefix):]
		if rest != "" && !strings.HasSuffix(prefix, "/") && !strings.ContainsAny(rest[:1], "/?#") {
			continue
		}
		if len(prefix) > len(best) {
			best = prefix
		}
	}
	if best == "" {
		return u
	}
	return mirrors[best] + u[len(best):]
}

// CheckURL returns why u is not a URL an asset can be fetched from, or "".
func CheckURL(u string) string {
	switch {
	case !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "file:///"):
		return "is not an https://, http:// or file:/// URL"
	case strings.IndexFunc(u, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0:
		return "contains a space or a control character"
	}
	if _, err := url.Parse(u); err != nil {
		return "is not a URL: " + err.Error()
	}
	return ""
}

// ErrTooLarge is the error of a download larger than its limit.
var ErrTooLarge = errors.New("larger than the limit")

// Open opens a URL: https://, http:// or file:///. local says it is a file
// of this machine, which must be a regular file of at most limit bytes
// (never a FIFO or a device). The body of an http(s) download is not
// bounded here: the caller reads at most limit+1 bytes of it.
func Open(raw string, limit int64) (body io.ReadCloser, local bool, err error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, false, err
	}
	if u.Scheme == "file" {
		f, err := os.OpenFile(u.Path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
		if err != nil {
			return nil, true, fmt.Errorf("opening %s: %v", raw, unwrapPath(err))
		}
		fi, err := f.Stat()
		switch {
		case err != nil:
		case !fi.Mode().IsRegular():
			err = fmt.Errorf("%s is not a regular file: a file:// asset must be one", raw)
		case fi.Size() > limit:
			err = fmt.Errorf("%s is larger than %d bytes", raw, limit)
		}
		if err != nil {
			f.Close()
			return nil, true, err
		}
		return f, true, nil
	}
	client := &http.Client{
		Timeout: 30 * time.Minute,
		Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: 30 * time.Second}).DialContext,
			TLSHandshakeTimeout:   30 * time.Second,
			ResponseHeaderTimeout: time.Minute,
		},
	}
	resp, err := client.Get(raw)
	if err != nil {
		return nil, false, fmt.Errorf("downloading: %v", err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, false, fmt.Errorf("downloading %s: %s", raw, resp.Status)
	}
	return resp.Body, false, nil
}

// Sum is what a download holds: its size and sha512 (lower-case hex).
type Sum struct {
	Size   int64
	SHA512 string
}

// Fetch downloads src (a URL as Open takes it) and returns its size and
// sha512, reading at most limit bytes; a larger download is ErrTooLarge.
func Fetch(src string, limit int64) (Sum, error) {
	body, _, err := Open(src, limit)
	if err != nil {
		return Sum{}, err
	}
	defer body.Close()
	h := sha512.New()
	n, err := io.Copy(h, io.LimitReader(body, limit+1))
	if err != nil {
		return Sum{}, fmt.Errorf("downloading %s: %v", src, err)
	}
	if n > limit {
		return Sum{}, fmt.Errorf("%s: %w (%d bytes)", src, ErrTooLarge, limit)
	}
	return Sum{Size: n, SHA512: hex.EncodeToString(h.Sum(nil))}, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
