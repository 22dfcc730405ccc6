package lsp

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/regularfile"
)

// libraryDir is where the library's files are materialised, a path inside
// the overlay.
func (s *Server) libraryDir() (string, error) {
	dir := s.opts.LibraryDir
	if dir == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(c, "nodegen", "lsp", "library")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return strings.TrimPrefix(filepath.ToSlash(abs), "/"), nil
}

// libraryName tells whether a path inside the overlay is a materialised
// file of the library, and which (its path in the library).
func (s *Server) libraryName(p string) (string, bool) {
	dir, err := s.libraryDir()
	if err != nil {
		return "", false
	}
	return strings.CutPrefix(p, dir+"/")
}

// materialise writes the library's file rel (as the evaluation read it)
// below the library directory, read-only, unless it is there with the same
// content; it returns its path inside the overlay. The file is written to
// a temporary name and renamed, so an editor never reads half of it.
func (s *Server) materialise(rel string) (string, error) {
	dir, err := s.libraryDir()
	if err != nil {
		return "", err
	}
	t := s.fileText(eval.LibraryFileName(rel))
	if t == nil {
		return "", fmt.Errorf("no library file %s", rel)
	}
	p := path.Join(dir, rel)
	host := "/" + p
	if old, err := os.ReadFile(host); err == nil && bytes.Equal(old, t.src) {
		return p, nil
	}
	if err := os.MkdirAll(filepath.Dir(host), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(filepath.Dir(host), ".tmp-*")
	if err != nil {
		return "", err
	}
	_, werr := tmp.Write(t.src)
	cerr := tmp.Close()
	if err := firstErr(werr, cerr, os.Chmod(tmp.Name(), 0o444)); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	if err := os.Rename(tmp.Name(), host); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return p, nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// fileText is the content of a file an evaluation names: an open
// document's buffer, a file of the library, or a file on disk; nil when it
// cannot be read.
func (s *Server) fileText(name string) *text {
	for _, d := range s.docs {
		if d.name == name {
			return d.text
		}
	}
	if rel, ok := eval.LibraryModule(name); ok {
		if t := s.libTexts[rel]; t != nil {
			return t
		}
		if s.opts.Library == nil {
			return nil
		}
		b, err := fs.ReadFile(s.opts.Library, rel)
		if err != nil {
			return nil
		}
		s.libTexts[rel] = newText(b)
		return s.libTexts[rel]
	}
	b, err := regularfile.Read(s.fsys, name, eval.DefaultLimits.FileBytes)
	if err != nil {
		return nil
	}
	return newText(b)
}
