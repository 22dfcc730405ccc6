package syntax

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/nodegen/nodegen/internal/regularfile"
)

// Source names one module file: a path inside a file system, and the name
// diagnostics show for it.
type Source struct {
	FS   fs.FS
	Path string // slash-separated, inside FS
	// Lib is true for modules of the built-in library.
	Lib bool
	// Inline numbers a module given as a body (eval's Config.Inline),
	// which lives in the file at Path beside that file's own module.
	Inline int
	// WD is the working directory when the evaluation started, for the
	// names of host files (Display); "" if unknown.
	WD string
}

// Key identifies a module for deduplication and disabled_modules.
func (s Source) Key() string {
	if s.Inline > 0 {
		return fmt.Sprintf("inline%d:%s", s.Inline, s.Path)
	}
	if s.Lib {
		return "lib:" + s.Path
	}
	return "file:" + s.Path
}

// LibraryPrefix starts the file name of every library module in
// diagnostics: the library's "services/cluster/kubernetes/kubelet.hcl" is
// "<nodegen>/modules/services/cluster/kubernetes/kubelet.hcl". Read it
// through eval's OriginOf and LibraryModule, write it through
// LibraryFileName.
const LibraryPrefix = "<nodegen>/modules/"

// Display is the file name used in diagnostics.
func (s Source) Display() string {
	if s.Lib {
		return LibraryPrefix + s.Path
	}
	if IsOSFS(s.FS) {
		return DisplayPath(s.Path, s.WD)
	}
	return s.Path
}

// osFS is the host file system, rooted at "/". Paths in it are absolute
// paths without their leading slash.
type osFS struct{ fs.FS }

// HostFS is the host file system (see osFS).
var HostFS = osFS{regularfile.DirFS("/")}

// Stat implements fs.StatFS, so that a file can be looked at without
// opening it, which for a FIFO would block.
func (f osFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(f.FS, name) }

// IsOSFS reports whether f is HostFS.
func IsOSFS(f fs.FS) bool { _, ok := f.(osFS); return ok }

// DisplayPath shows a host path relative to the working directory wd when
// it is below it, else absolute (also when wd is unknown, "").
func DisplayPath(p, wd string) string {
	abs := "/" + p
	if wd != "" {
		if rel, err := filepath.Rel(wd, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return abs
}
