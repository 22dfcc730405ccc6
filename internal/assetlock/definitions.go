package assetlock

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// Option is the option whose definitions Definitions makes: an attribute
// set by URL of {size, sha512}, which the library's asset submodule reads
// for an asset with no hash of its own.
const Option = "environment.assetLock"

// Definitions returns the body of a module that defines Option from the
// lock's entries, as this module would:
//
//	config "environment" {
//	  assetLock = {
//	    "URL" = { size = N, sha512 = "..." }
//	  }
//	}
//
// Every expression is located at the part of the lock file it comes from
// (the entry's URL, size and sha512), so that an evaluation's messages
// and `nodegen option environment.assetLock` point into the lock file.
// filename names the file for entries read from none.
func (f *File) Definitions(filename string) *hclsyntax.Body {
	whole := hcl.Range{Filename: filename, Start: hcl.InitialPos, End: hcl.InitialPos}
	if f.Source != nil {
		if b, ok := f.Source.Body.(*hclsyntax.Body); ok {
			whole = b.SrcRange
		}
	}
	or := func(r hcl.Range) hcl.Range {
		if r.Filename == "" {
			return whole
		}
		return r
	}
	items := make([]hclsyntax.ObjectConsItem, 0, len(f.Entries))
	for _, e := range f.Entries {
		entry := or(e.Range)
		value := &hclsyntax.ObjectConsExpr{
			Items: []hclsyntax.ObjectConsItem{
				nameItem("size", &hclsyntax.LiteralValueExpr{Val: cty.NumberIntVal(e.Size), SrcRange: or(e.SizeRange)}, or(e.SizeRange)),
				nameItem("sha512", &hclsyntax.LiteralValueExpr{Val: cty.StringVal(e.SHA512), SrcRange: or(e.SHA512Range)}, or(e.SHA512Range)),
			},
			SrcRange:  entry,
			OpenRange: entry,
		}
		label := or(e.LabelRange)
		items = append(items, hclsyntax.ObjectConsItem{
			KeyExpr: &hclsyntax.ObjectConsKeyExpr{Wrapped: &hclsyntax.TemplateExpr{
				Parts:    []hclsyntax.Expression{&hclsyntax.LiteralValueExpr{Val: cty.StringVal(e.URL), SrcRange: label}},
				SrcRange: label,
			}},
			ValueExpr: value,
		})
	}
	lock := &hclsyntax.ObjectConsExpr{Items: items, SrcRange: whole, OpenRange: whole}
	return &hclsyntax.Body{
		Blocks: hclsyntax.Blocks{{
			Type:   "config",
			Labels: []string{"environment"},
			Body: &hclsyntax.Body{
				Attributes: hclsyntax.Attributes{"assetLock": {
					Name: "assetLock", Expr: lock, SrcRange: whole, NameRange: whole, EqualsRange: whole,
				}},
				SrcRange: whole,
				EndRange: whole,
			},
			TypeRange:       whole,
			LabelRanges:     []hcl.Range{whole},
			OpenBraceRange:  whole,
			CloseBraceRange: whole,
		}},
		SrcRange: whole,
		EndRange: whole,
	}
}

// nameItem is the item `name = value` of an object constructor, as the
// parser makes it.
func nameItem(name string, value hclsyntax.Expression, rng hcl.Range) hclsyntax.ObjectConsItem {
	return hclsyntax.ObjectConsItem{
		KeyExpr: &hclsyntax.ObjectConsKeyExpr{Wrapped: &hclsyntax.ScopeTraversalExpr{
			Traversal: hcl.Traversal{hcl.TraverseRoot{Name: name, SrcRange: rng}},
			SrcRange:  rng,
		}},
		ValueExpr: value,
	}
}
