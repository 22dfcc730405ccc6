package eval

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/lib"
)

// moduleFiles is the one reader of the files next to a module, for file()
// and ReadModuleFile: the file system to read them from, and the module's
// directory in it. A module on the host is read through an os.Root of its
// directory (confinedDir), so that a symbolic link cannot lead out of the
// directory either.
func moduleFiles(m *module) (fs.FS, string) {
	if isOSFS(m.src.fsys) {
		return confinedDir("/" + m.dir()), "."
	}
	return m.src.fsys, m.dir()
}

// openRoot opens a directory as an os.Root; a variable so that a test can
// make it fail.
var openRoot = os.OpenRoot

// confinedDir is a host directory read through an os.Root, opened for each
// file and closed with it, so that an evaluation holds no descriptor
// between reads. When the directory cannot be opened as a root, reading
// fails: it never falls back to the unconfined file system.
type confinedDir string

// Open implements fs.FS.
func (d confinedDir) Open(name string) (fs.File, error) {
	root, err := d.root(name)
	if err != nil {
		return nil, err
	}
	f, err := root.Open(name)
	if err != nil {
		root.Close()
		return nil, err
	}
	return &rootFile{File: f, root: root}, nil
}

// Stat implements fs.StatFS, so that a file can be looked at without
// opening it, which for a FIFO would block.
func (d confinedDir) Stat(name string) (fs.FileInfo, error) {
	root, err := d.root(name)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return root.Stat(name)
}

func (d confinedDir) root(name string) (*os.Root, error) {
	root, err := openRoot(string(d))
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fmt.Errorf("the module's directory cannot be opened as a confined root (%w)", lib.FileErrorCause(err))}
	}
	return root, nil
}

// rootFile is a file opened through an os.Root, which it closes with
// itself.
type rootFile struct {
	*os.File
	root *os.Root
}

// Close closes the file and its root.
func (f *rootFile) Close() error {
	err := f.File.Close()
	if rerr := f.root.Close(); err == nil {
		err = rerr
	}
	return err
}

// ReadModuleFile reads a file named relative to the module that holds the
// source range rng (a definition's range): how a definition such as
// `source = "./motd"` names a file next to its module. The file must lie
// below that module's directory; it is read as file() reads
// (moduleFiles).
func (ev *Evaluator) ReadModuleFile(rng hcl.Range, rel string) ([]byte, error) {
	for _, m := range ev.mods {
		if m.src.display() != rng.Filename {
			continue
		}
		p := path.Clean(path.Join(m.dir(), rel))
		if path.IsAbs(rel) || p == ".." || strings.HasPrefix(p, "../") || !(m.dir() == "." || p == m.dir() || strings.HasPrefix(p, m.dir()+"/")) {
			return nil, fmt.Errorf("%s is not below the directory of %s", rel, rng.Filename)
		}
		fsys, dir := moduleFiles(m)
		b, err := lib.ReadRegular(fsys, path.Join(dir, strings.TrimPrefix(strings.TrimPrefix(p, m.dir()), "/")), ev.limits.FileBytes)
		if err != nil {
			return nil, fmt.Errorf("%s (next to %s): %s", rel, rng.Filename, lib.FileErrorCause(err))
		}
		return b, nil
	}
	return nil, fmt.Errorf("%s: no module %s", rel, rng.Filename)
}
