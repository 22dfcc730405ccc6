package eval

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/lib"
)

// decodeFormat reads a format block; its parameters are constants.
func decodeFormat(b *hclsyntax.Block, m *syntax.Module) (*syntax.Format, hcl.Diagnostics) {
	if d := wantLabels(b, 2); d != nil {
		d.Detail += ` Write format "NAME" "KIND" { PARAMETERS }, where KIND is one of ` + strings.Join(lib.FormatKinds, ", ") + "."
		return nil, hcl.Diagnostics{d}
	}
	diags := unsupportedBlocks(b.Body, "A format block takes its parameters as arguments, not a %q block.")
	kind := b.Labels[1]
	if !slices.Contains(lib.FormatKinds, kind) {
		detail := fmt.Sprintf("There is no format kind %q; the kinds are %s.", kind, strings.Join(lib.FormatKinds, ", "))
		if s := didYouMean(kind, lib.FormatKinds); s != "" {
			detail += fmt.Sprintf(" Did you mean %q?", s)
		}
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unknown format kind",
			Detail:   detail,
			Subject:  b.LabelRanges[1].Ptr(),
		})
	}
	params := map[string]cty.Value{}
	attrs := syntax.SortedAttrs(b.Body.Attributes)
	for _, attr := range attrs {
		v, d := syntax.ConstValue(attr.Expr)
		if d.HasErrors() || !v.IsWhollyKnown() {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid format parameter",
				Detail:   fmt.Sprintf("The parameters of a format are constants; %s is not one.", attr.Name),
				Subject:  attr.Expr.Range().Ptr(),
			})
			continue
		}
		params[attr.Name] = v
	}
	if diags.HasErrors() {
		return nil, diags
	}
	f, err := lib.NewFormat(kind, ctyelems.ObjectVal(params))
	if err != nil {
		subject := b.DefRange()
		for _, attr := range attrs {
			if strings.Contains(err.Error(), strconv.Quote(attr.Name)) || strings.Contains(err.Error(), attr.Name+" ") {
				subject = attr.SrcRange
				break
			}
		}
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid format parameters",
			Detail:   fmt.Sprintf("The %s format %q: %s.", kind, b.Labels[0], err),
			Subject:  subject.Ptr(),
		})
	}
	return &syntax.Format{Name: b.Labels[0], Block: b, Format: f}, diags
}

// formatValue reads format.NAME in an expression: the format as a value
// (lib.Format.Value), followed by the rest of the traversal.
func (sc *scope) formatValue(root hcl.Range, rest hcl.Traversal) (cty.Value, hcl.Diagnostics) {
	attr, ok := hcl.TraverseAttr{}, len(rest) > 0
	if ok {
		attr, ok = rest[0].(hcl.TraverseAttr)
	}
	if !ok {
		return cty.DynamicVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid reference",
			Detail:   "format must be followed by the name of a format, as in format.NAME.",
			Subject:  root.Ptr(),
		}}
	}
	f, diags := syntax.LookupFormat(sc.inst.ev.Formats, attr.Name, hcl.RangeBetween(root, attr.SrcRange))
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	return sc.steps(f.Format.Value(), rest[1:], root)
}
