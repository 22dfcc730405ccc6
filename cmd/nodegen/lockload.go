package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/assetlock"
	"github.com/nodegen/nodegen/lib"
)

// lockPath is the lock file of the host whose first module file is host:
// nodegen.lock.hcl in the same directory.
func lockPath(host string) string {
	return filepath.Join(filepath.Dir(host), assetlock.FileName)
}

// readLock reads the lock file at path, a regular file of at most max
// bytes (never a FIFO or a device); a missing file is an empty lock and
// exists is false.
func readLock(path string, max int64) (f *assetlock.File, exists bool, diags hcl.Diagnostics) {
	if max <= 0 {
		max = eval.DefaultLimits.FileBytes
	}
	src, err := lib.ReadRegular(os.DirFS(filepath.Dir(path)), filepath.Base(path), max)
	if errors.Is(err, fs.ErrNotExist) {
		return assetlock.New(nil), false, nil
	}
	if err != nil {
		return assetlock.New(nil), true, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read the lock file", Detail: fmt.Sprintf("%s: %s.", path, unwrapErr(err))}}
	}
	f, diags = assetlock.Parse(src, path)
	return f, true, diags
}

// withLock adds to an evaluation of host files the lock file beside the
// first of them (nodegen.lock.hcl), as a module that defines
// environment.assetLock from its entries, located in the file: an asset
// without a hash of its own takes its url's sha512 from there. A bare
// evaluation (no library, no such option) and a host without a lock file
// are left as they are. A lock file with mistakes is their diagnostics.
func withLock(cfg eval.Config) (eval.Config, hcl.Diagnostics) {
	if cfg.Library == nil || cfg.FS != nil || len(cfg.Files) == 0 {
		return cfg, nil
	}
	path := lockPath(cfg.Files[0])
	f, exists, diags := readLock(path, cfg.Limits.FileBytes)
	if !exists {
		return cfg, diags
	}
	if diags.HasErrors() {
		// The file's errors are reported and its entries not used; it is
		// part of the evaluation all the same, for the errors' snippets.
		f = &assetlock.File{Source: f.Source}
	}
	body := f.Definitions(path)
	var src []byte
	if f.Source != nil {
		src = f.Source.Bytes
	}
	cfg.Inline = append(cfg.Inline, eval.InlineModule{Path: path, File: &hcl.File{Body: body, Bytes: src}, Body: body})
	return cfg, diags
}

// newEvaluator evaluates host files as eval.New does, with the lock file
// beside them (see withLock).
func newEvaluator(cfg eval.Config) (*eval.Evaluator, hcl.Diagnostics) {
	cfg, diags := withLock(cfg)
	ev, d := eval.New(cfg)
	return ev, append(diags, d...)
}

// unwrapErr drops the path an *fs.PathError repeats.
func unwrapErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
