//go:build unix

package regularfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/suitereport"
)

// TestDirFS: DirFS reads and lists as os.DirFS does, and opening a FIFO
// does not wait for a writer (O_NONBLOCK), so Read refuses it at
// once even when the look before the open is passed by.
func TestDirFS(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.hcl"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.hcl"), 0o644); err != nil {
		suitereport.Skip(t, "regularfile DirFS", "no FIFOs here: "+err.Error())
	}
	d := DirFS(dir)
	if b, err := Read(d, "a.hcl", 64); err != nil || string(b) != "x = 1\n" {
		t.Errorf("Read(a.hcl) = %q, %v", b, err)
	}
	if es, err := fs.ReadDir(d, "."); err != nil || len(es) != 2 {
		t.Errorf("ReadDir = %v, %v; want 2 entries", es, err)
	}
	if _, err := d.Open("../x"); err == nil {
		t.Error("Open(../x): no error")
	}
	done := make(chan error, 1)
	go func() {
		// The open itself, as a file swapped for a FIFO after the
		// look meets it.
		f, err := d.Open("fifo.hcl")
		if err == nil {
			var fi fs.FileInfo
			if fi, err = f.Stat(); err == nil && fi.Mode().IsRegular() {
				err = nil
			} else if err == nil {
				err = fs.ErrInvalid
			}
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a FIFO opened as a regular file")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("opening a FIFO blocked")
	}
	if _, err := Read(d, "fifo.hcl", 64); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Read(fifo.hcl) error %v, want not a regular file", err)
	}
}

// TestHostPath: a DirFS names its files' host paths, for ReadFast; any
// other file system, or a name that is not a valid path, has none.
func TestHostPath(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.hcl"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		fsys fs.FS
		name string
		want string
		ok   bool
	}{
		{DirFS(dir), "a.hcl", filepath.Join(dir, "a.hcl"), true},
		{DirFS(dir), "sub/b.hcl", filepath.Join(dir, "sub/b.hcl"), true},
		{DirFS(dir), "../a.hcl", "", false},
		{DirFS(dir), "/a.hcl", "", false},
		{os.DirFS(dir), "a.hcl", "", false},
	}
	for _, tt := range tests {
		got, ok := HostPath(tt.fsys, tt.name)
		if got != tt.want || ok != tt.ok {
			t.Errorf("HostPath(%T, %q) = %q, %v; want %q, %v", tt.fsys, tt.name, got, ok, tt.want, tt.ok)
		}
	}
	p, _ := HostPath(DirFS(dir), "a.hcl")
	if b, ok := ReadFast(nil, p, 64); !ok || string(b) != "x = 1\n" {
		t.Errorf("ReadFast(HostPath(a.hcl)) = %q, %v", b, ok)
	}
}
