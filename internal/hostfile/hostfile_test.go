//go:build linux

package hostfile_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/internal/hostfile"
	"github.com/nodegen/nodegen/lib"
)

// TestReadRegularAgainstLib checks the fast read against what it stands
// in for, lib.ReadRegular on the host's file system: where it reads a file
// it reads the same bytes, and it reads every file lib.ReadRegular reads.
func TestReadRegularAgainstLib(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	small := write("small.hcl", "a = 1\n")
	tests := []struct {
		name   string
		path   string
		max    int64
		wantOK bool
	}{
		{"regular", small, 1 << 20, true},
		{"empty", write("empty.hcl", ""), 1 << 20, true},
		{"exactly max", write("ten.hcl", "0123456789"), 10, true},
		{"over max", write("eleven.hcl", "0123456789x"), 10, false},
		{"large", write("large.hcl", strings.Repeat("x = 1\n", 100_000)), 1 << 20, true},
		{"missing", filepath.Join(dir, "missing.hcl"), 1 << 20, false},
		{"directory", dir, 1 << 20, false},
		{"symbolic link", symlink(t, small, filepath.Join(dir, "link.hcl")), 1 << 20, true},
		{"FIFO", fifo(t, filepath.Join(dir, "fifo")), 1 << 20, false},
		{"character device", "/dev/null", 1 << 20, false},
		{"made up as read", "/proc/self/status", 1 << 20, false},
	}
	// Linux's read, and the one through package os of the other systems.
	reads := []struct {
		name string
		read func([]byte, string, int64) ([]byte, bool)
	}{
		{"ReadRegular", hostfile.ReadRegular},
		{"ReadRegularOS", hostfile.ReadRegularOS},
	}
	for _, r := range reads {
		for _, tt := range tests {
			t.Run(r.name+"/"+tt.name, func(t *testing.T) {
				got, ok := r.read([]byte("old contents"), tt.path, tt.max)
				if ok != tt.wantOK {
					t.Fatalf("%s(%s) ok = %v, want %v", r.name, tt.path, ok, tt.wantOK)
				}
				want, err := lib.ReadRegular(os.DirFS("/"), strings.TrimPrefix(tt.path, "/"), tt.max)
				if (err == nil) != ok {
					t.Fatalf("%s ok = %v, lib.ReadRegular error = %v", r.name, ok, err)
				}
				if ok {
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("%s(%s) differs from lib.ReadRegular (-lib +hostfile):\n%s", r.name, tt.path, diff)
					}
				}
			})
		}
	}
}

func symlink(t *testing.T, target, p string) string {
	t.Helper()
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
	return p
}

func fifo(t *testing.T, p string) string {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
