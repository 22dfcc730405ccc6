package pki

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goodSpec = `{
  "authority": {"remote": "https://master:8888", "auth_key_file": "/s/apitoken.secret", "profile": "default", "root_ca": "/s/ca.pem", "trust_on_bootstrap": true},
  "request": {"CN": "system:kube-proxy", "names": [{"O": "system:node-proxier"}], "hosts": ["node1"]},
  "certificate": {"path": "/s/kube-proxy.pem"},
  "private_key": {"path": "/s/kube-proxy-key.pem", "owner": "kubernetes", "group": "nogroup", "mode": "0600"},
  "action": "systemctl restart kube-proxy.service"
}`

func TestParseSpec(t *testing.T) {
	s, err := ParseSpec("kube-proxy", []byte(goodSpec))
	if err != nil {
		t.Fatal(err)
	}
	if s.Request.Key != (KeyRequest{Algo: "ecdsa", Size: 256}) || s.Certificate.Perm() != 0o644 || s.PrivateKey.Perm() != 0o600 {
		t.Errorf("defaults: key %+v, certificate mode %v, key mode %v", s.Request.Key, s.Certificate.Perm(), s.PrivateKey.Perm())
	}
	if !s.Authority.TrustOnBootstrap || s.Authority.Profile != "default" || s.Action != "systemctl restart kube-proxy.service" {
		t.Errorf("spec read as %+v", s)
	}

	tests := []struct {
		name, old, new, wantErr string
	}{
		{"unknown field", `"action"`, `"actoin"`, `spec x: not a valid spec: unknown field "actoin"`},
		{"not JSON", goodSpec, `{"authority": `, "spec x: not a valid spec: unexpected EOF"},
		{"empty", goodSpec, ``, "spec x: not a valid spec: the file is empty"},
		{"two objects", goodSpec, goodSpec + "{}", "more data after the JSON object"},
		{"http remote", `https://master:8888`, `http://master:8888`, `authority.remote "http://master:8888" is not an https://HOST:PORT URL`},
		{"no remote", `"remote": "https://master:8888", `, ``, "authority.remote is missing"},
		{"relative CA", `"/s/ca.pem"`, `"ca.pem"`, `authority.root_ca "ca.pem" is not an absolute path`},
		{"no CN", `"CN": "system:kube-proxy", `, ``, "request.CN is missing"},
		{"same files", `"/s/kube-proxy-key.pem"`, `"/s/kube-proxy.pem"`, "certificate.path and private_key.path are the same file"},
		{"key world readable", `"0600"`, `"0644"`, "private_key.mode 0644 gives others access to the private key"},
		{"bad mode", `"0600"`, `"rw"`, `private_key.mode: "rw" is not an octal file mode`},
		{"bad algo", `"hosts": ["node1"]`, `"hosts": ["node1"], "key": {"algo": "dsa"}`, `request.key.algo "dsa" is neither "ecdsa" nor "rsa"`},
		{"bad RSA size", `"hosts": ["node1"]`, `"hosts": ["node1"], "key": {"algo": "rsa", "size": 1024}`, "request.key.size 1024 is not an RSA key size"},
		{"bad curve", `"hosts": ["node1"]`, `"hosts": ["node1"], "key": {"size": 255}`, "request.key.size 255 is not an ECDSA curve size"},
		{"empty host", `["node1"]`, `["node1", " "]`, "request.hosts has an empty entry"},
		{"every problem", goodSpec, `{"request": {}, "certificate": {}, "private_key": {}}`,
			"spec x: authority.remote is missing (the cfssl server, https://HOST:PORT); authority.auth_key_file is missing; authority.root_ca is missing; certificate.path is missing; private_key.path is missing; request.CN is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.Replace(goodSpec, tt.old, tt.new, 1)
			if src == goodSpec {
				t.Fatalf("the test changes nothing: %q not in the spec", tt.old)
			}
			_, err := ParseSpec("x", []byte(src))
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error = %v, want one with %q", err, tt.wantErr)
			}
		})
	}
}

func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	if _, err := LoadDir(dir); err == nil || !strings.Contains(err.Error(), "has no *.json spec files") {
		t.Errorf("empty directory: error %v", err)
	}
	writeFile(t, filepath.Join(dir, "b.json"), goodSpec, 0o644)
	writeFile(t, filepath.Join(dir, "a.json"), goodSpec, 0o644)
	writeFile(t, filepath.Join(dir, "c.json"), "{}", 0o644)
	writeFile(t, filepath.Join(dir, "README"), "not a spec", 0o644)
	specs, err := LoadDir(dir)
	if err == nil || !strings.HasPrefix(err.Error(), "spec c: authority.remote is missing") {
		t.Errorf("error = %v, want spec c's", err)
	}
	if len(specs) != 2 || specs[0].Name != "a" || specs[1].Name != "b" {
		t.Errorf("specs read: %d, want a and b in order", len(specs))
	}
	if _, err := LoadSpec(filepath.Join(dir, "missing.json")); !os.IsNotExist(err) && (err == nil || !strings.Contains(err.Error(), "no such file")) {
		t.Errorf("missing file: error %v", err)
	}
}
