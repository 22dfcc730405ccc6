//go:build unix

package regularfile_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/internal/regularfile"
	"github.com/nodegen/nodegen/internal/suitereport"
)

// TestReaders holds every reader to the same rules on the same files: a
// regular file is read; a directory, a FIFO, a device, a file the kernel
// makes up as it is read, one over the bound and a missing one are errors
// naming the file (never a wait); a symbolic link is followed, but by
// ReadFile with RefuseLinks. ReadFast says only whether it read, and reads
// where Read reads, the same bytes.
func TestReaders(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	small := write("small", "hello\n")
	link := filepath.Join(dir, "link")
	if err := os.Symlink("small", link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		suitereport.Skip(t, "regularfile FIFOs", "no FIFOs here: "+err.Error())
	}
	const refused = "it is a symbolic link, not a regular file"
	tests := []struct {
		name string
		path string
		max  int64
		want string // the contents, or the error's text
		ok   bool
		// refused is the error under RefuseLinks where it differs.
		refused string
	}{
		{name: "regular file", path: small, max: 64, want: "hello\n", ok: true},
		{name: "empty file", path: write("empty", ""), max: 64, want: "", ok: true},
		{name: "exactly the bound", path: write("ten", "0123456789"), max: 10, want: "0123456789", ok: true},
		{name: "over the bound", path: write("eleven", "0123456789x"), max: 10, want: "it has 11 bytes, more than 10"},
		{name: "symbolic link", path: link, max: 64, want: "hello\n", ok: true, refused: refused},
		{name: "directory", path: dir, max: 64, want: "it is a directory, not a regular file"},
		{name: "FIFO", path: fifo, max: 64, want: "it is a FIFO, not a regular file"},
		{name: "missing", path: filepath.Join(dir, "missing"), max: 64, want: "no such file or directory"},
		{name: "character device", path: "/dev/zero", max: 64, want: "it is a character device, not a regular file"},
		{name: "made up as read", path: "/proc/self/status", max: 1 << 20, want: "it is not an ordinary file: its size is 0 bytes, reading it gave more"},
	}
	readers := []struct {
		name    string
		read    func(path string, max int64) ([]byte, error)
		refuses bool // whether a symbolic link is refused
	}{
		{"Read(os.DirFS)", func(p string, max int64) ([]byte, error) {
			return regularfile.Read(os.DirFS("/"), strings.TrimPrefix(p, "/"), max)
		}, false},
		{"Read(DirFS)", func(p string, max int64) ([]byte, error) {
			return regularfile.Read(regularfile.DirFS("/"), strings.TrimPrefix(p, "/"), max)
		}, false},
		{"ReadFile(FollowLinks)", func(p string, max int64) ([]byte, error) {
			return regularfile.ReadFile(p, max, regularfile.FollowLinks)
		}, false},
		{"ReadFile(RefuseLinks)", func(p string, max int64) ([]byte, error) {
			return regularfile.ReadFile(p, max, regularfile.RefuseLinks)
		}, true},
	}
	for _, r := range readers {
		for _, tt := range tests {
			t.Run(r.name+"/"+tt.name, func(t *testing.T) {
				want, ok := tt.want, tt.ok
				if r.refuses && tt.refused != "" {
					want, ok = tt.refused, false
				}
				got, err := r.read(tt.path, tt.max)
				if ok {
					if err != nil {
						t.Fatalf("error %v, want %q", err, want)
					}
					if diff := cmp.Diff(want, string(got)); diff != "" {
						t.Errorf("contents (-want +got):\n%s", diff)
					}
					return
				}
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("= %q, %v; want an error with %q", got, err, want)
				}
				if !strings.Contains(err.Error(), strings.TrimPrefix(tt.path, "/")) {
					t.Errorf("error %q does not name the file", err)
				}
				// A file that is there is refused (ErrRefused); one too
				// large says so (ErrTooLarge), so that a caller can name
				// the limit to raise.
				there := !errors.Is(err, fs.ErrNotExist)
				if got := errors.Is(err, regularfile.ErrRefused); got != there {
					t.Errorf("errors.Is(%q, ErrRefused) = %v, want %v", err, got, there)
				}
				large := strings.Contains(want, "more than")
				if got := errors.Is(err, regularfile.ErrTooLarge); got != large {
					t.Errorf("errors.Is(%q, ErrTooLarge) = %v, want %v", err, got, large)
				}
			})
		}
	}
	for _, fast := range []struct {
		name string
		read func([]byte, string, int64) ([]byte, bool)
	}{{"ReadFast", regularfile.ReadFast}, {"ReadFastOS", regularfile.ReadFastOS}} {
		for _, tt := range tests {
			t.Run(fast.name+"/"+tt.name, func(t *testing.T) {
				got, ok := fast.read([]byte("old contents"), tt.path, tt.max)
				want, err := regularfile.Read(os.DirFS("/"), strings.TrimPrefix(tt.path, "/"), tt.max)
				if ok != (err == nil) {
					t.Fatalf("ok = %v, Read's error %v", ok, err)
				}
				if ok {
					if diff := cmp.Diff(string(want), string(got)); diff != "" {
						t.Errorf("differs from Read (-Read +%s):\n%s", fast.name, diff)
					}
				}
			})
		}
	}
}

// TestOpenALinkToADevice: a manifest that someone replaced by a link to
// /dev/zero is refused as a link under RefuseLinks, and as what the link
// ends at under FollowLinks; neither opens the device.
func TestOpenALinkToADevice(t *testing.T) {
	p := filepath.Join(t.TempDir(), "manifest")
	if err := os.Symlink("/dev/zero", p); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		links regularfile.Links
		want  string
	}{
		{regularfile.RefuseLinks, "it is a symbolic link, not a regular file"},
		{regularfile.FollowLinks, "it is a character device, not a regular file"},
	} {
		f, _, err := regularfile.Open(p, tt.links)
		if err == nil {
			f.Close()
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Open(link to /dev/zero, %v) error %v, want %q", tt.links, err, tt.want)
		}
	}
}

// TestReadOpenOnly: Read through a file system that cannot stat without
// opening (fs.Stat opens, then looks).
func TestReadOpenOnly(t *testing.T) {
	m := fstest.MapFS{"a": {Data: []byte("abc")}}
	if b, err := regularfile.Read(openOnly{m}, "a", 3); err != nil || string(b) != "abc" {
		t.Fatalf("Read(open only) = %q, %v", b, err)
	}
	if _, err := regularfile.Read(openOnly{m}, "a", 2); err == nil {
		t.Fatal("Read(open only) over the bound: no error")
	}
}

type openOnly struct{ fsys fstest.MapFS }

func (o openOnly) Open(name string) (fs.File, error) { return o.fsys.Open(name) }
