package eval

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/options"
)

// This file reads dynamic blocks, Terraform's, for option declarations,
// when a module is loaded (package declare expands them): a NixOS author's
// mapAttrs over a table of components.
//
//	dynamic "options" {
//	  for_each = local.components
//	  iterator = component
//	  labels   = ["services.kubernetes.${component.key}"]
//	  content { option "extraOpts" { ... } }
//	}
//
// for_each and labels are read when the options are declared, under the
// rule of computed imports (imports.go): constants, functions and the
// module's locals, never config (checked once, when the module is
// parsed). The iterator (NAME.key, NAME.value) is bound in every
// expression of the declarations made, the lazy ones included: a
// declaration remembers its iterators (syntax.OptionDecl.Vars).

// dynamicKinds are the block types a dynamic block makes.
var dynamicKinds = []string{"option", "options"}

var dynamicArgs = []string{"for_each", "iterator", "labels"}

// decodeDynamic reads a dynamic block where option declarations are
// expected; nil with diagnostics when it is malformed.
func decodeDynamic(b *hclsyntax.Block) (*syntax.Dynamic, hcl.Diagnostics) {
	if d := wantLabels(b, 1); d != nil {
		return nil, hcl.Diagnostics{d}
	}
	var diags hcl.Diagnostics
	kind := b.Labels[0]
	if kind != "option" && kind != "options" {
		detail := fmt.Sprintf("A dynamic block here makes %s blocks, not %q blocks: only option declarations can be made by a dynamic block.", strings.Join(dynamicKinds, " or "), kind)
		if s := didYouMean(kind, dynamicKinds); s != "" {
			detail += fmt.Sprintf(" Did you mean %q?", s)
		}
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unsupported dynamic block type",
			Detail:   detail,
			Subject:  b.LabelRanges[0].Ptr(),
		}}
	}
	dyn := &syntax.Dynamic{Kind: kind, Iterator: kind}
	for _, attr := range syntax.SortedAttrs(b.Body.Attributes) {
		switch attr.Name {
		case "for_each":
			dyn.ForEach = attr
		case "labels":
			dyn.Labels = attr
			if t, ok := attr.Expr.(*hclsyntax.TupleConsExpr); ok && len(t.Exprs) != 1 {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Wrong number of labels",
					Detail:   fmt.Sprintf("An %s block takes one label, so labels holds one expression, not %d.", kind, len(t.Exprs)),
					Subject:  attr.Expr.Range().Ptr(),
				})
			}
		case "iterator":
			name, d := iteratorName(attr)
			diags = append(diags, d...)
			dyn.Iterator = name
		default:
			diags = append(diags, syntax.UnsupportedArg(attr, "A dynamic block takes "+strings.Join(dynamicArgs, ", ")+" and a content block", dynamicArgs))
		}
	}
	for _, nb := range b.Body.Blocks {
		switch {
		case nb.Type != "content":
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported block type",
				Detail:   fmt.Sprintf("A dynamic block holds one content block, not %q.", nb.Type),
				Subject:  nb.TypeRange.Ptr(),
			})
		case dyn.Content != nil:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate content block",
				Detail:   fmt.Sprintf("A dynamic block holds one content block; the first is at %s.", options.ShowPos(dyn.Content.DefRange())),
				Subject:  nb.TypeRange.Ptr(),
			})
		default:
			if d := wantLabels(nb, 0); d != nil {
				diags = append(diags, d)
			}
			dyn.Content = nb
		}
	}
	for _, need := range []struct {
		name    string
		missing bool
	}{{"for_each", dyn.ForEach == nil}, {"labels", dyn.Labels == nil}} {
		if need.missing {
			diags = append(diags, missingArg(b, need.name))
		}
	}
	if dyn.Content == nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing content block",
			Detail:   fmt.Sprintf("A dynamic block needs a content block: the body of each %s block it makes.", kind),
			Subject:  b.DefRange().Ptr(),
		})
	}
	if diags.HasErrors() {
		return nil, diags
	}
	if kind == "option" {
		diags = append(diags, unsupportedBlocks(dyn.Content.Body, "An option declaration takes arguments only, not a %q block.")...)
		dyn.Made = &hclsyntax.Block{Type: kind, Labels: b.Labels, Body: dyn.Content.Body, TypeRange: b.TypeRange, LabelRanges: b.LabelRanges, OpenBraceRange: b.OpenBraceRange, CloseBraceRange: b.CloseBraceRange}
	} else {
		diags = append(diags, decodeOptionsBody(dyn.Content.Body, nil, &dyn.Inner)...)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return dyn, diags
}

// checkDynamics checks, once when module m is parsed, that the for_each
// and labels of its dynamic blocks read neither config, root, options nor
// name (see configFree): they are read when the options are declared.
func checkDynamics(m *syntax.Module) hcl.Diagnostics {
	var diags hcl.Diagnostics
	free := map[string]bool{}
	var walk func(decls []*syntax.OptionDecl, vars *syntax.Binding)
	walk = func(decls []*syntax.OptionDecl, vars *syntax.Binding) {
		for _, o := range decls {
			dyn := o.Dyn
			if dyn == nil {
				continue
			}
			// The iterators around the block are bound in for_each, and
			// its own too in labels (placeholder values: only the names
			// count).
			own := &syntax.Binding{Name: dyn.Iterator, Value: cty.DynamicVal, Outer: vars}
			for _, e := range []struct {
				attr  *hclsyntax.Attribute
				bound *syntax.Binding
			}{{dyn.ForEach, vars}, {dyn.Labels, own}} {
				if d := configFree(m, e.attr.Name, e.attr.Expr, e.bound, nil, map[string]bool{}, free, whenDeclared); d != nil && !dyn.ReadsConfig {
					diags = append(diags, d)
					dyn.ReadsConfig = true
				}
			}
			walk(dyn.Inner, own)
		}
	}
	walk(m.Options, nil)
	for _, s := range m.Submodules {
		walk(s.Options, nil)
	}
	return diags
}

// iteratorName reads a dynamic block's iterator argument: a bare name.
func iteratorName(attr *hclsyntax.Attribute) (string, hcl.Diagnostics) {
	tr, d := hcl.AbsTraversalForExpr(attr.Expr)
	if d.HasErrors() || len(tr) != 1 {
		return "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid iterator",
			Detail:   "The iterator of a dynamic block is a name, as in iterator = component.",
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	name := tr.RootName()
	// The variables every expression can read, which an iterator may not
	// hide.
	for _, r := range rootNames {
		if name == r {
			return "", hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid iterator",
				Detail:   fmt.Sprintf("The iterator cannot be named %s, which expressions read for something else (%s).", name, strings.Join(rootNames, ", ")),
				Subject:  attr.Expr.Range().Ptr(),
			}}
		}
	}
	return name, nil
}
