// Package parsediag parses HCL module files with nodegen's copy of
// hclsyntax (internal/hclsyntax) and makes the parser's errors lead to the
// fix, as internal/hcldiag says. Every reader of nodegen files that
// evaluates them (evaluation, tests, the parse cache) parses through it;
// hclfmt, which evaluates nothing, parses with upstream's hclsyntax
// through hcldiag.Parse, so a file's mistakes read the same everywhere.
package parsediag

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/internal/hcldiag"
	"github.com/nodegen/nodegen/internal/hclsyntax"
)

// Parse parses an HCL configuration file as hclsyntax.ParseConfig does,
// with the errors rewritten as hcldiag.Rewrite does.
func Parse(src []byte, filename string) (*hcl.File, hcl.Diagnostics) {
	file, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if len(diags) == 0 {
		return file, diags
	}
	var body *hclsyntax.Body
	if file != nil {
		body, _ = file.Body.(*hclsyntax.Body)
	}
	if body == nil {
		return file, hcldiag.Rewrite(src, diags, nil)
	}
	return file, hcldiag.Rewrite(src, diags, func() []hcldiag.ConfigBlock {
		var blocks []hcldiag.ConfigBlock
		for _, b := range body.Blocks {
			if b.Type == "config" && len(b.Labels) == 1 {
				blocks = append(blocks, hcldiag.ConfigBlock{Label: b.Labels[0], Range: b.Range()})
			}
		}
		return blocks
	})
}
