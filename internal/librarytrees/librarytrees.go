// Package librarytrees carries the syntax trees of the built-in module
// library, encoded when nodegen is built (a parsecache.Bundle), so that a
// run neither parses the library nor reads its trees from the parse
// cache. library.bundle is generated from modules/ by Build; a test fails
// when it is stale, and NODEGEN_UPDATE=1 go test ./internal/librarytrees/
// writes it again. A module changed since is parsed as any other file,
// since a tree serves only the source it was made from.
package librarytrees

import (
	"io/fs"
	"strings"
	"sync"

	_ "embed"

	"github.com/nodegen/nodegen/internal/parsecache"
)

//go:embed library.bundle
var bundle []byte

// Bundle returns the library's trees; nil when the bundle cannot be read
// (a damaged build), and every module is then parsed or found in the
// cache.
var Bundle = sync.OnceValue(func() *parsecache.Bundle {
	b, err := parsecache.ReadBundle(bundle)
	if err != nil {
		return nil
	}
	return b
})

// Build returns the bundle of the library lib (see Files).
func Build(lib fs.FS, prefix string) ([]byte, error) {
	files, err := Files(lib, prefix)
	if err != nil {
		return nil, err
	}
	return parsecache.AppendBundle(nil, files)
}

// Files returns the files of the library lib that the bundle holds: every
// .hcl file in it but the tests (*.test.hcl), as the evaluator loads
// them, each named prefix followed by its path, as diagnostics name it.
func Files(lib fs.FS, prefix string) ([]parsecache.BundleFile, error) {
	var files []parsecache.BundleFile
	err := fs.WalkDir(lib, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".hcl") || strings.HasSuffix(p, ".test.hcl") {
			return err
		}
		src, err := fs.ReadFile(lib, p)
		if err != nil {
			return err
		}
		files = append(files, parsecache.BundleFile{Name: prefix + p, Src: src})
		return nil
	})
	return files, err
}
