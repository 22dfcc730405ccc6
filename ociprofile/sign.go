package ociprofile

import (
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/opencontainers/go-digest"
)

// The annotations of a host's manifest.
const (
	AnnotationHost      = "org.nodegen.host"
	AnnotationSerial    = "org.nodegen.serial"
	AnnotationExpires   = "org.nodegen.expires"
	AnnotationKey       = "org.nodegen.signature.key"
	AnnotationSignature = "org.nodegen.signature"
)

// Statement is what a publisher signs for one host: that the profile
// whose manifest has the digest Profile is the host's, with the serial
// Serial, until Expires.
type Statement struct {
	Host    string
	Serial  uint64
	Expires time.Time
	Profile digest.Digest
}

// payload is the bytes signed: a fixed text, each field on its line, so
// that the signature depends on no JSON encoder.
func (s Statement) payload() []byte {
	return fmt.Appendf(nil, "nodegen-profile-statement-v1\nhost %s\nserial %d\nexpires %s\nprofile %s\n",
		s.Host, s.Serial, s.Expires.UTC().Format(time.RFC3339), s.Profile)
}

// Sign returns the annotations that carry s signed with key.
func Sign(s Statement, key ed25519.PrivateKey) map[string]string {
	return map[string]string{
		AnnotationHost:      s.Host,
		AnnotationSerial:    strconv.FormatUint(s.Serial, 10),
		AnnotationExpires:   s.Expires.UTC().Format(time.RFC3339),
		AnnotationKey:       KeyID(key.Public().(ed25519.PublicKey)),
		AnnotationSignature: base64.StdEncoding.EncodeToString(ed25519.Sign(key, s.payload())),
	}
}

// ErrUntrusted is the error of a manifest signed by no trusted key, or
// whose signature does not match its content.
var ErrUntrusted = errors.New("untrusted manifest")

// ReadStatement reads the statement of a manifest's annotations, the
// profile being its config blob's digest, without checking the signature.
func ReadStatement(annotations map[string]string, config digest.Digest) (Statement, error) {
	s := Statement{Host: annotations[AnnotationHost], Profile: config}
	if s.Host == "" {
		return s, fmt.Errorf("%w: it has no %s annotation", ErrUntrusted, AnnotationHost)
	}
	serial, err := strconv.ParseUint(annotations[AnnotationSerial], 10, 64)
	if err != nil {
		return s, fmt.Errorf("%w: its %s annotation %q is not a serial", ErrUntrusted, AnnotationSerial, annotations[AnnotationSerial])
	}
	s.Serial = serial
	if s.Expires, err = time.Parse(time.RFC3339, annotations[AnnotationExpires]); err != nil {
		return s, fmt.Errorf("%w: its %s annotation %q is not a time (RFC 3339)", ErrUntrusted, AnnotationExpires, annotations[AnnotationExpires])
	}
	return s, nil
}

// Verify checks the signature of a manifest's annotations, whose config
// blob has the digest config, against the trusted keys, and returns the
// statement signed.
func Verify(annotations map[string]string, config digest.Digest, trusted []ed25519.PublicKey) (Statement, error) {
	s, err := ReadStatement(annotations, config)
	if err != nil {
		return s, err
	}
	sig, err := base64.StdEncoding.DecodeString(annotations[AnnotationSignature])
	if err != nil || len(sig) != ed25519.SignatureSize {
		return s, fmt.Errorf("%w: its %s annotation is not an ed25519 signature", ErrUntrusted, AnnotationSignature)
	}
	id := annotations[AnnotationKey]
	for _, k := range trusted {
		if KeyID(k) == id {
			if !ed25519.Verify(k, s.payload(), sig) {
				return s, fmt.Errorf("%w: its signature by key %s does not match its content (host, serial, expiry, profile)", ErrUntrusted, id)
			}
			return s, nil
		}
	}
	ids := make([]string, len(trusted))
	for i, k := range trusted {
		ids[i] = KeyID(k)
	}
	return s, fmt.Errorf("%w: it is signed by key %q, which is not trusted here (trusted: %s)", ErrUntrusted, id, strings.Join(ids, ", "))
}

// KeyID names a public key: "ed25519:" and the first 16 hex digits of the
// SHA-256 of its 32 bytes.
func KeyID(k ed25519.PublicKey) string {
	sum := sha256.Sum256(k)
	return "ed25519:" + hex.EncodeToString(sum[:8])
}

// ReadPrivateKey reads an ed25519 private key from a PEM file (PKCS #8,
// as "openssl genpkey -algorithm ed25519" writes it).
func ReadPrivateKey(path string) (ed25519.PrivateKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("%s: not a PEM \"PRIVATE KEY\" (PKCS #8) file", path)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	ek, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("%s: a %T, not an ed25519 key", path, k)
	}
	return ek, nil
}

// ParsePublicKey reads an ed25519 public key in PEM (PKIX, as "openssl
// pkey -pubout" writes it); name names it in errors.
func ParsePublicKey(data []byte, name string) (ed25519.PublicKey, error) {
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "PUBLIC KEY" {
		return nil, fmt.Errorf("%s: not a PEM \"PUBLIC KEY\" block", name)
	}
	k, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	ek, ok := k.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("%s: a %T, not an ed25519 key", name, k)
	}
	return ek, nil
}

// EncodeKeys returns a new key pair's private and public keys in PEM, as
// ReadPrivateKey and ParsePublicKey read them.
func EncodeKeys(k ed25519.PrivateKey) (private, public []byte, err error) {
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		return nil, nil, err
	}
	pub, err := x509.MarshalPKIXPublicKey(k.Public())
	if err != nil {
		return nil, nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}), nil
}
