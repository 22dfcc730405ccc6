package pki

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// A Spec describes one certificate: where to ask for it, what to ask for,
// where to write it and what to run after it changed. Its JSON form is
// what the module library writes (one file per certificate), in the shape
// of certmgr's specs:
//
//	{
//	  "authority": {"remote": "https://master:8888", "auth_key_file": "/var/lib/kubernetes/secrets/apitoken.secret",
//	                "profile": "default", "root_ca": "/var/lib/kubernetes/secrets/ca.pem", "trust_on_bootstrap": true},
//	  "request": {"CN": "system:kube-proxy", "names": [{"O": "system:nodes"}], "hosts": ["node1", "10.0.0.1"],
//	              "key": {"algo": "ecdsa", "size": 256}},
//	  "certificate": {"path": "/var/lib/kubernetes/secrets/kube-proxy-client.pem", "mode": "0644"},
//	  "private_key": {"path": "/var/lib/kubernetes/secrets/kube-proxy-client-key.pem", "owner": "kubernetes", "group": "nogroup", "mode": "0600"},
//	  "action": "systemctl restart kube-proxy.service"
//	}
type Spec struct {
	// Name names the spec in messages: its file's base name without
	// ".json", or what the caller chose.
	Name string `json:"-"`

	Authority   Authority `json:"authority"`
	Request     Request   `json:"request"`
	Certificate File      `json:"certificate"`
	PrivateKey  File      `json:"private_key"`
	// Action is a shell command (run with /bin/sh -c) to run after the
	// certificate, its key or the CA file were written or had their owner
	// or mode fixed; empty runs nothing.
	Action string `json:"action,omitempty"`
}

// Authority is the cfssl CA that signs a spec's certificate.
type Authority struct {
	// Remote is the base URL of the cfssl API server, https://HOST:PORT.
	Remote string `json:"remote"`
	// AuthKeyFile holds the API token: the hex key of cfssl's "standard"
	// auth provider (white space around it is ignored).
	AuthKeyFile string `json:"auth_key_file"`
	// Profile and Label choose cfssl's signing profile and signer.
	Profile string `json:"profile,omitempty"`
	Label   string `json:"label,omitempty"`
	// RootCA is the file of the CA certificate (PEM): the certificate must
	// chain to it, and the server's TLS certificate too.
	RootCA string `json:"root_ca"`
	// TrustOnBootstrap allows fetching a missing RootCA from the server
	// itself, without verifying the server (NixOS's pkiTrustOnBootstrap).
	TrustOnBootstrap bool `json:"trust_on_bootstrap,omitempty"`
}

// Request is what the certificate must say, and the key it certifies.
type Request struct {
	CN    string `json:"CN"`
	Names []Name `json:"names,omitempty"`
	// Hosts are the subject alternative names: IP addresses, e-mail
	// addresses (with an @), or DNS names.
	Hosts []string   `json:"hosts,omitempty"`
	Key   KeyRequest `json:"key,omitempty"`
}

// Name is one set of further subject fields, as in cfssl's CSR JSON.
type Name struct {
	C  string `json:"C,omitempty"`
	ST string `json:"ST,omitempty"`
	L  string `json:"L,omitempty"`
	O  string `json:"O,omitempty"`
	OU string `json:"OU,omitempty"`
}

// KeyRequest is the kind of private key: algo "ecdsa" (size 256, 384 or
// 521; the default, P-256) or "rsa" (size 2048, 3072 or 4096; 2048 by
// default).
type KeyRequest struct {
	Algo string `json:"algo,omitempty"`
	Size int    `json:"size,omitempty"`
}

// File is where a certificate or key is written, and its owner, group and
// mode. An empty owner or group leaves that of the process (root, in the
// unit); an empty mode is 0644 for a certificate and 0600 for a key.
type File struct {
	Path  string `json:"path"`
	Owner string `json:"owner,omitempty"`
	Group string `json:"group,omitempty"`
	Mode  string `json:"mode,omitempty"`

	perm fs.FileMode
}

// Perm is the file's mode bits, as checked by Validate.
func (f File) Perm() fs.FileMode { return f.perm }

