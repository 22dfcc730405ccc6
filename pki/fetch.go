package pki

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A Fetcher keeps the certificates of specs issued and fresh. The zero
// value is ready to use: it reads the system clock, logs nowhere and runs
// actions with /bin/sh -c.
type Fetcher struct {
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// Log receives a line before each action, and the output of the
	// actions; nil discards them.
	Log io.Writer
	// RunAction runs one action; nil runs it with /bin/sh -c, its output
	// going to Log.
	RunAction func(ctx context.Context, action string) error
}

// Outcome is what Keep did for one spec.
type Outcome struct {
	Spec *Spec
	// Changed is true when the spec was kept and a file of it (or its CA
	// file) was written or had its owner or mode fixed: RunActions then
	// runs its action.
	Changed bool
	// Message says what was done and why ("issued: no certificate yet").
	Message string
	// Err is why the spec's certificate could not be kept; nil when it
	// was.
	Err error
}

// Keep keeps every spec's certificate, and says for each what it did, in
// the order of specs. It goes on after a spec fails; the actions are
// left to RunActions.
func (f *Fetcher) Keep(ctx context.Context, specs []*Spec) []Outcome {
	r := &run{cas: map[string]*caState{}, down: map[string]string{}}
	outcomes := make([]Outcome, 0, len(specs))
	for _, s := range specs {
		outcomes = append(outcomes, f.keep(ctx, s, r))
	}
	return outcomes
}

// ActionResult is an action that RunActions ran, and how it failed (nil
// when it did not).
type ActionResult struct {
	Action string
	Err    error
}

// RunActions runs the actions of the outcomes whose files changed, each
// distinct action once, in the order of the outcomes, even those of
// specs that failed otherwise.
func (f *Fetcher) RunActions(ctx context.Context, outcomes []Outcome) []ActionResult {
	var actions []string
	for _, o := range outcomes {
		if o.Changed && o.Spec.Action != "" && !slices.Contains(actions, o.Spec.Action) {
			actions = append(actions, o.Spec.Action)
		}
	}
	var res []ActionResult
	for _, a := range actions {
		f.logf("running %s", a)
		res = append(res, ActionResult{Action: a, Err: f.runAction(ctx, a)})
	}
	return res
}

func (f *Fetcher) now() time.Time {
	if f.Now != nil {
		return f.Now()
	}
	return time.Now()
}

func (f *Fetcher) logf(format string, args ...any) {
	if f.Log != nil {
		fmt.Fprintf(f.Log, format+"\n", args...)
	}
}

func (f *Fetcher) runAction(ctx context.Context, action string) error {
	if f.RunAction != nil {
		return f.RunAction(ctx, action)
	}
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", action)
	out := f.Log
	if out == nil {
		out = io.Discard
	}
	cmd.Stdout, cmd.Stderr = out, out
	return cmd.Run()
}

// run is what the specs of one Keep share.
type run struct {
	// cas are the CAs read or fetched, by root_ca file and remote.
	cas map[string]*caState
	// down are the remotes that could not be reached, with the spec that
	// tried: the others do not wait for them again.
	down map[string]string
}

// caState is the CA of one root_ca file, read (or fetched) once per run.
type caState struct {
	roots *x509.CertPool
	// fetched is true when this run fetched it (trust on bootstrap) and no
	// spec has reported that change yet.
	fetched bool
	err     error
}

