package eval

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/options"
)

// hostSource names a module file on the host by an OS path. The working
// directory is read once here and kept in the source (and the sources of
// its imports), so that naming a file costs no system call.
func hostSource(p string) (syntax.Source, error) {
	wd, err := os.Getwd()
	abs := filepath.Clean(p)
	if !filepath.IsAbs(p) {
		if err != nil {
			return syntax.Source{}, err
		}
		abs = filepath.Join(wd, p)
	}
	return syntax.Source{FS: syntax.HostFS, Path: strings.TrimPrefix(filepath.ToSlash(abs), "/"), WD: wd}, nil
}

// parseLabelPath parses the i-th label of a block as an option path.
func parseLabelPath(b *hclsyntax.Block, i int) ([]string, hcl.Diagnostics) {
	return syntax.OptionPath(b.Labels[i], "The label ", b.LabelRanges[i])
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
	return syntax.OptionPath(v.AsString(), "", expr.Range())
}

func didYouMean(name string, candidates []string) string {
	return options.DidYouMean(name, candidates)
}
