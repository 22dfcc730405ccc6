package deploy

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/profile"
)

// testManifest is a manifest of three files, two of one content, and a
// link.
func testManifest(t testing.TB) profile.Manifest {
	t.Helper()
	size := int64(5)
	m := profile.Manifest{Version: profile.ManifestVersion, Entries: []profile.ManifestEntry{
		{Path: "etc/a", Type: profile.TypeFile, Mode: "0644", User: "root", Group: "root", SHA256: sha256Hex("same\n"), Size: &size},
		{Path: "etc/b", Type: profile.TypeFile, Mode: "0644", User: "root", Group: "root", SHA256: sha256Hex("same\n"), Size: &size},
		{Path: "etc/c", Type: profile.TypeFile, Mode: "0644", User: "root", Group: "root", SHA256: sha256Hex("othr\n"), Size: &size},
		{Path: "etc/l", Type: profile.TypeSymlink, Target: "/etc/a"},
	}}
	return m
}

// TestParseMissing: the host's answer is hashes of the manifest's
// contents, each once; anything else names what is wrong and sends
// nothing.
func TestParseMissing(t *testing.T) {
	m := testManifest(t)
	same, other := sha256Hex("same\n"), sha256Hex("othr\n")
	for _, tc := range []struct {
		name, answer string
		want         []string // the paths sent
		err          string
	}{
		{"nothing missing", "", nil, ""},
		{"one", other + "\n", []string{"etc/c"}, ""},
		{"a shared content once", same + "\n" + other + "\n", []string{"etc/a", "etc/c"}, ""},
		{"a path", "etc/a\n", nil, `line 1 is not a SHA-256 hash: "etc/a"`},
		{"a path out of the profile", "../../../../home/u/.ssh/id_ed25519\n", nil, `line 1 is not a SHA-256 hash: "../../../../home/u/.ssh/id_ed25519"`},
		{"an unknown hash", sha256Hex("secret") + "\n", nil, "line 1, " + sha256Hex("secret") + ", is the hash of no file of the profile"},
		{"upper case", strings.ToUpper(other) + "\n", nil, "line 1 is not a SHA-256 hash"},
		{"twice", other + "\n" + other + "\n", nil, "line 2, " + other + ", names a content twice"},
		{"no final newline", other, nil, "the answer does not end with a newline"},
		{"an empty line", "\n" + other + "\n", nil, `line 1 is not a SHA-256 hash: ""`},
		{"a carriage return", other + "\r\n", nil, `line 1 is not a SHA-256 hash: "` + other + `\r"`},
		{"too long", strings.Repeat(other+"\n", 3), nil, "the answer has 195 bytes, more than the 130 of all 2 contents of the manifest"},
		{"escapes", "\x1b]0;x\x07\n", nil, `line 1 is not a SHA-256 hash: "\x1b]0;x\a"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			send, err := parseMissing(tc.answer, m)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, e := range send {
				paths = append(paths, e.Path)
			}
			if diff := cmp.Diff(tc.want, paths); diff != "" {
				t.Errorf("sent (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzMissingAnswer feeds the deployer's reading of a host's answer
// anything: it never panics, and what it accepts is files of the
// manifest, each content once, each named by a line of the answer.
func FuzzMissingAnswer(f *testing.F) {
	m := testManifest(f)
	for _, s := range []string{"", sha256Hex("same\n") + "\n", sha256Hex("same\n") + "\n" + sha256Hex("othr\n") + "\n",
		"../../../../../dev/zero\n", "etc/a\n", "\n", strings.Repeat("0", 64) + "\n", "\x00\xff\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, answer string) {
		send, err := parseMissing(answer, m)
		if err != nil {
			if send != nil {
				t.Fatalf("an error and files to send: %v", send)
			}
			return
		}
		lines := strings.Fields(answer)
		if len(send) != len(lines) {
			t.Fatalf("%d files to send for %d lines", len(send), len(lines))
		}
		seen := map[string]bool{}
		for i, e := range send {
			if e.Type != profile.TypeFile || e.SHA256 != lines[i] || seen[e.SHA256] {
				t.Fatalf("sends %+v for line %q", e, lines[i])
			}
			seen[e.SHA256] = true
			found := false
			for _, me := range m.Entries {
				found = found || me.Path == e.Path && me.SHA256 == e.SHA256
			}
			if !found {
				t.Fatalf("sends %s, not a file of the manifest", e.Path)
			}
		}
	})
}
