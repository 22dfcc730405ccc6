package activate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/nodegen/nodegen/profile"
)

// worldReadable lists the regular files below dir that everyone may read
// and that hold one of needles.
func worldReadable(t *testing.T, dir string, needles ...string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if fi.Mode().Perm()&0o004 == 0 {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, n := range needles {
			if bytes.Contains(data, []byte(n)) {
				found = append(found, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

func modeOf(t *testing.T, p string) fs.FileMode {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// descriptions are the files that describe the profile in dir, switched
// to as generation n of root: its manifest, the generation's copy of it
// and generation.json, and state.json.
func descriptions(root, dir string, n int) []string {
	return []string{
		filepath.Join(dir, profile.ManifestName),
		filepath.Join(root, generationDir(n), profile.ManifestName),
		filepath.Join(root, generationDir(n), generationFile),
		filepath.Join(root, stateFile),
	}
}

// TestSecretsStayRootOnly switches to a profile with a file of mode 0600
// (issue 27), under umask 077 and 022: neither its content nor its hash
// is in any file that everyone may read, in the profile, in the
// generation or in state.json; and a profile without secrets keeps its
// descriptions readable by everyone, as before.
func TestSecretsStayRootOnly(t *testing.T) {
	for _, umask := range []int{0o077, 0o022} {
		t.Run(strconv.FormatInt(int64(umask), 8), func(t *testing.T) {
			old := syscall.Umask(umask)
			defer syscall.Umask(old)
			const text = "hunter2\n"
			sum := sha256.Sum256([]byte(text))
			hash := hex.EncodeToString(sum[:])
			secret := file("app/token", text)
			secret.Mode = "0600"
			root := newRoot(t, nil)
			dir := writeProfile(t, file("motd", "hello\n"), secret)
			mustSwitch(t, root, dir, SwitchOptions{})

			for _, where := range []string{dir, root} {
				if leaks := worldReadable(t, where, hash, text); len(leaks) > 0 {
					t.Errorf("the secret or its sha256 is in files everyone may read: %v", leaks)
				}
			}
			for _, p := range descriptions(root, dir, 1) {
				if m := modeOf(t, p); m != 0o600 {
					t.Errorf("%s has mode %o, want 600", p, m)
				}
			}

			// Without the secret, the descriptions are everyone's again.
			dir2 := writeProfile(t, file("motd", "hello again\n"))
			mustSwitch(t, root, dir2, SwitchOptions{})
			for _, p := range descriptions(root, dir2, 2) {
				if m := modeOf(t, p); m != 0o644 {
					t.Errorf("%s has mode %o, want 644", p, m)
				}
			}
		})
	}
}

// TestSecretDriftDetected: with the hashes in root-only files, a switch
// still tells a secret that an admin changed from the one it placed, and
// keeps the admin's (issue 27 must not cost the drift check).
func TestSecretDriftDetected(t *testing.T) {
	secret := file("app/token", "one\n")
	secret.Mode = "0600"
	root := newRoot(t, nil)
	mustSwitch(t, root, writeProfile(t, secret), SwitchOptions{})
	live := filepath.Join(root, "etc/app/token")
	if err := os.WriteFile(live, []byte("changed by the admin\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	secret2 := file("app/token", "two\n")
	secret2.Mode = "0600"
	_, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Switch(writeProfile(t, secret2), SwitchOptions{}) })
	if err == nil {
		t.Fatal("the switch replaced a secret the admin changed")
	}
	if got := readIn(t, root, "etc/app/token"); got != "changed by the admin\n" {
		t.Errorf("the admin's secret is now %q", got)
	}
}
