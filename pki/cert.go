package pki

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"slices"
	"strings"
	"time"
)

// renewalFraction is how much of a certificate's validity may pass
// before it is renewed: a certificate in the last third of its validity
// is replaced.
const renewalFraction = 2.0 / 3.0

// renewAt is when a certificate enters the last third of its validity.
func renewAt(c *x509.Certificate) time.Time {
	life := c.NotAfter.Sub(c.NotBefore)
	return c.NotBefore.Add(time.Duration(float64(life) * renewalFraction))
}

// parseCertPEM parses the first certificate of a PEM file.
func parseCertPEM(data []byte) (*x509.Certificate, error) {
	for {
		var b *pem.Block
		b, data = pem.Decode(data)
		if b == nil {
			return nil, errors.New("no PEM certificate in it")
		}
		if b.Type == "CERTIFICATE" {
			return x509.ParseCertificate(b.Bytes)
		}
	}
}

// certificatePEM is the canonical PEM of a certificate: one CERTIFICATE
// block of its DER, without headers.
func certificatePEM(c *x509.Certificate) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})
}

// parseCAPEM parses every certificate of a PEM CA file into a pool.
func parseCAPEM(data []byte) (*x509.CertPool, []*x509.Certificate, error) {
	pool := x509.NewCertPool()
	var certs []*x509.Certificate
	for {
		var b *pem.Block
		b, data = pem.Decode(data)
		if b == nil {
			break
		}
		if b.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			return nil, nil, err
		}
		pool.AddCert(c)
		certs = append(certs, c)
	}
	if len(certs) == 0 {
		return nil, nil, errors.New("no PEM certificate in it")
	}
	return pool, certs, nil
}

// parseKeyPEM parses a private key in PEM: PKCS #1 (RSA), SEC 1 (EC) or
// PKCS #8.
func parseKeyPEM(data []byte) (crypto.Signer, error) {
	b, _ := pem.Decode(data)
	if b == nil {
		return nil, errors.New("no PEM block in it")
	}
	if k, err := x509.ParsePKCS1PrivateKey(b.Bytes); err == nil {
		return k, nil
	}
	if k, err := x509.ParseECPrivateKey(b.Bytes); err == nil {
		return k, nil
	}
	k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
	if err != nil {
		return nil, errors.New("not an RSA, EC or PKCS #8 private key")
	}
	s, ok := k.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("a %T private key cannot sign", k)
	}
	return s, nil
}

// newKey makes a private key of the requested kind and its PEM: SEC 1
// ("EC PRIVATE KEY") or PKCS #1 ("RSA PRIVATE KEY"), as cfssl writes them.
func newKey(k KeyRequest) (crypto.Signer, []byte, error) {
	switch k.Algo {
	case "rsa":
		key, err := rsa.GenerateKey(rand.Reader, k.Size)
		if err != nil {
			return nil, nil, err
		}
		return key, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}), nil
	case "ecdsa":
		curve := map[int]elliptic.Curve{256: elliptic.P256(), 384: elliptic.P384(), 521: elliptic.P521()}[k.Size]
		if curve == nil {
			return nil, nil, fmt.Errorf("no ECDSA curve of size %d", k.Size)
		}
		key, err := ecdsa.GenerateKey(curve, rand.Reader)
		if err != nil {
			return nil, nil, err
		}
		der, err := x509.MarshalECPrivateKey(key)
		if err != nil {
			return nil, nil, err
		}
		return key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), nil
	}
	return nil, nil, fmt.Errorf("unknown key algorithm %q", k.Algo)
}

// keyKind names a public key's algorithm and size as a spec does ("ecdsa
// 256", "rsa 2048").
func keyKind(pub crypto.PublicKey) string {
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		return fmt.Sprintf("ecdsa %d", k.Curve.Params().BitSize)
	case *rsa.PublicKey:
		return fmt.Sprintf("rsa %d", k.N.BitLen())
	}
	return fmt.Sprintf("%T", pub)
}

// samePublicKey reports whether a certificate certifies key.
func samePublicKey(c *x509.Certificate, key crypto.Signer) bool {
	pub, ok := key.Public().(interface{ Equal(crypto.PublicKey) bool })
	return ok && pub.Equal(c.PublicKey)
}

// subject is the subject a request asks for.
func (r Request) subject() pkix.Name {
	n := pkix.Name{CommonName: r.CN}
	for _, f := range r.Names {
		add := func(list *[]string, v string) {
			if v != "" {
				*list = append(*list, v)
			}
		}
		add(&n.Country, f.C)
		add(&n.Province, f.ST)
		add(&n.Locality, f.L)
		add(&n.Organization, f.O)
		add(&n.OrganizationalUnit, f.OU)
	}
	return n
}

