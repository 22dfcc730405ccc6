package eval

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/nodegen/nodegen/internal/regularfile"
	"github.com/nodegen/nodegen/options"
)

// osFS is the host file system, rooted at "/". Paths in it are absolute
// paths without their leading slash.
type osFS struct{ fs.FS }

var hostFS = osFS{regularfile.DirFS("/")}

// Stat implements fs.StatFS, so that a file can be looked at without
// opening it, which for a FIFO would block.
func (f osFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(f.FS, name) }

func isOSFS(f fs.FS) bool { _, ok := f.(osFS); return ok }

// hostSource names a module file on the host by an OS path. The working
// directory is read once here and kept in the source (and the sources of
// its imports), so that naming a file costs no system call.
func hostSource(p string) (source, error) {
	wd, err := os.Getwd()
	abs := filepath.Clean(p)
	if !filepath.IsAbs(p) {
		if err != nil {
			return source{}, err
		}
		abs = filepath.Join(wd, p)
	}
	return source{fsys: hostFS, path: strings.TrimPrefix(filepath.ToSlash(abs), "/"), wd: wd}, nil
}

// displayPath shows a host path relative to the working directory wd when
// it is below it, else absolute (also when wd is unknown, "").
func displayPath(p, wd string) string {
	abs := "/" + p
	if wd != "" {
		if rel, err := filepath.Rel(wd, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return abs
}

// parseLabelPath parses the i-th label of a block as an option path.
func parseLabelPath(b *hclsyntax.Block, i int) ([]string, hcl.Diagnostics) {
	return optionPath(b.Labels[i], "The label ", b.LabelRanges[i])
}

// optionPath parses text as an option path; a bad or empty path is an
// error at rng, whose detail names the text after what ("The label ").
func optionPath(text, what string, rng hcl.Range) ([]string, hcl.Diagnostics) {
	return optionPathAfter(nil, text, what, rng)
}

// optionPathAfter is optionPath's path after prefix, in one new slice.
func optionPathAfter(prefix []string, text, what string, rng hcl.Range) ([]string, hcl.Diagnostics) {
	p, err := options.ParsePathAfter(prefix, text)
	if err != nil || len(p) == len(prefix) {
		msg := "an empty path"
		if err != nil {
			msg = err.Error()
		}
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid option path",
			Detail:   fmt.Sprintf("%s%q is not an option path: %s.", what, text, msg),
			Subject:  rng.Ptr(),
		}}
	}
	return p, nil
}

// staticPath reads an expression that must be a constant string holding an
// option path.
func staticPath(expr hclsyntax.Expression) ([]string, hcl.Diagnostics) {
	v, diags := expr.Value(nil)
	if diags.HasErrors() || v.IsNull() || v.Type() != cty.String {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid option path",
			Detail:   "An option path must be a constant string.",
			Subject:  expr.Range().Ptr(),
		}}
	}
	return optionPath(v.AsString(), "", expr.Range())
}

func didYouMean(name string, candidates []string) string {
	return options.DidYouMean(name, candidates)
}
