package pki

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// env is a host directory and a fake CA for one test.
type env struct {
	dir     string
	ca      *testCA
	other   *testCA // a CA that is not the cluster's
	fake    *fakeCFSSL
	now     time.Time
	actions []string
	f       *Fetcher
}

// newEnv starts a fake cfssl whose TLS certificate is signed by the
// cluster's CA, or by another CA with tlsByOther; the host has the CA
// file and the API token.
func newEnv(t *testing.T, tlsByOther bool) *env {
	t.Helper()
	e := &env{dir: t.TempDir(), ca: newTestCA(t, "cluster CA"), other: newTestCA(t, "another CA")}
	e.now = time.Now().UTC().Truncate(time.Second)
	key := make([]byte, 16)
	rand.Read(key)
	tlsCA := e.ca
	if tlsByOther {
		tlsCA = e.other
	}
	e.fake = newFakeCFSSL(t, e.ca, tlsCA, key, func() time.Time { return e.now })
	writeFile(t, e.path("apitoken.secret"), hex.EncodeToString(key)+"\n", 0o600)
	writeFile(t, e.path("ca.pem"), string(e.ca.pem), 0o644)
	e.f = &Fetcher{
		Now: func() time.Time { return e.now },
		RunAction: func(_ context.Context, a string) error {
			e.actions = append(e.actions, a)
			return nil
		},
	}
	return e
}

func (e *env) path(name string) string { return filepath.Join(e.dir, name) }