// sans splits a request's hosts into the three kinds of subject
// alternative names.
func (r Request) sans() (dns []string, ips []net.IP, emails []string) {
	for _, h := range r.Hosts {
		if ip := net.ParseIP(h); ip != nil {
			ips = append(ips, ip)
		} else if strings.Contains(h, "@") {
			emails = append(emails, h)
		} else {
			dns = append(dns, h)
		}
	}
	return dns, ips, emails
}

// csr makes the PEM certificate signing request of r for key.
func (r Request) csr(key crypto.Signer) ([]byte, error) {
	dns, ips, emails := r.sans()
	der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{
		Subject:        r.subject(),
		DNSNames:       dns,
		IPAddresses:    ips,
		EmailAddresses: emails,
	}, key)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der}), nil
}

// mismatch says how a certificate differs from what r asks for (its
// subject and its alternative names); "" when it does not.
func (r Request) mismatch(c *x509.Certificate) string {
	want := r.subject()
	if c.Subject.CommonName != want.CommonName {
		return fmt.Sprintf("its CN is %q, the spec asks for %q", c.Subject.CommonName, want.CommonName)
	}
	fields := []struct {
		name      string
		got, want []string
	}{
		{"C", c.Subject.Country, want.Country},
		{"ST", c.Subject.Province, want.Province},
		{"L", c.Subject.Locality, want.Locality},
		{"O", c.Subject.Organization, want.Organization},
		{"OU", c.Subject.OrganizationalUnit, want.OrganizationalUnit},
	}
	for _, f := range fields {
		if g, w := sortedSet(f.got), sortedSet(f.want); !slices.Equal(g, w) {
			return fmt.Sprintf("its %s is %s, the spec asks for %s", f.name, listText(g), listText(w))
		}
	}
	var got []string
	got = append(got, c.DNSNames...)
	for _, ip := range c.IPAddresses {
		got = append(got, ip.String())
	}
	got = append(got, c.EmailAddresses...)
	var wantHosts []string
	for _, h := range r.Hosts {
		if ip := net.ParseIP(h); ip != nil {
			h = ip.String()
		}
		wantHosts = append(wantHosts, h)
	}
	if g, w := sortedSet(got), sortedSet(wantHosts); !slices.Equal(g, w) {
		return fmt.Sprintf("its hosts are %s, the spec asks for %s", listText(g), listText(w))
	}
	return ""
}

func sortedSet(l []string) []string {
	out := slices.Clone(l)
	slices.Sort(out)
	return slices.Compact(out)
}

func listText(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return "[" + strings.Join(l, ", ") + "]"
}

// verifyChain checks that c chains to a CA of roots at now, for any use.
func verifyChain(c *x509.Certificate, roots *x509.CertPool, now time.Time) error {
	_, err := c.Verify(x509.VerifyOptions{Roots: roots, CurrentTime: now, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageAny}})
	return err
}

// needsIssue says why a spec needs a new certificate, or "" when the one
// on disk is good: it parses, its key matches it and is of the kind the
// spec asks for, it chains to the CA, says what the spec asks for, and is
// not in the last third of its validity; then it returns that certificate.
func needsIssue(s *Spec, roots *x509.CertPool, now time.Time) (string, *x509.Certificate, error) {
	certPEM, err := os.ReadFile(s.Certificate.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return "no certificate yet", nil, nil
	} else if err != nil {
		return "", nil, fmt.Errorf("reading the certificate: %w", err)
	}
	cert, err := parseCertPEM(certPEM)
	if err != nil {
		return fmt.Sprintf("the certificate %s does not parse (%s)", s.Certificate.Path, err), nil, nil
	}
	keyPEM, err := os.ReadFile(s.PrivateKey.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return "no private key", nil, nil
	} else if err != nil {
		return "", nil, fmt.Errorf("reading the private key: %w", err)
	}
	key, err := parseKeyPEM(keyPEM)
	switch {
	case err != nil:
		return fmt.Sprintf("the private key %s does not parse (%s)", s.PrivateKey.Path, err), nil, nil
	case !samePublicKey(cert, key):
		return "the private key does not match the certificate", nil, nil
	}
	if got, want := keyKind(key.Public()), fmt.Sprintf("%s %d", s.Request.Key.Algo, s.Request.Key.Size); got != want {
		return fmt.Sprintf("the key is %s, the spec asks for %s", got, want), nil, nil
	}
	if now.After(cert.NotAfter) {
		return fmt.Sprintf("it expired on %s", cert.NotAfter.UTC().Format(time.RFC3339)), nil, nil
	}
	if err := verifyChain(cert, roots, now); err != nil {
		return fmt.Sprintf("it does not chain to the CA in %s (%s)", s.Authority.RootCA, err), nil, nil
	}
	if m := s.Request.mismatch(cert); m != "" {
		return m, nil, nil
	}
	if r := renewAt(cert); !now.Before(r) {
		return fmt.Sprintf("it is in the last third of its validity since %s, and expires on %s",
			r.UTC().Format(time.RFC3339), cert.NotAfter.UTC().Format(time.RFC3339)), nil, nil
	}
	return "", cert, nil
}
