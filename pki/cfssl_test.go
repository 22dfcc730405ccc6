package pki

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/cfssltest"
)

// realCFSSL is a "cfssl serve" of Debian's golang-cfssl (cfssl 1.2.0),
// configured as modules/services/cluster/kubernetes/pki.hcl configures it
// on a master: a CA made with "cfssl genkey -initca", a TLS certificate
// that the CA signed, and a "default" profile whose standard auth key
// comes from the environment (that cfssl has no "file:" auth keys).
type realCFSSL struct {
	dir, remote string
	token       []byte
	caPEM       []byte
}

func startRealCFSSL(t *testing.T) *realCFSSL {
	t.Helper()
	bin := cfssltest.Bin(t)
	r := &realCFSSL{dir: t.TempDir(), token: make([]byte, 16)}
	rand.Read(r.token)
	writeFile(t, r.path("ca-csr.json"), `{"key": {"algo": "rsa", "size": 2048}, "names": [{"CN": "kubernetes-cluster-ca", "O": "NixOS", "OU": "services.kubernetes.pki.caSpec", "L": "auto-generated"}]}`, 0o644)
	cfssltest.Gen(t, bin, r.path("ca"), "genkey", "-initca", r.path("ca-csr.json"))
	writeFile(t, r.path("cfssl-csr.json"), `{"key": {"algo": "rsa", "size": 2048}, "CN": "127.0.0.1", "hosts": ["127.0.0.1"]}`, 0o644)
	cfssltest.Gen(t, bin, r.path("cfssl"), "gencert", "-ca", r.path("ca.pem"), "-ca-key", r.path("ca-key.pem"), r.path("cfssl-csr.json"))
	r.caPEM = []byte(readFile(t, r.path("ca.pem")))
	writeFile(t, r.path("cfssl-config.json"), `{"signing": {"profiles": {"default": {"usages": ["digital signature"], "auth_key": "default", "expiry": "720h"}}},
 "auth_keys": {"default": {"type": "standard", "key": "env:CFSSL_API_TOKEN"}}}`, 0o644)

	port := cfssltest.FreePort(t)
	r.remote = fmt.Sprintf("https://127.0.0.1:%d", port)
	cfssltest.Serve(t, bin, []string{"CFSSL_API_TOKEN=" + hex.EncodeToString(r.token)},
		"-address=127.0.0.1", fmt.Sprintf("-port=%d", port),
		"-ca="+r.path("ca.pem"), "-ca-key="+r.path("ca-key.pem"), "-config="+r.path("cfssl-config.json"),
		"-tls-cert="+r.path("cfssl.pem"), "-tls-key="+r.path("cfssl-key.pem"))
	// Wait until it answers, verified by its CA.
	roots, _, err := parseCAPEM(r.caPEM)
	if err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Timeout: time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := hc.Post(r.remote+infoPath, "application/json", strings.NewReader("{}"))
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("cfssl serve does not answer at %s: %v", r.remote, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return r
}

func (r *realCFSSL) path(name string) string { return filepath.Join(r.dir, name) }

// TestRealCFSSL keeps certificates with the real cfssl: a host without the
// CA trusts it on bootstrap, gets an ECDSA and an RSA certificate with the
// subject and hosts of its specs, keeps them on the next run, gets a new
// one when a spec changes, and is refused with a wrong token.
func TestRealCFSSL(t *testing.T) {
	r := startRealCFSSL(t)
	host := t.TempDir()
	writeFile(t, filepath.Join(host, "apitoken.secret"), hex.EncodeToString(r.token)+"\n", 0o600)
	spec := func(name string, key KeyRequest, names []Name, hosts ...string) *Spec {
		s := &Spec{
			Name: name,
			Authority: Authority{
				Remote: r.remote, AuthKeyFile: filepath.Join(host, "apitoken.secret"), Profile: "default",
				RootCA: filepath.Join(host, "ca.pem"), TrustOnBootstrap: true,
			},
			Request:     Request{CN: "system:" + name, Names: names, Hosts: hosts, Key: key},
			Certificate: File{Path: filepath.Join(host, "secrets", name+".pem")},
			PrivateKey:  File{Path: filepath.Join(host, "secrets", name+"-key.pem"), Mode: "0640"},
			Action:      "restart " + name,
		}
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		return s
	}
	specs := []*Spec{
		spec("kubelet", KeyRequest{}, []Name{{O: "system:nodes", OU: "workers"}}, "node1.example.com", "10.0.0.1", "fd00::1"),
		spec("kube-apiserver", KeyRequest{Algo: "rsa"}, nil, "kubernetes.default.svc", "127.0.0.1"),
		spec("cluster-admin", KeyRequest{Algo: "ecdsa", Size: 384}, []Name{{O: "system:masters"}}),
	}
	var ran []string
	f := &Fetcher{RunAction: func(_ context.Context, a string) error { ran = append(ran, a); return nil }}
	ctx := context.Background()

	outcomes := f.Keep(ctx, specs)
	f.RunActions(ctx, outcomes)
	for i, o := range outcomes {
		if o.Err != nil {
			t.Fatalf("%s: %v", o.Spec.Name, o.Err)
		}
		if want := "issued a new certificate (no certificate yet)"; !strings.Contains(o.Message, want) {
			t.Errorf("%s: %q, want %q", o.Spec.Name, o.Message, want)
		}
		if fetched := strings.Contains(o.Message, "(trust on bootstrap)"); fetched != (i == 0) {
			t.Errorf("%s: fetched the CA = %v, want it fetched once, by the first spec", o.Spec.Name, fetched)
		}
	}
	if got := readFile(t, filepath.Join(host, "ca.pem")); strings.TrimSpace(got) != strings.TrimSpace(string(r.caPEM)) {
		t.Errorf("the CA fetched on bootstrap is not cfssl's:\n%s", got)
	}
	if want := "restart kubelet,restart kube-apiserver,restart cluster-admin"; strings.Join(ran, ",") != want {
		t.Errorf("actions %q, want %q", ran, want)
	}
	roots, _, err := parseCAPEM(r.caPEM)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range specs {
		// needsIssue checks everything the spec asks for against what the
		// real CA issued: subject, names, hosts, key, chain.
		if why, _, err := needsIssue(s, roots, time.Now()); why != "" || err != nil {
			t.Errorf("%s: the certificate cfssl issued needs another: %s %v", s.Name, why, err)
		}
		cert, err := parseCertPEM([]byte(readFile(t, s.Certificate.Path)))
		if err != nil {
			t.Fatal(err)
		}
		if life := cert.NotAfter.Sub(cert.NotBefore); life < 719*time.Hour || life > 721*time.Hour {
			t.Errorf("%s: valid for %v, want the profile's 720h", s.Name, life)
		}
		if cert.KeyUsage != x509.KeyUsageDigitalSignature {
			t.Errorf("%s: key usage %v, want the profile's digital signature", s.Name, cert.KeyUsage)
		}
	}

	// A second run keeps them; a changed spec gets a new certificate.
	specs[2].Request.Hosts = []string{"admin.example.com"}
	ran = nil
	outcomes = f.Keep(ctx, specs)
	f.RunActions(ctx, outcomes)
	for i, o := range outcomes {
		want := "up to date"
		if i == 2 {
			want = "issued a new certificate (its hosts are none, the spec asks for [admin.example.com])"
		}
		if o.Err != nil || !strings.Contains(o.Message, want) {
			t.Errorf("second run, %s: %q %v, want %q", o.Spec.Name, o.Message, o.Err, want)
		}
	}
	if want := "restart cluster-admin"; strings.Join(ran, ",") != want {
		t.Errorf("second run's actions %q, want %q", ran, want)
	}

	// A wrong token: the real cfssl's refusal is the error.
	writeFile(t, filepath.Join(host, "apitoken.secret"), "00112233445566778899aabbccddeeff", 0o600)
	os.Remove(specs[0].Certificate.Path)
	o := f.Keep(ctx, specs[:1])[0]
	if o.Err == nil || !strings.Contains(o.Err.Error(), "invalid token") {
		t.Errorf("with a wrong token: %v, want cfssl's \"invalid token\"", o.Err)
	}
}
