package pki

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// testCA is a CA made for a test.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

var serial = struct {
	sync.Mutex
	n int64
}{}

func nextSerial() *big.Int {
	serial.Lock()
	defer serial.Unlock()
	serial.n++
	return big.NewInt(serial.n)
}

func newTestCA(t *testing.T, cn string) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          nextSerial(),
		Subject:               pkix.Name{CommonName: cn},
		NotBefore:             time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC),
		NotAfter:              time.Date(2040, 1, 1, 0, 0, 0, 0, time.UTC),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := x509.ParseCertificate(der)
	return &testCA{cert: c, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// sign makes a certificate for pub, as cfssl's local signer does: the
// subject of the CSR, the hosts of the request, valid from now for life.
func (ca *testCA) sign(t *testing.T, subject pkix.Name, hosts []string, pub any, now time.Time, life time.Duration) []byte {
	t.Helper()
	tmpl := &x509.Certificate{
		SerialNumber: nextSerial(),
		Subject:      subject,
		NotBefore:    now.Add(-5 * time.Minute),
		NotAfter:     now.Add(life),
		KeyUsage:     x509.KeyUsageDigitalSignature,
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, pub, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// tlsCert is a server certificate of ca for 127.0.0.1.
func (ca *testCA) tlsCert(t *testing.T) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	certPEM := ca.sign(t, pkix.Name{CommonName: "127.0.0.1"}, []string{"127.0.0.1"}, &key.PublicKey, time.Now(), 24*time.Hour)
	b, _ := pem.Decode(certPEM)
	return tls.Certificate{Certificate: [][]byte{b.Bytes}, PrivateKey: key}
}

// fakeCFSSL is an in-process stand-in for cfssl serve: /api/v1/cfssl/info
// and /api/v1/cfssl/authsign with the standard auth provider.
type fakeCFSSL struct {
	srv *httptest.Server
	// ca is what info answers; signer signs (another CA in a test of a
	// CA that signs with a key that is not the cluster's).
	ca, signer *testCA
	key        []byte
	now        func() time.Time
	life       time.Duration

	// tail is what a hostile CA appends to the certificate it sends.
	tail []byte
	// redirect, when set, is where authsign sends the client instead of
	// answering (a 307, which repeats the request and its token there).
	redirect string

	mu    sync.Mutex
	signs int // authsign requests answered with a certificate
}

// newFakeCFSSL serves with a TLS certificate of tlsCA, answers info with
// ca and signs with ca, authenticated by key.
func newFakeCFSSL(t *testing.T, ca, tlsCA *testCA, key []byte, now func() time.Time) *fakeCFSSL {
	t.Helper()
	f := &fakeCFSSL{ca: ca, signer: ca, key: key, now: now, life: 30 * 24 * time.Hour}
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+infoPath, func(w http.ResponseWriter, r *http.Request) {
		writeAPI(w, http.StatusOK, map[string]any{"certificate": string(f.ca.pem)}, "")
	})
	mux.HandleFunc("POST "+authSignPath, f.authSign(t))
	// The same handler at another path of the same server, for a redirect
	// that stays on the CA.
	mux.HandleFunc("POST /moved"+authSignPath, f.authSign(t))
	f.srv = httptest.NewUnstartedServer(mux)
	f.srv.TLS = &tls.Config{Certificates: []tls.Certificate{tlsCA.tlsCert(t)}}
	f.srv.StartTLS()
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeCFSSL) authSign(t *testing.T) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if f.redirect != "" && r.URL.Path == authSignPath {
			http.Redirect(w, r, f.redirect, http.StatusTemporaryRedirect)
			return
		}
		var ar authenticatedRequest
		if err := json.NewDecoder(r.Body).Decode(&ar); err != nil {
			writeAPI(w, http.StatusBadRequest, nil, err.Error())
			return
		}
		mac := hmac.New(sha256.New, f.key)
		mac.Write(ar.Request)
		if !hmac.Equal(mac.Sum(nil), ar.Token) {
			writeAPI(w, http.StatusBadRequest, nil, "invalid token")
			return
		}
		var sr signRequest
		if err := json.Unmarshal(ar.Request, &sr); err != nil {
			writeAPI(w, http.StatusBadRequest, nil, "Unable to parse authenticated sign request")
			return
		}
		b, _ := pem.Decode([]byte(sr.CSR))
		if b == nil {
			writeAPI(w, http.StatusBadRequest, nil, "bad CSR")
			return
		}
		csr, err := x509.ParseCertificateRequest(b.Bytes)
		if err != nil || csr.CheckSignature() != nil {
			writeAPI(w, http.StatusBadRequest, nil, "bad CSR")
			return
		}
		cert := f.signer.sign(t, csr.Subject, sr.Hosts, csr.PublicKey, f.now(), f.life)
		f.mu.Lock()
		f.signs++
		f.mu.Unlock()
		writeAPI(w, http.StatusOK, map[string]any{"certificate": string(cert) + string(f.tail)}, "")
	}
}

func (f *fakeCFSSL) signCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.signs
}

// writeAPI writes cfssl's response envelope.
func writeAPI(w http.ResponseWriter, status int, result any, errMsg string) {
	resp := map[string]any{"success": errMsg == "", "result": result, "errors": []any{}, "messages": []any{}}
	if errMsg != "" {
		resp["errors"] = []any{map[string]any{"code": status, "message": errMsg}}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(resp)
}

// plainListener is a plain-HTTP server that records every request body
// it is sent (what a redirect to http:// would give away) and answers
// 500.
type plainListener struct {
	srv      *httptest.Server
	requests atomic.Int32
}

func newPlainListener(t *testing.T) *plainListener {
	t.Helper()
	p := &plainListener{}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.requests.Add(1)
		w.WriteHeader(http.StatusInternalServerError)
	}))
	t.Cleanup(p.srv.Close)
	return p
}
