package deploy

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/profile"
)

func writeTestProfile(t testing.TB, dir string, entries ...profile.Entry) {
	t.Helper()
	if err := profile.Write(dir, profile.Profile{Entries: entries}); err != nil {
		t.Fatal(err)
	}
}

func fileEntry(target, text, mode string) profile.Entry {
	return profile.Entry{Target: target, Content: []byte(text), Mode: mode, User: "root", Group: "root"}
}

// TestReceive copies a profile to a host that has two of its three files
// in an earlier profile: only the third is sent, and the profile the host
// assembles is the deployer's, file for file.
func TestReceive(t *testing.T) {
	store := filepath.Join(t.TempDir(), "profiles")
	writeTestProfile(t, filepath.Join(store, "old"),
		fileEntry("hostname", "web1\n", "0644"), fileEntry("app/secret", "s3cret\n", "0600"))
	local := filepath.Join(t.TempDir(), "profile")
	writeTestProfile(t, local,
		fileEntry("hostname", "web1\n", "0644"), fileEntry("app/key", "s3cret\n", "0640"),
		fileEntry("motd", "new\n", "0644"), profile.Entry{Target: "alias", Mode: profile.TypeSymlink, Link: "/etc/motd"})
	m, err := profile.Read(local)
	if err != nil {
		t.Fatal(err)
	}
	missing, _ := Missing(m, Known(store, filepath.Join(t.TempDir(), "no-generations")))
	if diff := cmp.Diff([]string{sha256Hex("new\n")}, missing); diff != "" {
		t.Fatalf("missing (-want +got):\n%s", diff)
	}
	stream := sendMissing(t, local, m, missing)
	dst := filepath.Join(store, "new")
	if _, _, err := Receive(dst, stream, Known(store, "")); err != nil {
		t.Fatal(err)
	}
	got, err := profile.Read(dst)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(m, got); diff != "" {
		t.Errorf("manifest (-sent +received):\n%s", diff)
	}
	for rel, mode := range map[string]os.FileMode{"etc/hostname": 0o644, "etc/app/key": 0o640, "etc/motd": 0o644, profile.ManifestName: 0o600} {
		fi, err := os.Stat(filepath.Join(dst, rel))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != mode {
			t.Errorf("%s: mode %o, want %o", rel, fi.Mode().Perm(), mode)
		}
	}
	if link, err := os.Readlink(filepath.Join(dst, "etc/alias")); err != nil || link != "/etc/motd" {
		t.Errorf("etc/alias: %q, %v", link, err)
	}
	if changes, err := profile.Diff(local, dst); err != nil || !changes.Empty() {
		t.Errorf("the received profile differs from the sent one: %+v, %v", changes, err)
	}
}

// TestReceiveShared: two files of one content that the host lacks are
// one hash in its answer and one file sent; the host makes both.
func TestReceiveShared(t *testing.T) {
	local := filepath.Join(t.TempDir(), "profile")
	writeTestProfile(t, local, fileEntry("a", "same\n", "0644"), fileEntry("b", "same\n", "0600"), fileEntry("c", "other\n", "0644"))
	m, err := profile.Read(local)
	if err != nil {
		t.Fatal(err)
	}
	missing, _ := Missing(m, Copies{})
	if diff := cmp.Diff([]string{sha256Hex("same\n"), sha256Hex("other\n")}, missing); diff != "" {
		t.Fatalf("missing (-want +got):\n%s", diff)
	}
	stream := sendMissing(t, local, m, missing)
	dst := filepath.Join(t.TempDir(), "p")
	if _, _, err := Receive(dst, stream, Copies{}); err != nil {
		t.Fatal(err)
	}
	if changes, err := profile.Diff(local, dst); err != nil || !changes.Empty() {
		t.Errorf("the received profile differs from the sent one: %+v, %v", changes, err)
	}
}

// sendMissing is the deployer's side: the host's answer read against the
// manifest, and the tar stream of what it names.
func sendMissing(t *testing.T, dir string, m profile.Manifest, missing []string) *bytes.Buffer {
	t.Helper()
	var answer strings.Builder
	for _, h := range missing {
		answer.WriteString(h + "\n")
	}
	send, err := parseMissing(answer.String(), m)
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := os.ReadFile(filepath.Join(dir, profile.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	var stream bytes.Buffer
	if err := tarFiles(&stream, dir, manifest, send); err != nil {
		t.Fatal(err)
	}
	return &stream
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestReceiveRefuses: a stream that does not match its manifest leaves
// the profile that was there as it was.
func TestReceiveRefuses(t *testing.T) {
	local := filepath.Join(t.TempDir(), "profile")
	writeTestProfile(t, local, fileEntry("motd", "hello\n", "0644"))
	manifest, err := os.ReadFile(filepath.Join(local, profile.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	stream := func(files map[string]string, first string) *bytes.Buffer {
		var b bytes.Buffer
		tw := tar.NewWriter(&b)
		names := []string{first}
		for n := range files {
			if n != first {
				names = append(names, n)
			}
		}
		for _, n := range names {
			tw.WriteHeader(&tar.Header{Name: n, Typeflag: tar.TypeReg, Mode: 0o600, Size: int64(len(files[n]))})
			tw.Write([]byte(files[n]))
		}
		tw.Close()
		return &b
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		first string
		want  string
	}{
		{"no manifest first", map[string]string{"etc/motd": "hello\n", profile.ManifestName: string(manifest)}, "etc/motd", "does not begin with its nodegen-profile.json"},
		{"a file the manifest lacks", map[string]string{profile.ManifestName: string(manifest), "etc/../../evil": "x"}, profile.ManifestName, "not one of its manifest's files"},
		{"other content", map[string]string{profile.ManifestName: string(manifest), "etc/motd": "HELLO\n"}, profile.ManifestName, "etc/motd: the content is not the manifest's"},
		{"a file neither sent nor known", map[string]string{profile.ManifestName: string(manifest)}, profile.ManifestName, "etc/motd was neither sent nor found intact on this host"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "p")
			writeTestProfile(t, dst, fileEntry("old", "old\n", "0644"))
			_, _, err := Receive(dst, stream(tc.files, tc.first), Copies{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if data, err := os.ReadFile(filepath.Join(dst, "etc/old")); err != nil || string(data) != "old\n" {
				t.Errorf("the old profile was changed: %q, %v", data, err)
			}
			if leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(dst), ".p.tmp-*")); len(leftovers) > 0 {
				t.Errorf("left behind: %v", leftovers)
			}
		})
	}
}
