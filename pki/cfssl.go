package pki

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	neturl "net/url"
	"os"
	"strings"
	"time"
)

// The endpoints of cfssl's API that a Fetcher calls.
const (
	infoPath     = "/api/v1/cfssl/info"
	authSignPath = "/api/v1/cfssl/authsign"
)

// requestTimeout bounds one request to the CA.
const requestTimeout = 30 * time.Second

// client talks to one cfssl API server over TLS.
type client struct {
	remote string
	rootCA string // the file of roots, for messages
	http   *http.Client
}

// newClient returns a client that verifies the server against roots (read
// from the file rootCA), or, with roots nil, does not verify it and
// records the certificates it presented in *peer (the one request of a
// trust on bootstrap).
func newClient(remote string, roots *x509.CertPool, rootCA string, peer *[]*x509.Certificate) *client {
	cfg := &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	if roots == nil {
		cfg.InsecureSkipVerify = true
		cfg.VerifyConnection = func(cs tls.ConnectionState) error {
			*peer = cs.PeerCertificates
			return nil
		}
	}
	return &client{
		remote: strings.TrimRight(remote, "/"),
		rootCA: rootCA,
		http: &http.Client{
			Timeout:       requestTimeout,
			Transport:     &http.Transport{TLSClientConfig: cfg, Proxy: http.ProxyFromEnvironment},
			CheckRedirect: sameOriginRedirect,
		},
	}
}

// maxRedirects bounds the redirects one request follows.
const maxRedirects = 5

// A redirectError is a redirect that the client refused to follow: to
// another scheme, host or port than the request it answered (which would
// carry the token and the request elsewhere, perhaps in clear), or one
// too many.
type redirectError struct {
	from, to *neturl.URL
	tooMany  bool
}

func (e *redirectError) Error() string {
	if e.tooMany {
		return fmt.Sprintf("%s redirected more than %d times", e.from.Redacted(), maxRedirects)
	}
	return fmt.Sprintf("%s redirected to %s: refusing to send the request to another scheme, host or port than the CA's", e.from.Redacted(), e.to.Redacted())
}

// sameOriginRedirect is the CheckRedirect of a client: it follows a
// redirect only to the scheme, host and port of the request it answers.
func sameOriginRedirect(req *http.Request, via []*http.Request) error {
	prev := via[len(via)-1].URL
	switch {
	case origin(req.URL) != origin(prev):
		return &redirectError{from: prev, to: req.URL}
	case len(via) >= maxRedirects:
		return &redirectError{from: prev, to: req.URL, tooMany: true}
	}
	return nil
}