// spec is a kube-proxy client certificate of this env.
func (e *env) spec(t *testing.T) *Spec {
	t.Helper()
	s := &Spec{
		Name: "kube-proxy-client",
		Authority: Authority{
			Remote:      e.fake.srv.URL,
			AuthKeyFile: e.path("apitoken.secret"),
			Profile:     "default",
			RootCA:      e.path("ca.pem"),
		},
		Request: Request{
			CN:    "system:kube-proxy",
			Names: []Name{{O: "system:node-proxier"}},
			Hosts: []string{"node1.example.com", "10.0.0.1"},
		},
		Certificate: File{Path: e.path("secrets/kube-proxy-client.pem")},
		PrivateKey:  File{Path: e.path("secrets/kube-proxy-client-key.pem")},
		Action:      "systemctl restart kube-proxy.service",
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	return s
}

func writeFile(t *testing.T, path, data string, perm os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), perm); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestKeep runs Keep once to issue a certificate (when issued is true),
// then changes the host, the spec or the CA (change), runs it again and
// checks what that second run did.
func TestKeep(t *testing.T) {
	const day = 24 * time.Hour
	tests := []struct {
		name       string
		tlsByOther bool // the server's TLS certificate is of another CA
		issued     bool // a first run has issued the certificate
		change     func(t *testing.T, e *env, s *Spec)
		wantMsg    string // in the outcome's message
		wantErr    string // in the outcome's error
		wantSigns  int    // certificates the CA signed in all
		wantChange bool
	}{
		{
			name:       "fresh issue",
			change:     func(*testing.T, *env, *Spec) {},
			wantMsg:    "issued a new certificate (no certificate yet)",
			wantSigns:  1,
			wantChange: true,
		},
		{
			name:      "still valid",
			issued:    true,
			change:    func(_ *testing.T, e *env, _ *Spec) { e.now = e.now.Add(19 * day) },
			wantMsg:   "up to date (renews after ",
			wantSigns: 1,
		},
		{
			name:       "in the last third: renewed",
			issued:     true,
			change:     func(_ *testing.T, e *env, _ *Spec) { e.now = e.now.Add(21 * day) },
			wantMsg:    "issued a new certificate (it is in the last third of its validity",
			wantSigns:  2,
			wantChange: true,
		},
		{
			name:       "expired: renewed",
			issued:     true,
			change:     func(_ *testing.T, e *env, _ *Spec) { e.now = e.now.Add(31 * day) },
			wantMsg:    "issued a new certificate (it expired on ",
			wantSigns:  2,
			wantChange: true,
		},
		{
			name:       "hosts changed: reissued",
			issued:     true,
			change:     func(_ *testing.T, _ *env, s *Spec) { s.Request.Hosts = append(s.Request.Hosts, "fe80::1") },
			wantMsg:    "issued a new certificate (its hosts are [10.0.0.1, node1.example.com], the spec asks for [10.0.0.1, fe80::1, node1.example.com])",
			wantSigns:  2,
			wantChange: true,
		},
		{
			name:       "CN changed: reissued",
			issued:     true,
			change:     func(_ *testing.T, _ *env, s *Spec) { s.Request.CN = "system:node:node1" },
			wantMsg:    `issued a new certificate (its CN is "system:kube-proxy", the spec asks for "system:node:node1")`,
			wantSigns:  2,
			wantChange: true,
		},
		{
			name:       "names changed: reissued",
			issued:     true,
			change:     func(_ *testing.T, _ *env, s *Spec) { s.Request.Names = []Name{{O: "system:nodes", OU: "ops"}} },
			wantMsg:    "issued a new certificate (its O is [system:node-proxier], the spec asks for [system:nodes])",
			wantSigns:  2,
			wantChange: true,
		},
		{
			name:   "key kind changed: reissued",
			issued: true,
			change: func(t *testing.T, _ *env, s *Spec) {
				s.Request.Key = KeyRequest{Algo: "rsa"}
				if err := s.Validate(); err != nil {
					t.Fatal(err)
				}
			},
			wantMsg:    "issued a new certificate (the key is ecdsa 256, the spec asks for rsa 2048)",
			wantSigns:  2,
			wantChange: true,
		},
		{
			name:   "key of another certificate: reissued",
			issued: true,
			change: func(t *testing.T, _ *env, s *Spec) {
				_, pemKey, err := newKey(s.Request.Key)
				if err != nil {
					t.Fatal(err)
				}
				writeFile(t, s.PrivateKey.Path, string(pemKey), 0o600)
			},
			wantMsg:    "issued a new certificate (the private key does not match the certificate)",
			wantSigns:  2,
			wantChange: true,
		},
		{
			name:   "certificate of another CA: reissued",
			issued: true,
			change: func(t *testing.T, e *env, s *Spec) {
				// The certificate on disk is of a CA the host no longer
				// trusts.
				writeFile(t, s.Certificate.Path, string(e.other.sign(t, s.Request.subject(), s.Request.Hosts, mustKey(t, s).Public(), e.now, 30*day)), 0o644)
			},
			wantMsg:    "issued a new certificate (it does not chain to the CA in ",
			wantSigns:  2,
			wantChange: true,
		},
		{
			name:   "mode changed: fixed, not reissued",
			issued: true,
			change: func(t *testing.T, _ *env, s *Spec) {
				if err := os.Chmod(s.Certificate.Path, 0o600); err != nil {
					t.Fatal(err)
				}
			},
			wantMsg:    "fixed the owner or mode of its files; up to date",
			wantSigns:  1,
			wantChange: true,
		},
		{
			name:      "signed by another CA: refused",
			change:    func(_ *testing.T, e *env, _ *Spec) { e.fake.signer = e.other },
			wantErr:   "no certificate yet, and a new one could not be issued: refusing the certificate the CA sent: it does not chain to the CA in ",
			wantSigns: 1,
		},
		{
			name:       "server of another CA: refused",
			tlsByOther: true,
			change:     func(*testing.T, *env, *Spec) {},
			wantErr:    "ca.pem: its TLS certificate does not verify (x509: certificate signed by unknown authority)",
		},
		{
			name: "bad token: refused",
			change: func(t *testing.T, e *env, s *Spec) {
				writeFile(t, s.Authority.AuthKeyFile, "00112233445566778899aabbccddeeff", 0o600)
			},
			wantErr: "the CA refused the request to https://127.0.0.1:",
		},
		{
			name:    "token missing",
			change:  func(t *testing.T, e *env, s *Spec) { os.Remove(s.Authority.AuthKeyFile) },
			wantErr: "apitoken.secret does not exist: it must hold the CA's API token",
		},
		{
			name:    "token not hex",
			change:  func(t *testing.T, e *env, s *Spec) { writeFile(t, s.Authority.AuthKeyFile, "not a key", 0o600) },
			wantErr: "is not a hex key",
		},
		{
			name: "CA missing, trusted on bootstrap",
			change: func(t *testing.T, e *env, s *Spec) {
				os.Remove(s.Authority.RootCA)
				s.Authority.TrustOnBootstrap = true
			},
			wantMsg:    "fetched the CA certificate from https://127.0.0.1:",
			wantSigns:  1,
			wantChange: true,
		},
		{
			name: "CA file empty, trusted on bootstrap",
			change: func(t *testing.T, e *env, s *Spec) {
				writeFile(t, s.Authority.RootCA, "", 0o644)
				s.Authority.TrustOnBootstrap = true
			},
			wantMsg:    "(trust on bootstrap); issued a new certificate (no certificate yet)",
			wantSigns:  1,
			wantChange: true,
		},
		{
			name: "CA fetched on bootstrap, token missing: no action",
			change: func(t *testing.T, e *env, s *Spec) {
				os.Remove(s.Authority.RootCA)
				os.Remove(s.Authority.AuthKeyFile)
				s.Authority.TrustOnBootstrap = true
			},
			wantErr: "(trust on bootstrap); no certificate yet, and a new one could not be issued: the API token file ",
		},
		{
			name:    "CA missing, not trusted on bootstrap",
			change:  func(t *testing.T, e *env, s *Spec) { os.Remove(s.Authority.RootCA) },
			wantErr: "is missing or empty, and the spec does not trust the CA on bootstrap: put the CA's certificate there",
		},
		{
			name:       "CA missing, trusted on bootstrap, server of another CA",
			tlsByOther: true,
			change: func(t *testing.T, e *env, s *Spec) {
				os.Remove(s.Authority.RootCA)
				s.Authority.TrustOnBootstrap = true
			},
			wantErr: "it does not verify the server's own TLS certificate",
		},
		{
			name:    "CA unreachable",
			change:  func(t *testing.T, e *env, s *Spec) { e.fake.srv.Close() },
			wantErr: "no certificate yet, and a new one could not be issued: cannot reach the CA: https://127.0.0.1:",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, tt.tlsByOther)
			s := e.spec(t)
			ctx := context.Background()
			if tt.issued {
				o := e.f.Keep(ctx, []*Spec{s})
				if o[0].Err != nil {
					t.Fatalf("first run: %v", o[0].Err)
				}
				if res := e.f.RunActions(ctx, o); len(res) != 1 || res[0].Err != nil {
					t.Fatalf("first run's actions: %v", res)
				}
			}
			e.actions = nil
			certBefore, _ := os.ReadFile(s.Certificate.Path)
			tt.change(t, e, s)

			o := e.f.Keep(ctx, []*Spec{s})[0]
			e.f.RunActions(ctx, []Outcome{o})
			if tt.wantErr != "" {
				if o.Err == nil || !strings.Contains(o.Err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one with %q", o.Err, tt.wantErr)
				}
			} else if o.Err != nil {
				t.Fatalf("error: %v", o.Err)
			} else if !strings.Contains(o.Message, tt.wantMsg) {
				t.Errorf("message = %q, want one with %q", o.Message, tt.wantMsg)
			}
			if got := e.fake.signCount(); got != tt.wantSigns {
				t.Errorf("the CA signed %d certificates, want %d", got, tt.wantSigns)
			}
			if o.Changed != tt.wantChange {
				t.Errorf("changed = %v, want %v", o.Changed, tt.wantChange)
			}
			wantActions := []string(nil)
			if tt.wantChange {
				wantActions = []string{s.Action}
			}
			if !slices.Equal(e.actions, wantActions) {
				t.Errorf("actions run: %q, want %q", e.actions, wantActions)
			}
			certAfter, _ := os.ReadFile(s.Certificate.Path)
			issuedNow := tt.wantErr == "" && strings.Contains(tt.wantMsg, "issued a new certificate") || strings.Contains(tt.name, "bootstrap") && tt.wantErr == ""
			if issuedNow == (string(certAfter) == string(certBefore)) {
				t.Errorf("certificate file rewritten = %v, want %v", !issuedNow, issuedNow)
			}
			if tt.wantErr == "" {
				checkFiles(t, e, s)
			}
			checkNoTemporaries(t, filepath.Dir(s.Certificate.Path))
		})
	}
}