// ParseSpec reads a spec from JSON; name names it in messages. Unknown
// fields are errors, so that a misspelt key is not silently ignored.
func ParseSpec(name string, data []byte) (*Spec, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	s := &Spec{Name: name}
	if err := dec.Decode(s); err != nil {
		return nil, fmt.Errorf("spec %s: not a valid spec: %s", name, jsonErrorText(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("spec %s: not a valid spec: more data after the JSON object", name)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// jsonErrorText is a decoding error without the package's "json: " prefix.
func jsonErrorText(err error) string {
	if errors.Is(err, io.EOF) {
		return "the file is empty"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// LoadSpec reads the spec file at path; the spec's name is the file's base
// name without ".json".
func LoadSpec(path string) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading spec: %w", err)
	}
	return ParseSpec(strings.TrimSuffix(filepath.Base(path), ".json"), data)
}

// LoadDir reads every *.json file of dir as a spec, in the order of their
// names. A directory without any is an error: the unit that runs this has
// nothing to do there, which is a mistake in what wrote the directory.
func LoadDir(dir string) ([]*Spec, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("reading spec directory: %w", err)
	}
	var names []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("spec directory %s has no *.json spec files", dir)
	}
	sort.Strings(names)
	var specs []*Spec
	var errs []error
	for _, n := range names {
		s, err := LoadSpec(filepath.Join(dir, n))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		specs = append(specs, s)
	}
	return specs, errors.Join(errs...)
}

// Validate checks a spec and fills in its defaults (key algorithm and
// size, file modes). A private key's mode may not give others any access.
func (s *Spec) Validate() error {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	a := &s.Authority
	if a.Remote == "" {
		bad("authority.remote is missing (the cfssl server, https://HOST:PORT)")
	} else if u, err := url.Parse(a.Remote); err != nil || u.Scheme != "https" || u.Host == "" {
		bad("authority.remote %q is not an https://HOST:PORT URL (the token and the certificates go to the CA over TLS only)", a.Remote)
	}
	absolute := func(field, p string) {
		switch {
		case p == "":
			bad("%s is missing", field)
		case !filepath.IsAbs(p):
			bad("%s %q is not an absolute path", field, p)
		}
	}
	absolute("authority.auth_key_file", a.AuthKeyFile)
	absolute("authority.root_ca", a.RootCA)
	absolute("certificate.path", s.Certificate.Path)
	absolute("private_key.path", s.PrivateKey.Path)
	if s.Certificate.Path != "" && s.Certificate.Path == s.PrivateKey.Path {
		bad("certificate.path and private_key.path are the same file")
	}
	if s.Request.CN == "" {
		bad("request.CN is missing")
	}
	for _, h := range s.Request.Hosts {
		if strings.TrimSpace(h) == "" {
			bad("request.hosts has an empty entry")
		}
	}
	k := &s.Request.Key
	switch k.Algo {
	case "", "ecdsa":
		k.Algo = "ecdsa"
		if k.Size == 0 {
			k.Size = 256
		}
		if k.Size != 256 && k.Size != 384 && k.Size != 521 {
			bad("request.key.size %d is not an ECDSA curve size (256, 384 or 521)", k.Size)
		}
	case "rsa":
		if k.Size == 0 {
			k.Size = 2048
		}
		if k.Size != 2048 && k.Size != 3072 && k.Size != 4096 {
			bad("request.key.size %d is not an RSA key size nodegen makes (2048, 3072 or 4096)", k.Size)
		}
	default:
		bad("request.key.algo %q is neither \"ecdsa\" nor \"rsa\"", k.Algo)
	}
	if err := s.Certificate.parseMode(0o644); err != nil {
		bad("certificate.mode: %s", err)
	}
	if err := s.PrivateKey.parseMode(0o600); err != nil {
		bad("private_key.mode: %s", err)
	} else if s.PrivateKey.perm&0o007 != 0 {
		bad("private_key.mode %s gives others access to the private key; use a mode such as 0600 or 0640", s.PrivateKey.Mode)
	}
	if len(problems) > 0 {
		return fmt.Errorf("spec %s: %s", s.Name, strings.Join(problems, "; "))
	}
	return nil
}

// parseMode sets f.perm from f.Mode (octal), or to def when it is empty.
func (f *File) parseMode(def fs.FileMode) error {
	if f.Mode == "" {
		f.perm = def
		return nil
	}
	m, err := strconv.ParseUint(f.Mode, 8, 32)
	if err != nil || m > 0o777 {
		return fmt.Errorf("%q is not an octal file mode such as \"0644\"", f.Mode)
	}
	f.perm = fs.FileMode(m)
	return nil
}