// origin is a URL's scheme, host and port, the port made explicit.
func origin(u *neturl.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		port = map[string]string{"https": "443", "http": "80"}[scheme]
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// apiResponse is the envelope of every cfssl API answer.
type apiResponse struct {
	Success bool            `json:"success"`
	Result  json.RawMessage `json:"result"`
	Errors  []struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"errors"`
}

// post sends body to the endpoint and decodes the result of a successful
// answer into result.
func (c *client) post(ctx context.Context, path string, body []byte, result any) error {
	endpoint := c.remote + path
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("CA %s: %w", c.remote, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	var verr *tls.CertificateVerificationError
	var rerr *redirectError
	switch {
	case errors.As(err, &rerr):
		return rerr
	case errors.As(err, &verr):
		return fmt.Errorf("the server at %s is not the CA in %s: its TLS certificate does not verify (%w)", c.remote, c.rootCA, verr.Err)
	case err != nil:
		return &unreachableError{unwrapURLError(err)}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("reading the answer of %s: %w", endpoint, err)
	}
	var r apiResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return fmt.Errorf("%s answered %s with something that is not a cfssl API response: %q", endpoint, resp.Status, abbreviate(data))
	}
	if !r.Success || resp.StatusCode != http.StatusOK {
		var msgs []string
		for _, e := range r.Errors {
			msgs = append(msgs, fmt.Sprintf("%s (code %d)", e.Message, e.Code))
		}
		if len(msgs) == 0 {
			msgs = append(msgs, "no reason given")
		}
		return fmt.Errorf("the CA refused the request to %s (%s): %s", endpoint, resp.Status, strings.Join(msgs, "; "))
	}
	if err := json.Unmarshal(r.Result, result); err != nil {
		return fmt.Errorf("%s answered with an unexpected result: %s", endpoint, jsonErrorText(err))
	}
	return nil
}

// unreachableError is a request that did not reach the CA (no answer,
// no connection): the specs after it do not try the same CA again in
// this run.
type unreachableError struct{ err error }

func (e *unreachableError) Error() string { return "cannot reach the CA: " + e.err.Error() }
func (e *unreachableError) Unwrap() error { return e.err }

// unwrapURLError drops the method that net/http puts before the URL of
// a failed request ("Post URL: cause" becomes "URL: cause").
func unwrapURLError(err error) error {
	var ue *neturl.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s: %w", ue.URL, ue.Err)
	}
	return err
}

// abbreviate is the start of an unexpected answer, for a message.
func abbreviate(b []byte) string {
	const max = 200
	s := strings.TrimSpace(string(b))
	if len(s) > max {
		s = s[:max] + "..."
	}
	return s
}

// info asks for the signer's certificate (PEM) of the label and profile.
func (c *client) info(ctx context.Context, label, profile string) ([]byte, error) {
	body, _ := json.Marshal(struct {
		Label   string `json:"label"`
		Profile string `json:"profile"`
	}{label, profile})
	return c.postForCertificate(ctx, infoPath, body)
}

// postForCertificate posts body to an endpoint whose result is a
// certificate (PEM), and returns it.
func (c *client) postForCertificate(ctx context.Context, path string, body []byte) ([]byte, error) {
	var res struct {
		Certificate string `json:"certificate"`
	}
	if err := c.post(ctx, path, body, &res); err != nil {
		return nil, err
	}
	if res.Certificate == "" {
		return nil, fmt.Errorf("%s%s answered without a certificate", c.remote, path)
	}
	return []byte(res.Certificate), nil
}

// signRequest is the request inside an authenticated sign request.
type signRequest struct {
	Hosts   []string `json:"hosts"`
	CSR     string   `json:"certificate_request"`
	Profile string   `json:"profile"`
	Label   string   `json:"label"`
}

// authenticatedRequest is cfssl's envelope of a request and its token;
// the byte slices are base64 in JSON, as cfssl expects.
type authenticatedRequest struct {
	Token   []byte `json:"token"`
	Request []byte `json:"request"`
}

// authSign has the CA sign a CSR, authenticated with key: the token is
// HMAC-SHA256 of the request's JSON under the key, as cfssl's "standard"
// auth provider computes it (without additional data). It returns the
// certificate (PEM).
func (c *client) authSign(ctx context.Context, key []byte, req signRequest) ([]byte, error) {
	if req.Hosts == nil {
		req.Hosts = []string{}
	}
	inner, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	mac := hmac.New(sha256.New, key)
	mac.Write(inner)
	body, err := json.Marshal(authenticatedRequest{Token: mac.Sum(nil), Request: inner})
	if err != nil {
		return nil, err
	}
	return c.postForCertificate(ctx, authSignPath, body)
}

// readAuthKey reads the hex API token of an auth_key_file.
func readAuthKey(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("the API token file %s does not exist: it must hold the CA's API token (the hex key of its auth_keys)", path)
	case err != nil:
		return nil, fmt.Errorf("reading the API token: %w", err)
	}
	s := strings.TrimSpace(string(data))
	if s == "" {
		return nil, fmt.Errorf("the API token file %s is empty: it must hold the CA's API token (the hex key of its auth_keys)", path)
	}
	key, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("the API token in %s is not a hex key (as cfssl's auth_keys take it)", path)
	}
	return key, nil
}