// keep keeps one spec's certificate. A spec that fails has Changed
// false: its action has nothing new to give its service.
func (f *Fetcher) keep(ctx context.Context, s *Spec, r *run) Outcome {
	key := s.Authority.RootCA + "\x00" + s.Authority.Remote
	ca := r.cas[key]
	if ca == nil {
		ca = f.loadCA(ctx, s)
		r.cas[key] = ca
	}
	if ca.err != nil {
		return Outcome{Spec: s, Err: ca.err}
	}
	var notes []string
	changed := false
	if ca.fetched {
		ca.fetched = false
		changed = true
		notes = append(notes, fmt.Sprintf("fetched the CA certificate from %s into %s (trust on bootstrap)", s.Authority.Remote, s.Authority.RootCA))
	}
	// fail is the outcome of an error, after what was done before it.
	fail := func(err error) Outcome {
		if len(notes) > 0 {
			err = fmt.Errorf("%s; %w", strings.Join(notes, "; "), err)
		}
		return Outcome{Spec: s, Err: err}
	}
	// Another nodegen keeping the same files waits for this one, and then
	// finds them good.
	unlock, err := lockDir(filepath.Dir(s.PrivateKey.Path))
	if err != nil {
		return fail(fmt.Errorf("locking the directory of the private key: %w", err))
	}
	defer unlock()
	now := f.now()
	why, current, err := needsIssue(s, ca.roots, now)
	if err != nil {
		return fail(err)
	}
	certUID, certGID, err := s.Certificate.ids()
	if err != nil {
		return fail(fmt.Errorf("certificate %s: %w", s.Certificate.Path, err))
	}
	keyUID, keyGID, err := s.PrivateKey.ids()
	if err != nil {
		return fail(fmt.Errorf("private key %s: %w", s.PrivateKey.Path, err))
	}
	if why == "" {
		fixed := false
		for _, fl := range []struct {
			f        File
			uid, gid int
		}{{s.PrivateKey, keyUID, keyGID}, {s.Certificate, certUID, certGID}} {
			ch, err := fixOwnership(fl.f.Path, fl.f.perm, fl.uid, fl.gid)
			if err != nil {
				return fail(fmt.Errorf("fixing the owner and mode of %s: %w", fl.f.Path, err))
			}
			fixed = fixed || ch
		}
		if fixed {
			changed = true
			notes = append(notes, "fixed the owner or mode of its files")
		}
		notes = append(notes, fmt.Sprintf("up to date (renews after %s)", renewAt(current).UTC().Format(time.RFC3339)))
		return Outcome{Spec: s, Changed: changed, Message: strings.Join(notes, "; ")}
	}
	if by, ok := r.down[s.Authority.Remote]; ok {
		return fail(fmt.Errorf("%s, and the CA could not be reached (see %s)", why, by))
	}
	cert, err := f.issue(ctx, s, ca.roots, now, keyUID, keyGID, certUID, certGID)
	var unreachable *unreachableError
	if errors.As(err, &unreachable) {
		r.down[s.Authority.Remote] = s.Name
	}
	if err != nil {
		return fail(fmt.Errorf("%s, and a new one could not be issued: %w", why, err))
	}
	notes = append(notes, fmt.Sprintf("issued a new certificate (%s), valid until %s", why, cert.NotAfter.UTC().Format(time.RFC3339)))
	return Outcome{Spec: s, Changed: true, Message: strings.Join(notes, "; ")}
}

// loadCA reads a spec's CA file, or, when it is missing or empty and the
// spec trusts on bootstrap, fetches it from the server and writes it.
func (f *Fetcher) loadCA(ctx context.Context, s *Spec) *caState {
	a := s.Authority
	data, err := os.ReadFile(a.RootCA)
	switch {
	case err == nil && len(strings.TrimSpace(string(data))) > 0:
		roots, _, err := parseCAPEM(data)
		if err != nil {
			return &caState{err: fmt.Errorf("the CA file %s does not parse: %s", a.RootCA, err)}
		}
		return &caState{roots: roots}
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return &caState{err: fmt.Errorf("reading the CA file: %w", err)}
	case !a.TrustOnBootstrap:
		return &caState{err: fmt.Errorf("the CA file %s is missing or empty, and the spec does not trust the CA on bootstrap: put the CA's certificate there", a.RootCA)}
	}
	roots, pemData, err := bootstrapCA(ctx, a)
	if err != nil {
		return &caState{err: err}
	}
	if err := writeAtomic(a.RootCA, pemData, 0o644, -1, -1); err != nil {
		return &caState{err: fmt.Errorf("writing the CA file: %w", err)}
	}
	return &caState{roots: roots, fetched: true}
}

