package assetlock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/regularfile"
	"github.com/nodegen/nodegen/lib"
)

// Path is the lock file of the host whose first module file is host, a
// path of the host's file system: FileName in the same directory.
func Path(host string) string {
	return filepath.Join(filepath.Dir(host), FileName)
}

// Read reads the lock file name of fsys (display is its name in
// diagnostics): a regular file of at most max bytes (never a FIFO or a
// device; max 0 is eval's default file limit). A missing file is an empty
// lock, and exists is false.
func Read(fsys fs.FS, name, display string, max int64) (f *File, exists bool, diags hcl.Diagnostics) {
	if max <= 0 {
		max = eval.DefaultLimits.FileBytes
	}
	src, err := regularfile.Read(fsys, name, max)
	if errors.Is(err, fs.ErrNotExist) {
		return New(nil), false, nil
	}
	if err != nil {
		return New(nil), true, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read the lock file", Detail: fmt.Sprintf("%s: %s.", display, lib.FileLimitCause(err))}}
	}
	f, diags = Parse(src, display)
	return f, true, diags
}

// ReadHost reads the lock file at path, a path of the host's file system
// (see Read).
func ReadHost(path string, max int64) (*File, bool, hcl.Diagnostics) {
	return Read(os.DirFS(filepath.Dir(path)), filepath.Base(path), path, max)
}

// AddTo adds to an evaluation of host files the lock file beside the
// first of them, as a module that defines Option from its entries (see
// Definitions): an asset without a hash of its own takes its url's sha512
// from there. The files are the host's, or cfg.FS's when it is set (the
// language server's). A bare evaluation (no library, so no such option)
// and a host without a lock file are left as they are. A lock file with
// mistakes is their diagnostics; it is part of the evaluation all the
// same, without entries, for the snippets of its errors.
func AddTo(cfg eval.Config) (eval.Config, hcl.Diagnostics) {
	if cfg.Library == nil || len(cfg.Files) == 0 {
		return cfg, nil
	}
	var (
		f      *File
		exists bool
		diags  hcl.Diagnostics
		name   string
	)
	if cfg.FS != nil {
		name = path.Join(path.Dir(path.Clean(cfg.Files[0])), FileName)
		f, exists, diags = Read(cfg.FS, name, name, cfg.Limits.FileBytes)
	} else {
		name = Path(cfg.Files[0])
		f, exists, diags = ReadHost(name, cfg.Limits.FileBytes)
	}
	if !exists {
		return cfg, diags
	}
	if diags.HasErrors() {
		f = &File{Source: f.Source}
	}
	body := f.Definitions(name)
	var src []byte
	if f.Source != nil {
		src = f.Source.Bytes
	}
	cfg.Inline = append(cfg.Inline, eval.InlineModule{Path: name, File: &hcl.File{Body: body, Bytes: src}, Body: body})
	return cfg, diags
}
