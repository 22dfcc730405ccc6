package eval

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/internal/regularfile"
	"github.com/nodegen/nodegen/lib"
)

// moduleFiles is the one reader of the files next to a module, for file()
// and ReadModuleFile: the file system to read them from, and the module's
// directory in it. A module on the host is read through an os.Root of its
// directory (confinedDir), so that a symbolic link cannot lead out of the
// directory either.
func moduleFiles(m *syntax.Module) (fs.FS, string) {
	if syntax.IsOSFS(m.Src.FS) {
		return confinedDir("/" + m.Dir()), "."
	}
	return m.Src.FS, m.Dir()
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
	m := ev.moduleNamed(rng.Filename)
	if m == nil {
		return nil, fmt.Errorf("%s: no module %s", rel, rng.Filename)
	}
	p := path.Clean(path.Join(m.Dir(), rel))
	if path.IsAbs(rel) || !below(p, m.Dir()) {
		return nil, fmt.Errorf("%s is not below the directory of %s", rel, rng.Filename)
	}
	fsys, dir := moduleFiles(m)
	b, err := regularfile.Read(fsys, path.Join(dir, strings.TrimPrefix(strings.TrimPrefix(p, m.Dir()), "/")), ev.limits.FileBytes)
	if err != nil {
		return nil, fmt.Errorf("%s (next to %s): %s", rel, rng.Filename, lib.FileLimitCause(err))
	}
	return b, nil
}

// modulePath is a file that a definition names relative to its module:
// the module, and the file's path below the module's directory.
type modulePath struct {
	mod *syntax.Module
	rel string
}

// ResolvePath implements options.PathResolver: the type path's value for
// rel, a path relative to the module that holds the definition at def
// ("./keys/alice.pub"), as a Nix path literal is relative to its file. The
// value is the file's absolute path on the host, for a module on the host
// ("/" and the path inside the file system of the module otherwise). As
// file() and a relative source, the path must lie below the module's
// directory; `..` may be used inside it. file() reads such a path in any
// module, through the module that named it, confined as there.
func (ev *Evaluator) ResolvePath(rel string, def hcl.Range) (string, *hcl.Diagnostic) {
	diag := func(detail string) *hcl.Diagnostic {
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid relative path",
			Detail:   detail,
			Subject:  def.Ptr(),
		}
	}
	m := ev.moduleNamed(def.Filename)
	switch {
	case m == nil:
		return "", diag(fmt.Sprintf("The path %q is relative, but no module holds this definition to resolve it against; write an absolute path.", rel))
	case m.Src.Lib:
		return "", diag(fmt.Sprintf("The path %q is relative to a module of the library, which is built into nodegen and has no directory on the host; write an absolute path.", rel))
	}
	p := path.Clean(path.Join(m.Dir(), rel))
	if !below(p, m.Dir()) {
		return "", diag(fmt.Sprintf("The path %q leads out of the directory of %s: a path relative to a module must lie below the module's directory, as the files file() reads do.", rel, def.Filename))
	}
	abs := "/" + p
	ev.modulePaths[abs] = modulePath{mod: m, rel: strings.TrimPrefix(strings.TrimPrefix(p, m.Dir()), "/")}
	return abs, nil
}

// moduleNamed is the module whose file diagnostics name filename.
func (ev *Evaluator) moduleNamed(filename string) *syntax.Module {
	for _, m := range ev.Mods {
		if m.Src.Display() == filename {
			return m
		}
	}
	return nil
}

// below reports whether the clean path p lies in dir, a module's directory
// ("." for the root of its file system).
func below(p, dir string) bool {
	if p == ".." || strings.HasPrefix(p, "../") {
		return false
	}
	return dir == "." || p == dir || strings.HasPrefix(p, dir+"/")
}

// fileFunc is file() in module m: a path relative to m, or the value of a
// path option that some module wrote relative to itself (see ResolvePath),
// read through that module.
func (ev *Evaluator) fileFunc(m *syntax.Module) function.Function {
	fsys, dir := moduleFiles(m)
	own := lib.FileFunc(fsys, dir, ev.limits.FileBytes)
	return function.New(&function.Spec{
		Description:  own.Description(),
		Params:       own.Params(),
		Type:         function.StaticReturnType(cty.String),
		RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder { return b.NotNull() },
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if mp, ok := ev.modulePaths[args[0].AsString()]; ok {
				f, _ := ev.function(mp.mod, "file")
				v, err := f.Call([]cty.Value{cty.StringVal(mp.rel)})
				var argErr function.ArgError
				if errors.As(err, &argErr) {
					err = function.NewArgErrorf(0, "%s, which %s names relative to itself: %s", args[0].AsString(), mp.mod.Src.Display(), argErr.Error())
				}
				return v, err
			}
			return own.Call(args)
		},
	})
}