func mustKey(t *testing.T, s *Spec) crypto.Signer {
	t.Helper()
	k, err := parseKeyPEM([]byte(readFile(t, s.PrivateKey.Path)))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestKeepUnreachable: once the CA could not be reached, the other specs
// that need it fail at once, and those that do not are kept.
func TestKeepUnreachable(t *testing.T) {
	e := newEnv(t, false)
	good := e.spec(t)
	good.Name = "good"
	ctx := context.Background()
	if o := e.f.Keep(ctx, []*Spec{good})[0]; o.Err != nil {
		t.Fatal(o.Err)
	}
	e.fake.srv.Close()
	var specs []*Spec
	for _, n := range []string{"a", "b"} {
		s := e.spec(t)
		s.Name = n
		s.Certificate.Path = e.path(n + ".pem")
		s.PrivateKey.Path = e.path(n + "-key.pem")
		specs = append(specs, s)
	}
	out := e.f.Keep(ctx, []*Spec{specs[0], good, specs[1]})
	if err := out[0].Err; err == nil || !strings.Contains(err.Error(), "cannot reach the CA") {
		t.Errorf("a: %v, want it unable to reach the CA", err)
	}
	if out[1].Err != nil || !strings.Contains(out[1].Message, "up to date") {
		t.Errorf("good: %q %v, want it up to date", out[1].Message, out[1].Err)
	}
	if err := out[2].Err; err == nil || err.Error() != "no certificate yet, and the CA could not be reached (see a)" {
		t.Errorf("b: %v, want it not to try the CA again", err)
	}
}

// TestKeepConcurrently: runs that keep the same spec at once issue one
// certificate, and leave a key that matches it.
func TestKeepConcurrently(t *testing.T) {
	e := newEnv(t, false)
	s := e.spec(t)
	var wg sync.WaitGroup
	outcomes := make([]Outcome, 4)
	for i := range outcomes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := &Fetcher{Now: e.f.Now}
			outcomes[i] = f.Keep(context.Background(), []*Spec{s})[0]
		}()
	}
	wg.Wait()
	issued := 0
	for _, o := range outcomes {
		if o.Err != nil {
			t.Fatal(o.Err)
		}
		if o.Changed {
			issued++
		}
	}
	if issued != 1 || e.fake.signCount() != 1 {
		t.Errorf("%d runs issued, the CA signed %d; want one each", issued, e.fake.signCount())
	}
	checkFiles(t, e, s)
}

