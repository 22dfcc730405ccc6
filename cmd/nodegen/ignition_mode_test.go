package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/nodegen/nodegen/profile"
)

func TestIgnitionFileMode(t *testing.T) {
	public := profile.Entry{Target: "motd", Mode: "0644"}
	secret := profile.Entry{Target: "token", Mode: "0600"}
	group := profile.Entry{Target: "chrony.keys", Mode: "0640"}
	link := profile.Entry{Target: "l", Mode: profile.TypeSymlink}
	tests := []struct {
		entries []profile.Entry
		umask   fs.FileMode
		want    fs.FileMode
	}{
		{[]profile.Entry{public, link}, 0o022, 0o644},
		{[]profile.Entry{public, link}, 0o077, 0o600},
		{[]profile.Entry{public, link}, 0o027, 0o640},
		{[]profile.Entry{public, secret}, 0o022, 0o600},
		{[]profile.Entry{public, group}, 0o002, 0o600},
		{[]profile.Entry{secret}, 0o077, 0o600},
		{[]profile.Entry{secret}, 0o277, 0o400},
	}
	for _, tt := range tests {
		if got := ignitionFileMode(tt.entries, tt.umask); got != tt.want {
			t.Errorf("%v under umask %o: %o, want %o", tt.entries, tt.umask, got, tt.want)
		}
	}
}

// TestIgnitionOutputKeepsSecrets writes the Ignition config of a host
// with a file of mode 0600 with -o, under umask 022 and 077, over no file
// and over one of mode 0644 (issue 27): the config holds the secret, so
// it is readable by its owner only.
func TestIgnitionOutputKeepsSecrets(t *testing.T) {
	dir := t.TempDir()
	host := filepath.Join(dir, "host.hcl")
	if err := os.WriteFile(host, []byte("config \"environment.etc.token\" {\n  text = \"hunter2\\n\"\n  mode = \"0600\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, umask := range []int{0o022, 0o077} {
		for _, existing := range []bool{false, true} {
			t.Run(strconv.FormatInt(int64(umask), 8)+"/"+strconv.FormatBool(existing), func(t *testing.T) {
				old := syscall.Umask(umask)
				defer syscall.Umask(old)
				out := filepath.Join(t.TempDir(), "config.ign")
				if existing {
					if err := os.WriteFile(out, nil, 0o644); err != nil {
						t.Fatal(err)
					}
					if err := os.Chmod(out, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				var stdout, stderr bytes.Buffer
				if code := run([]string{"eval", "--format", "ignition", "-o", out, host}, &stdout, &stderr); code != exitOK {
					t.Fatalf("exit %d: %s", code, stderr.String())
				}
				fi, err := os.Stat(out)
				if err != nil {
					t.Fatal(err)
				}
				if m := fi.Mode().Perm(); m != 0o600 {
					t.Errorf("the config has mode %o, want 600", m)
				}
				data, _ := os.ReadFile(out)
				if !bytes.Contains(data, []byte("/etc/token")) {
					t.Errorf("the config does not hold /etc/token:\n%s", data)
				}
			})
		}
	}
}
