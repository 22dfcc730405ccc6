package deploy

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/profile"
)

// hostileStream is the tar stream of manifest (JSON of entries) and of
// files, in that order.
func hostileStream(t testing.TB, entries []map[string]any, files map[string]string, order ...string) *bytes.Buffer {
	t.Helper()
	manifest, err := json.Marshal(map[string]any{"version": 1, "entries": entries, "warnings": []string{}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	tw.WriteHeader(&tar.Header{Name: profile.ManifestName, Typeflag: tar.TypeReg, Mode: 0o600, Size: int64(len(manifest))})
	tw.Write(manifest)
	for _, n := range order {
		tw.WriteHeader(&tar.Header{Name: n, Typeflag: tar.TypeReg, Mode: 0o600, Size: int64(len(files[n]))})
		tw.Write([]byte(files[n]))
	}
	tw.Close()
	return &b
}

// TestReceiveNeverWritesThroughItsLinks (issue 36, N4): a manifest with a
// file below one of its own symlinks, whether its content is sent or is
// one the host has, is refused before anything is written, by the rule
// every reader of a profile applies; nothing appears where the link
// points, and nothing is left beside the profile.
func TestReceiveNeverWritesThroughItsLinks(t *testing.T) {
	base := t.TempDir()
	victim := filepath.Join(base, "victim")
	received := filepath.Join(base, "profiles")
	if err := os.Mkdir(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	writeTestProfile(t, filepath.Join(received, "old"), fileEntry("x", "PAYLOAD\n", "0644"))
	size := int64(8)
	entries := []map[string]any{
		{"path": "etc/a", "type": "symlink", "target": victim},
		{"path": "etc/a/b", "type": "file", "mode": "0755", "user": "root", "group": "root", "sha256": sha256Hex("PAYLOAD\n"), "size": size},
	}
	for _, tc := range []struct {
		name  string
		order []string
	}{{"the content the host has", nil}, {"the content sent", []string{"etc/a/b"}}} {
		t.Run(tc.name, func(t *testing.T) {
			dst := filepath.Join(received, "P")
			stream := hostileStream(t, entries, map[string]string{"etc/a/b": "PAYLOAD\n"}, tc.order...)
			_, _, err := Receive(dst, stream, Known(received, ""))
			if err == nil || !strings.Contains(err.Error(), "is below etc/a, which an unnamed option makes a symlink") {
				t.Fatalf("error %v, want the entry below the symlink refused", err)
			}
			if names, _ := os.ReadDir(victim); len(names) > 0 {
				t.Errorf("written through the link: %v", names)
			}
			names, _ := os.ReadDir(received)
			if len(names) != 1 || names[0].Name() != "old" {
				t.Errorf("left in %s: %v", received, names)
			}
		})
	}
}

// TestReceiveDamagedCopy (issue 36, N7): a copy of the host whose content
// is not its manifest's is not counted as the host's; it is named; the
// deployer sends the content, and the receive replaces the damaged copy.
// Intact files of earlier received profiles are shared (one inode).
func TestReceiveDamagedCopy(t *testing.T) {
	received := filepath.Join(t.TempDir(), "profiles")
	gens := filepath.Join(t.TempDir(), "generations")
	v1 := filepath.Join(t.TempDir(), "v1")
	v2 := filepath.Join(t.TempDir(), "v2")
	writeTestProfile(t, v1, fileEntry("hostname", "web1\n", "0644"), fileEntry("app", "one\n", "0644"), fileEntry("motd", "hi\n", "0644"))
	writeTestProfile(t, v2, fileEntry("hostname", "web1\n", "0644"), fileEntry("app", "two\n", "0644"), fileEntry("motd", "hi\n", "0644"))
	deploy := func(local, name string) (missing, damagedMissing, damaged, replaced []string) {
		t.Helper()
		m, err := profile.Read(local)
		if err != nil {
			t.Fatal(err)
		}
		missing, damagedMissing = Missing(m, Known(received, gens))
		damaged, replaced, err = Receive(filepath.Join(received, name), sendMissing(t, local, m, missing), Known(received, gens))
		if err != nil {
			t.Fatal(err)
		}
		if changes, err := profile.Diff(local, filepath.Join(received, name)); err != nil || !changes.Empty() {
			t.Errorf("the received profile differs from the sent one: %+v, %v", changes, err)
		}
		return missing, damagedMissing, damaged, replaced
	}
	deploy(v1, "P1")
	p1Host := filepath.Join(received, "P1/etc/hostname")
	if err := os.WriteFile(p1Host, []byte("damaged\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing, damagedMissing, damaged, replaced := deploy(v2, "P2")
	if d := cmp.Diff([]string{sha256Hex("two\n"), sha256Hex("web1\n")}, missing); d != "" {
		t.Errorf("missing (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{p1Host}, damagedMissing); d != "" {
		t.Errorf("damaged copies named by --missing (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{p1Host}, damaged); d != "" {
		t.Errorf("damaged copies named by the receive (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{p1Host}, replaced); d != "" {
		t.Errorf("damaged copies replaced (-want +got):\n%s", d)
	}
	if data, err := os.ReadFile(p1Host); err != nil || string(data) != "web1\n" {
		t.Errorf("the damaged copy was not replaced: %q, %v", data, err)
	}
	// The same profile again: nothing is missing, and it is rebuilt from
	// its own intact files.
	if missing, _, _, _ := deploy(v2, "P2"); len(missing) > 0 {
		t.Errorf("a rerun asks for %v", missing)
	}
	for _, f := range []string{"etc/motd", "etc/hostname"} {
		if !sameFile(t, filepath.Join(received, "P1", f), filepath.Join(received, "P2", f)) {
			t.Errorf("%s is not shared between the received profiles", f)
		}
	}
}

func sameFile(t *testing.T, a, b string) bool {
	t.Helper()
	fa, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	fb, err := os.Stat(b)
	if err != nil {
		t.Fatal(err)
	}
	return os.SameFile(fa, fb) && fa.Sys().(*syscall.Stat_t).Nlink >= 2
}

// TestReceiveSharesOnlySameMode: a content of a received profile with
// another mode is copied, never shared, so that a chmod of one profile's
// file cannot change another's.
func TestReceiveSharesOnlySameMode(t *testing.T) {
	received := filepath.Join(t.TempDir(), "profiles")
	writeTestProfile(t, filepath.Join(received, "P1"), fileEntry("secret", "s\n", "0600"))
	local := filepath.Join(t.TempDir(), "v")
	writeTestProfile(t, local, fileEntry("public", "s\n", "0644"))
	m, err := profile.Read(local)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Receive(filepath.Join(received, "P2"), sendMissing(t, local, m, nil), Known(received, "")); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{"P1/etc/secret": 0o600, "P2/etc/public": 0o644} {
		fi, err := os.Stat(filepath.Join(received, p))
		if err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v, %v, want mode %o", p, fi.Mode(), err, want)
		}
	}
}

// TestCleanAndCollectReceived (issue 36, N8): what cut receives left is
// removed; gc's collection keeps the profiles of the generations and the
// one received last, and removes the others.
func TestCleanAndCollectReceived(t *testing.T) {
	received := filepath.Join(t.TempDir(), "profiles")
	for _, n := range []string{"gen", "old", "last"} {
		writeTestProfile(t, filepath.Join(received, n), fileEntry("hostname", n+"\n", "0644"))
	}
	for _, n := range []string{".P.tmp-0123", ".P.tmp-old-4567"} {
		if err := os.MkdirAll(filepath.Join(received, n, "etc"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cleaned, err := CleanReceived(received)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{".P.tmp-0123", ".P.tmp-old-4567"}, cleaned); d != "" {
		t.Errorf("cleaned (-want +got):\n%s", d)
	}
	removed, err := CollectReceived(received, map[string]bool{"gen": true})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"old"}, removed); d != "" {
		t.Errorf("removed (-want +got):\n%s", d)
	}
	var left []string
	names, _ := os.ReadDir(received)
	for _, n := range names {
		left = append(left, n.Name())
	}
	if d := cmp.Diff([]string{"gen", "last"}, left); d != "" {
		t.Errorf("left (-want +got):\n%s", d)
	}
}

// TestReceiveNeverLinksALink: a received profile's file replaced by a
// relative symlink to an intact copy inside the received profiles (which
// an os.Root would follow) is not shared: the new profile gets a regular
// file, and the profile that was linked from stays as it was.
func TestReceiveNeverLinksALink(t *testing.T) {
	received := filepath.Join(t.TempDir(), "profiles")
	writeTestProfile(t, filepath.Join(received, "A"), fileEntry("motd", "hi\n", "0644"))
	writeTestProfile(t, filepath.Join(received, "B"), fileEntry("motd", "hi\n", "0644"))
	linked := filepath.Join(received, "B/etc/motd")
	if err := os.Remove(linked); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../A/etc/motd", linked); err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(t.TempDir(), "v")
	writeTestProfile(t, local, fileEntry("motd", "hi\n", "0644"))
	m, err := profile.Read(local)
	if err != nil {
		t.Fatal(err)
	}
	known := Known(received, "")
	// B's copy first: it is the one a Receive would try first.
	known[sha256Hex("hi\n")] = []Copy{{Path: linked, Received: true}}
	if _, _, err := Receive(filepath.Join(received, "C"), sendMissing(t, local, m, nil), known); err == nil {
		t.Fatal("a link was taken for the host's copy")
	}
	known[sha256Hex("hi\n")] = append(known[sha256Hex("hi\n")], Copy{Path: filepath.Join(received, "A/etc/motd"), Received: true})
	if _, _, err := Receive(filepath.Join(received, "C"), sendMissing(t, local, m, nil), known); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(filepath.Join(received, "C/etc/motd"))
	if err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("C/etc/motd: %v, %v, want a regular file", fi, err)
	}
	if to, err := os.Readlink(linked); err != nil || to != "../../A/etc/motd" {
		t.Errorf("B's link was changed: %q, %v", to, err)
	}
}