// bootstrapCA fetches the CA certificate from cfssl's info endpoint
// without verifying the server (there is nothing yet to verify it with),
// and accepts it only if it verifies the TLS certificate that the server
// presented, for the server's name: a CA that did not sign its own
// server's certificate is not the CA of this cluster.
func bootstrapCA(ctx context.Context, a Authority) (*x509.CertPool, []byte, error) {
	var peer []*x509.Certificate
	c := newClient(a.Remote, nil, "", &peer)
	pemData, err := c.info(ctx, a.Label, a.Profile)
	if err != nil {
		return nil, nil, fmt.Errorf("fetching the CA certificate (trust on bootstrap): %w", err)
	}
	roots, certs, err := parseCAPEM(pemData)
	if err != nil {
		return nil, nil, fmt.Errorf("the CA certificate that %s sent does not parse: %s", a.Remote, err)
	}
	// What is written is the certificates alone, each in canonical PEM.
	pemData = nil
	for _, c := range certs {
		pemData = append(pemData, certificatePEM(c)...)
	}
	if len(peer) == 0 {
		return nil, nil, fmt.Errorf("%s presented no TLS certificate", a.Remote)
	}
	u, _ := url.Parse(a.Remote)
	inter := x509.NewCertPool()
	for _, p := range peer[1:] {
		inter.AddCert(p)
	}
	if _, err := peer[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter, DNSName: u.Hostname()}); err != nil {
		return nil, nil, fmt.Errorf("refusing the CA certificate that %s sent: it does not verify the server's own TLS certificate (%s)", a.Remote, err)
	}
	return roots, pemData, nil
}

// issue makes a new key, has the CA sign it, checks the certificate and
// writes key and certificate.
func (f *Fetcher) issue(ctx context.Context, s *Spec, roots *x509.CertPool, now time.Time, keyUID, keyGID, certUID, certGID int) (*x509.Certificate, error) {
	token, err := readAuthKey(s.Authority.AuthKeyFile)
	if err != nil {
		return nil, err
	}
	key, keyPEM, err := newKey(s.Request.Key)
	if err != nil {
		return nil, fmt.Errorf("making a private key: %w", err)
	}
	csr, err := s.Request.csr(key)
	if err != nil {
		return nil, fmt.Errorf("making the certificate request: %w", err)
	}
	c := newClient(s.Authority.Remote, roots, s.Authority.RootCA, nil)
	certPEM, err := c.authSign(ctx, token, signRequest{
		Hosts:   s.Request.Hosts,
		CSR:     string(csr),
		Profile: s.Authority.Profile,
		Label:   s.Authority.Label,
	})
	if err != nil {
		return nil, err
	}
	cert, err := parseCertPEM(certPEM)
	switch {
	case err != nil:
		return nil, fmt.Errorf("the certificate the CA sent does not parse: %s", err)
	case !samePublicKey(cert, key):
		return nil, errors.New("the certificate the CA sent is not for the key that was sent")
	}
	if err := verifyChain(cert, roots, now); err != nil {
		return nil, fmt.Errorf("refusing the certificate the CA sent: it does not chain to the CA in %s (%s)", s.Authority.RootCA, err)
	}
	if m := s.Request.mismatch(cert); m != "" {
		return nil, fmt.Errorf("refusing the certificate the CA sent: %s (does the CA's signing profile change the request?)", m)
	}
	// The key first: a reader that sees the new certificate finds its key.
	if err := writeAtomic(s.PrivateKey.Path, keyPEM, s.PrivateKey.perm, keyUID, keyGID); err != nil {
		return nil, fmt.Errorf("writing the private key: %w", err)
	}
	// What is written is the certificate that was checked, in canonical
	// PEM: nothing else the CA put around it (other certificates, keys,
	// text) reaches the file.
	if err := writeAtomic(s.Certificate.Path, certificatePEM(cert), s.Certificate.perm, certUID, certGID); err != nil {
		return nil, fmt.Errorf("writing the certificate: %w", err)
	}
	return cert, nil
}
