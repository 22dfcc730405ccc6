// Package parsediag parses HCL module files with hcl's parser
// (github.com/hashicorp/hcl/v2/hclsyntax) and makes the parser's errors
// lead to the fix, as internal/hcldiag says. Every reader of nodegen files
// that evaluates them (evaluation, tests, the parse cache) parses through
// it; hclfmt, which evaluates nothing, parses through hcldiag.Parse, so a
// file's mistakes read the same everywhere.
//
// Before the parser sees a file, internal/hclguard refuses what the parser
// cannot handle in bounded stack and memory (nesting too deep, templates
// too long). After it, the text of a heredoc in a file with CRLF line
// endings gets "\n" line endings, as in the same file with LF endings
// (the parser keeps the "\r").
package parsediag

import (
	"bytes"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/internal/hcldiag"
	"github.com/nodegen/nodegen/internal/hclguard"
	"github.com/nodegen/nodegen/internal/runtimetune"
)

// Parse parses an HCL configuration file as hclsyntax.ParseConfig does,
// with the errors rewritten as hcldiag.Rewrite does. A file that hclguard
// refuses is its one error and an empty body.
func Parse(src []byte, filename string) (*hcl.File, hcl.Diagnostics) {
	runtimetune.SourceParsed(len(src))
	if diags := hclguard.Config(src, filename, hcl.InitialPos); len(diags) > 0 {
		start := hcl.Range{Filename: filename, Start: hcl.InitialPos, End: hcl.InitialPos}
		return &hcl.File{Body: &hclsyntax.Body{SrcRange: start, EndRange: start}, Bytes: src}, diags
	}
	file, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	var body *hclsyntax.Body
	if file != nil {
		body, _ = file.Body.(*hclsyntax.Body)
	}
	if body != nil && bytes.Contains(src, []byte("\r\n")) {
		heredocLineEndings(body, src)
	}
	if len(diags) == 0 {
		return file, diags
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

// heredocLineEndings replaces "\r\n" with "\n" in the text of the heredocs
// of body: the literal parts of templates whose source has a raw CRLF,
// which only a heredoc can (a quoted string cannot span lines, and its
// escapes `\r\n` are not raw).
func heredocLineEndings(body *hclsyntax.Body, src []byte) {
	hclsyntax.VisitAll(body, func(n hclsyntax.Node) hcl.Diagnostics {
		t, ok := n.(*hclsyntax.TemplateExpr)
		if !ok {
			return nil
		}
		for _, p := range t.Parts {
			lit, ok := p.(*hclsyntax.LiteralValueExpr)
			if !ok || lit.Val.Type() != cty.String || lit.Val.IsNull() {
				continue
			}
			r := lit.SrcRange
			if r.Start.Byte < 0 || r.End.Byte > len(src) || r.Start.Byte > r.End.Byte ||
				!bytes.Contains(src[r.Start.Byte:r.End.Byte], []byte("\r\n")) {
				continue
			}
			if s := lit.Val.AsString(); strings.Contains(s, "\r\n") {
				lit.Val = cty.StringVal(strings.ReplaceAll(s, "\r\n", "\n"))
			}
		}
		return nil
	})
}
