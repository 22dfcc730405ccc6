package lsp

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/regularfile"
)

func TestScanWorkspace(t *testing.T) {
	fsys := fstest.MapFS{
		"ws/hosts/a.hcl":            {Data: []byte(`imports = ["../roles/web.hcl", "../cluster"]`)},
		"ws/hosts/b.hcl":            {Data: []byte(`imports = ["../roles/db.hcl"]`)},
		"ws/roles/web.hcl":          {Data: []byte(`imports = ["./common.hcl"]`)},
		"ws/roles/db.hcl":           {Data: []byte(`imports = ["./common.hcl", local.more]`)},
		"ws/roles/common.hcl":       {Data: []byte(`config "networking" { domain = "x" }`)},
		"ws/cluster/default.hcl":    {Data: []byte(`imports = ["../cycle.hcl"]`)},
		"ws/cycle.hcl":              {Data: []byte(`imports = ["./cluster"]`)},
		"ws/roles/web.test.hcl":     {Data: []byte(`run "x" { imports = ["./web.hcl"] }`)},
		"ws/.git/hooks/x.hcl":       {Data: []byte(``)},
		"ws/broken.hcl":             {Data: []byte(`imports = [`)},
		"elsewhere/not-in-root.hcl": {Data: []byte(``)},
	}
	w := scanWorkspace(fsys, "ws")
	// The cluster and cycle.hcl import each other: neither is a host.
	if diff := cmp.Diff([]string{"ws/broken.hcl", "ws/hosts/a.hcl", "ws/hosts/b.hcl"}, w.hosts); diff != "" {
		t.Errorf("hosts (-want +got):\n%s", diff)
	}
	tests := []struct {
		module string
		hosts  []string
	}{
		{"ws/roles/common.hcl", []string{"ws/hosts/a.hcl", "ws/hosts/b.hcl"}},
		{"ws/roles/web.hcl", []string{"ws/hosts/a.hcl"}},
		{"ws/cycle.hcl", []string{"ws/hosts/a.hcl"}},
		{"ws/hosts/b.hcl", []string{"ws/hosts/b.hcl"}},
		{"ws/roles/web.test.hcl", nil},
		{"elsewhere/not-in-root.hcl", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.hosts, w.hostsOf(tt.module)); diff != "" {
			t.Errorf("hostsOf(%s) (-want +got):\n%s", tt.module, diff)
		}
	}
}

// TestScanWorkspaceReadsOnlyRegularFiles (N10): the scan reads the
// modules of a real directory through the server's overlay, and a FIFO
// (which blocked it for good), a link to /dev/zero (which grew it without
// end) or a file over the file limit named *.hcl are passed over, quickly
// and without reading them.
func TestScanWorkspaceReadsOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("hosts/a.hcl", `imports = ["../roles/web.hcl"]`)
	write("roles/web.hcl", `config "networking" { domain = "x" }`)
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.hcl"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.hcl")); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(dir, "big.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(eval.DefaultLimits.FileBytes + 1); err != nil {
		t.Fatal(err)
	}
	big.Close()
	root := strings.TrimPrefix(filepath.ToSlash(dir), "/")
	done := make(chan *workspace, 1)
	go func() { done <- scanWorkspace(newOverlay(), root) }()
	select {
	case w := <-done:
		if diff := cmp.Diff([]string{root + "/hosts/a.hcl"}, w.hosts); diff != "" {
			t.Errorf("hosts (-want +got):\n%s", diff)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the scan of a workspace with a FIFO, /dev/zero and a large file did not end in 20 s")
	}
	// A FIFO in a buffer's place: the overlay looks at it without opening
	// it, and a read of it fails at once.
	o := newOverlay()
	if fi, err := o.Stat(root + "/fifo.hcl"); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("Stat(fifo.hcl) = %v, %v; want a named pipe", fi, err)
	}
	if _, err := regularfile.Read(o, root+"/fifo.hcl", 1<<20); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("regularfile.Read(fifo.hcl) error %v, want not a regular file", err)
	}
}
