package deploy

import (
	"archive/tar"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nodegen/nodegen/profile"
)

// FuzzReceive feeds Receive hostile manifests and tar streams: a
// manifest, then files named as the fuzzer likes (one NAME=CONTENT a
// line), with a host that has an earlier profile and a directory outside
// the received profiles that a manifest's link may point to. Whatever
// comes, Receive never panics, writes nothing outside its directory,
// leaves no temporary directory, and a profile it accepts is one every
// reader accepts, whose files have their manifest's content.
func FuzzReceive(f *testing.F) {
	base := f.TempDir()
	victim := filepath.Join(base, "victim")
	if err := os.Mkdir(victim, 0o755); err != nil {
		f.Fatal(err)
	}
	received := filepath.Join(base, "profiles")
	writeTestProfile(f, filepath.Join(received, "old"), fileEntry("x", "PAYLOAD\n", "0644"))
	known := Known(received, "")
	seed := func(manifest, files string) { f.Add([]byte(manifest), []byte(files)) }
	h := sha256Hex("PAYLOAD\n")
	seed(`{"version":1,"entries":[{"path":"etc/a","type":"symlink","target":"`+victim+`"},{"path":"etc/a/b","type":"file","mode":"0755","sha256":"`+h+`","size":8}],"warnings":[]}`, "etc/a/b=PAYLOAD\n")
	seed(`{"version":1,"entries":[{"path":"etc/x","type":"file","mode":"0644","sha256":"`+h+`","size":8}],"warnings":[]}`, "")
	seed(`{"version":1,"entries":[{"path":"etc/x","type":"file","mode":"0644","sha256":"`+h+`","size":8}],"warnings":[]}`, "etc/x=PAYLOAD\n")
	seed(`{"version":1,"entries":[{"path":"etc/x","type":"file","mode":"0644","sha256":"`+h+`","size":8}],"warnings":[]}`, "etc/x=OTHER!!\n")
	seed(`{"version":1,"entries":[{"path":"etc/../x","type":"file","mode":"0644","sha256":"`+h+`","size":8}],"warnings":[]}`, "etc/../x=PAYLOAD\n")
	seed(`{"version":1,"entries":[{"path":"etc/l","type":"symlink","target":"/etc/passwd"},{"path":"etc/y","type":"file","mode":"4755","sha256":"`+h+`","size":8}],"warnings":[]}`, "etc/l=PAYLOAD\n")
	f.Fuzz(func(t *testing.T, manifest, files []byte) {
		var b bytes.Buffer
		tw := tar.NewWriter(&b)
		tw.WriteHeader(&tar.Header{Name: profile.ManifestName, Typeflag: tar.TypeReg, Mode: 0o600, Size: int64(len(manifest))})
		tw.Write(manifest)
		for _, line := range strings.Split(string(files), "\n") {
			name, content, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			content += "\n"
			tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o600, Size: int64(len(content))})
			tw.Write([]byte(content))
		}
		tw.Close()
		dst := filepath.Join(received, "P")
		defer os.RemoveAll(dst)
		_, _, err := Receive(dst, &b, known)
		if names, _ := os.ReadDir(victim); len(names) > 0 {
			t.Fatalf("written through a link: %v", names)
		}
		entries, _ := os.ReadDir(base)
		if len(entries) != 2 {
			t.Fatalf("written outside the received profiles: %v", entries)
		}
		names, _ := os.ReadDir(received)
		for _, n := range names {
			if strings.Contains(n.Name(), tmpInfix) || n.Name() != "old" && n.Name() != "P" {
				t.Fatalf("left behind: %s", n.Name())
			}
		}
		if err != nil {
			if _, serr := os.Lstat(dst); serr == nil {
				t.Fatalf("a refused profile is in place: %v", err)
			}
			return
		}
		m, err := profile.Read(dst)
		if err != nil {
			t.Fatalf("an accepted profile is not one a reader accepts: %v", err)
		}
		for _, e := range m.Entries {
			if e.Type == profile.TypeFile {
				if _, err := profile.ReadEntry(dst, e); err != nil {
					t.Fatalf("an accepted profile's file: %v", err)
				}
			}
		}
	})
}
