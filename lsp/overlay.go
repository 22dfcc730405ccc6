package lsp

import (
	"io/fs"
	"sync"
	"testing/fstest"
	"time"

	"github.com/nodegen/nodegen/internal/regularfile"
)

// overlay is the host's file system, rooted at "/", with the editor's
// unsaved buffers over the files they edit: what every evaluation of the
// server reads, so that it sees what the user sees.
type overlay struct {
	disk fs.FS
	mu   sync.Mutex
	// bufs maps a path inside the file system ("home/u/host.hcl") to the
	// buffer's content.
	bufs map[string][]byte
}

func newOverlay() *overlay {
	return &overlay{disk: regularfile.DirFS("/"), bufs: map[string][]byte{}}
}

func (o *overlay) set(name string, b []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.bufs[name] = b
}

func (o *overlay) drop(name string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.bufs, name)
}

// Open implements fs.FS.
func (o *overlay) Open(name string) (fs.File, error) {
	o.mu.Lock()
	b, ok := o.bufs[name]
	o.mu.Unlock()
	if !ok {
		return o.disk.Open(name)
	}
	m := fstest.MapFS{name: &fstest.MapFile{Data: b, Mode: 0o644, ModTime: time.Time{}}}
	return m.Open(name)
}

// Stat implements fs.StatFS. A file on disk is looked at without being
// opened, which for a FIFO would block.
func (o *overlay) Stat(name string) (fs.FileInfo, error) {
	o.mu.Lock()
	_, ok := o.bufs[name]
	o.mu.Unlock()
	if !ok {
		return fs.Stat(o.disk, name)
	}
	f, err := o.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Stat()
}
