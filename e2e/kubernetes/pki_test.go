package kubernetes

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"math/big"
	"net"
	"testing"
	"time"
)

// certSpec is a certificate the test issues: secrets/NAME.pem and
// secrets/NAME-key.pem, the names easyCerts gives them (testdata/nspawn.hcl
// points the host's options at them), read by Owner.
type certSpec struct {
	Name   string
	CN     string
	Org    string
	Hosts  []string // DNS names and IP addresses; a server certificate
	Client bool     // usable as a client certificate
	Owner  string   // the user that reads the key
}

// masterCerts are the certificates of a master whose names (its node
// name first) and address ip are served by the apiserver, at serviceIP in
// the service range too, and etcd, with those of its own node (nodeCerts)
// and the test's cluster-admin.
func masterCerts(ip, serviceIP string, names ...string) []certSpec {
	local := append(append([]string{ip}, names...), "127.0.0.1", "localhost")
	return append([]certSpec{
		{Name: "etcd", CN: "etcd", Hosts: append([]string{"etcd.local"}, local...), Client: true, Owner: "etcd"},
		{Name: "kube-apiserver", CN: "kubernetes", Hosts: append([]string{serviceIP, "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"}, local...), Owner: "kubernetes"},
		{Name: "kube-apiserver-etcd-client", CN: "etcd-client", Client: true, Owner: "kubernetes"},
		// system:masters: the apiserver may read logs and exec through
		// every kubelet (kubeadm gives its kubelet client the same group).
		{Name: "kube-apiserver-kubelet-client", CN: "system:kube-apiserver", Org: "system:masters", Client: true, Owner: "kubernetes"},
		{Name: "service-account", CN: "system:service-account-signer", Owner: "kubernetes"},
		{Name: "kube-controller-manager-client", CN: "system:kube-controller-manager", Client: true, Owner: "kubernetes"},
		{Name: "kube-scheduler-client", CN: "system:kube-scheduler", Client: true, Owner: "kubernetes"},
		{Name: "cluster-admin", CN: "cluster-admin", Org: "system:masters", Client: true, Owner: "root"},
	}, nodeCerts(ip, names...)...)
}

// nodeCerts are the certificates of a node whose names (its node name
// first) and address ip the kubelet serves.
func nodeCerts(ip string, names ...string) []certSpec {
	return []certSpec{
		{Name: "kube-proxy-client", CN: "system:kube-proxy", Client: true, Owner: "root"},
		{Name: "kubelet", CN: names[0], Hosts: append([]string{ip, "127.0.0.1"}, names...), Owner: "root"},
		{Name: "kubelet-client", CN: "system:node:" + names[0], Org: "system:nodes", Client: true, Owner: "root"},
	}
}

// pki is a CA and the certificates it issued, as PEM.
type pki struct {
	caCert []byte
	certs  map[string][2][]byte // name → certificate, key
	ca     *x509.Certificate
	caKey  *ecdsa.PrivateKey
}

// newPKI makes a CA.
func newPKI(t testing.TB) *pki {
	t.Helper()
	ca, key := newCert(t, &x509.Certificate{
		Subject:               pkix.Name{CommonName: "nodegen-e2e-ca", Organization: []string{"nodegen e2e"}},
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}, nil, nil)
	return &pki{caCert: certPEM(ca), certs: map[string][2][]byte{}, ca: ca, caKey: key}
}

// issue makes the certificate of spec, signed by the CA.
func (p *pki) issue(t testing.TB, spec certSpec) {
	t.Helper()
	tmpl := &x509.Certificate{
		Subject:  pkix.Name{CommonName: spec.CN},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
	}
	if spec.Org != "" {
		tmpl.Subject.Organization = []string{spec.Org}
	}
	for _, h := range spec.Hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	if len(spec.Hosts) > 0 {
		tmpl.ExtKeyUsage = append(tmpl.ExtKeyUsage, x509.ExtKeyUsageServerAuth)
	}
	if spec.Client {
		tmpl.ExtKeyUsage = append(tmpl.ExtKeyUsage, x509.ExtKeyUsageClientAuth)
	}
	cert, key := newCert(t, tmpl, p.ca, p.caKey)
	p.certs[spec.Name] = [2][]byte{certPEM(cert), keyPEM(t, key)}
}

// newCert makes a key (ECDSA P-256: quick to make) and a certificate of
// tmpl for it, valid for a day, with a random serial number, signed by
// parent's key parentKey, or by itself when parent is nil.
func newCert(t testing.TB, tmpl, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	if err != nil {
		t.Fatal(err)
	}
	tmpl.SerialNumber = serial
	tmpl.NotBefore = time.Now().Add(-time.Hour)
	tmpl.NotAfter = time.Now().Add(24 * time.Hour)
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert, key
}

// certPEM encodes a certificate as PEM.
func certPEM(cert *x509.Certificate) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw})
}

// kubeconfig returns a kubeconfig for server that authenticates with the
// certificate name, inline.
func (p *pki) kubeconfig(server, name string) []byte {
	b64 := base64.StdEncoding.EncodeToString
	pair := p.certs[name]
	return []byte(`apiVersion: v1
kind: Config
clusters:
- name: e2e
  cluster:
    server: ` + server + `
    certificate-authority-data: ` + b64(p.caCert) + `
users:
- name: ` + name + `
  user:
    client-certificate-data: ` + b64(pair[0]) + `
    client-key-data: ` + b64(pair[1]) + `
contexts:
- name: e2e
  context: {cluster: e2e, user: ` + name + `}
current-context: e2e
`)
}

// keyPEM encodes a private key as PKCS #8 PEM.
func keyPEM(t testing.TB, key *ecdsa.PrivateKey) []byte {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
}
