package lib

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/nodegen/nodegen/internal/filekind"
)

// FileFunc returns file(path) for one module: it reads the file at path,
// relative to dir, from fsys and returns its contents, which must be UTF-8
// text. The file must be a regular file of at most max bytes
// (ReadRegular).
//
// A module may read only the files below its own directory: path must be
// relative, and must not lead out of dir once cleaned ("sub/../x" is fine,
// "../x" is not). dir is a slash-separated path inside fsys, as fs.ValidPath
// accepts ("." for fsys's root); FileFunc panics if it is not. The check is
// on the path alone: to also keep symbolic links below dir from leading
// out, give an fsys that refuses them, such as an os.Root's FS.
func FileFunc(fsys fs.FS, dir string, max int64) function.Function {
	if !fs.ValidPath(dir) {
		panic(fmt.Sprintf("lib.FileFunc: invalid directory %q: want a slash-separated path inside the file system", dir))
	}
	return function.New(&function.Spec{
		Description: "Reads the contents of a file below the module's directory as a string.",
		Params: []function.Parameter{
			{
				Name:        "path",
				Description: "The path of the file, relative to the module's directory.",
				Type:        cty.String,
			},
		},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			name := args[0].AsString()
			full, err := modulePath(dir, name)
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			b, err := ReadRegular(fsys, full, max)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return cty.NilVal, function.NewArgErrorf(0, "no file exists at %q", name)
			case err != nil:
				return cty.NilVal, function.NewArgErrorf(0, "cannot read %q: %s", name, FileErrorCause(err))
			case !utf8.Valid(b):
				return cty.NilVal, function.NewArgErrorf(0, "the contents of %q are not valid UTF-8", name)
			}
			return cty.StringVal(string(b)), nil
		},
	})
}

// modulePath returns the path inside the file system of the file that a
// module in dir names name, or an error if name leads out of dir.
func modulePath(dir, name string) (string, error) {
	outside := fmt.Errorf("the file must be below the module's directory; %q is not", name)
	if name == "" {
		return "", errors.New("the path is empty")
	}
	if path.IsAbs(name) || filepath.IsAbs(name) {
		return "", outside
	}
	clean := path.Clean(name)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", outside
	}
	return path.Join(dir, clean), nil
}

// FileErrorCause drops the operation and path that an *fs.PathError
// repeats, keeping the cause: what a message that names the file already
// shows of an error reading it.
func FileErrorCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// ReadRegular reads the file name of fsys, following symbolic links, which
// must end at a regular file of at most max bytes: a device, FIFO or socket
// is an error, so that reading never blocks or runs out of memory. The file
// is checked before it is opened and again once open; and it must hold as
// many bytes as its size says, which a file that the kernel makes up as it
// is read (/proc/self/environ, of size 0) does not.
func ReadRegular(fsys fs.FS, name string, max int64) ([]byte, error) {
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if err := checkRegular(name, fi, max); err != nil {
		return nil, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := checkRegular(name, fi, max); err != nil {
		return nil, err
	}
	// One read of the size the file has, and one byte more to tell a file
	// that grew.
	data := make([]byte, fi.Size()+1)
	n, err := io.ReadFull(f, data)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	data = data[:n:n]
	if int64(len(data)) != fi.Size() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("it is not an ordinary file: its size is %d bytes, reading it gave %s", fi.Size(), readSize(len(data), fi.Size()))}
	}
	return data, nil
}

func readSize(n int, size int64) string {
	if int64(n) > size {
		return "more"
	}
	return fmt.Sprintf("%d", n)
}

// checkRegular checks that fi is a regular file of at most max bytes.
func checkRegular(name string, fi fs.FileInfo, max int64) error {
	if !fi.Mode().IsRegular() {
		return &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("it is a %s, not a regular file", filekind.Of(fi.Mode()))}
	}
	if fi.Size() > max {
		return &fs.PathError{Op: "read", Path: name, Err: fmt.Errorf("it has %d bytes, more than %d (limit file)", fi.Size(), max)}
	}
	return nil
}