// checkFiles checks the files of a spec that was kept: the certificate
// is good for the spec (needsIssue says so), the key has its mode, and
// the CA file is the cluster's.
func checkFiles(t *testing.T, e *env, s *Spec) {
	t.Helper()
	roots, _, err := parseCAPEM([]byte(readFile(t, s.Authority.RootCA)))
	if err != nil {
		t.Fatal(err)
	}
	if why, _, err := needsIssue(s, roots, e.now); why != "" || err != nil {
		t.Errorf("the files kept need a new certificate: %q %v", why, err)
	}
	if got := readFile(t, s.Authority.RootCA); strings.TrimSpace(got) != strings.TrimSpace(string(e.ca.pem)) {
		t.Errorf("the CA file is not the cluster's CA")
	}
	for _, f := range []File{s.Certificate, s.PrivateKey} {
		fi, err := os.Stat(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != f.perm {
			t.Errorf("%s has mode %v, want %v", f.Path, fi.Mode().Perm(), f.perm)
		}
	}
}

// checkNoTemporaries checks that no temporary file is left in dir.
func checkNoTemporaries(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

// TestKeepHostileCA: a CA that puts something after the certificate it
// signed gets only that certificate written, in canonical PEM; a CA that
// redirects the sign request anywhere but itself gets it refused before
// the request (and its token) leaves for the other place.
func TestKeepHostileCA(t *testing.T) {
	tests := []struct {
		name    string
		hostile func(t *testing.T, e *env) (sentElsewhere func() int)
		wantErr string
	}{
		{
			name: "another certificate, a private key and text after the certificate",
			hostile: func(t *testing.T, e *env) func() int {
				_, keyPEM, err := newKey(KeyRequest{Algo: "ecdsa", Size: 256})
				if err != nil {
					t.Fatal(err)
				}
				e.fake.tail = append(append(append([]byte{}, e.other.pem...), keyPEM...), "trailing junk\n"...)
				return nil
			},
		},
		{
			name: "a redirect to plain http",
			hostile: func(t *testing.T, e *env) func() int {
				p := newPlainListener(t)
				e.fake.redirect = p.srv.URL + authSignPath
				return func() int { return int(p.requests.Load()) }
			},
			wantErr: "/api/v1/cfssl/authsign redirected to http://127.0.0.1:",
		},
		{
			name: "a redirect to another port over https",
			hostile: func(t *testing.T, e *env) func() int {
				other := newFakeCFSSL(t, e.ca, e.ca, e.fake.key, e.fake.now)
				e.fake.redirect = other.srv.URL + authSignPath
				return other.signCount
			},
			wantErr: "refusing to send the request to another scheme, host or port than the CA's",
		},
		{
			name: "a redirect that stays on the CA is followed",
			hostile: func(t *testing.T, e *env) func() int {
				e.fake.redirect = e.fake.srv.URL + "/moved" + authSignPath
				return nil
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, false)
			s := e.spec(t)
			sentElsewhere := tt.hostile(t, e)
			o := e.f.Keep(context.Background(), []*Spec{s})[0]
			if sentElsewhere != nil {
				if n := sentElsewhere(); n != 0 {
					t.Errorf("%d requests reached the place the CA redirected to", n)
				}
			}
			if tt.wantErr != "" {
				if o.Err == nil || !strings.Contains(o.Err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one with %q", o.Err, tt.wantErr)
				}
				if _, err := os.Stat(s.Certificate.Path); !os.IsNotExist(err) {
					t.Errorf("a certificate was written after a refused redirect (%v)", err)
				}
				return
			}
			if o.Err != nil {
				t.Fatal(o.Err)
			}
			checkFiles(t, e, s)
			data := []byte(readFile(t, s.Certificate.Path))
			b, rest := pem.Decode(data)
			if b == nil || len(rest) != 0 {
				t.Fatalf("the certificate file is not one PEM block:\n%s", data)
			}
			cert, err := x509.ParseCertificate(b.Bytes)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := string(data), string(certificatePEM(cert)); got != want {
				t.Errorf("the certificate file is not canonical PEM:\n%s\nwant\n%s", got, want)
			}
		})
	}
}
