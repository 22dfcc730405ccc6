package lib

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/nodegen/nodegen/internal/regularfile"
)

// FileFunc returns file(path) for one module: it reads the file at path,
// relative to dir, from fsys and returns its contents, which must be UTF-8
// text. The file must be a regular file of at most max bytes
// (regularfile.Read).
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
			b, err := regularfile.Read(fsys, full, max)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return cty.NilVal, function.NewArgErrorf(0, "no file exists at %q", name)
			case err != nil:
				return cty.NilVal, function.NewArgErrorf(0, "cannot read %q: %s", name, FileLimitCause(err))
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

// FileLimitCause is FileErrorCause for a read bounded by the evaluation's
// limit file: a file too large says which limit to raise.
func FileLimitCause(err error) error {
	cause := FileErrorCause(err)
	if errors.Is(err, regularfile.ErrTooLarge) {
		return fmt.Errorf("%s (limit file)", cause)
	}
	return cause
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
