package hclsyntax

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// nodegen: this file is nodegen's, not upstream's (see README.md).

// MaxNestingDepth is how deeply one file may nest blocks, expressions
// (parentheses, lists, objects, function calls, conditionals, for
// expressions, unary operators, splats, index keys), template
// interpolations and template directives. Upstream has no limit: the parser
// recurses once or more per level, and some 64,000 levels overflowed the Go
// stack, a fatal error rather than a diagnostic. Real configuration nests a
// few levels (nodegen's module library at most 15, its fixtures 7).
const MaxNestingDepth = 1000

// nestingTooDeep is the Summary of the diagnostic about MaxNestingDepth.
const nestingTooDeep = "nesting too deep"

// NestingTooDeep is the Extra of the diagnostic about MaxNestingDepth, by
// which its readers know it (hcl.DiagnosticExtra), not by its wording.
type NestingTooDeep struct{}

// enter counts one more level of nesting, starting at the next token. Past
// MaxNestingDepth it reports the error, moves the peeker to the end of the
// input (so that every enclosing level finishes at once) and returns false;
// otherwise the caller must call leave when the level ends.
func (p *parser) enter() bool {
	if p.depth >= MaxNestingDepth {
		p.tooDeep(p.NextRange())
		return false
	}
	p.depth++
	return true
}

// leave ends n levels that enter began.
func (p *parser) leave(n int) { p.depth -= n }

// tooDeep reports that the nesting at rng passes MaxNestingDepth, once, and
// skips the rest of the input.
func (p *parser) tooDeep(rng hcl.Range) {
	if p.depthDiag == nil {
		p.depthDiag = &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  nestingTooDeep,
			Detail: fmt.Sprintf("Blocks, expressions and templates nest more than %d levels deep here; "+
				"nodegen refuses deeper nesting, which no real configuration needs.", MaxNestingDepth),
			Subject: rng.Ptr(),
			Extra:   NestingTooDeep{},
		}
	}
	p.recovery = true
	p.NextIndex = len(p.Tokens) - 1 // the EOF token
}

// tooDeepExpr is what a level that enter refused parses to: a placeholder
// and the error.
func (p *parser) tooDeepExpr() (Expression, hcl.Diagnostics) {
	diags := hcl.Diagnostics{p.depthDiag}
	return &ExprSyntaxError{Placeholder: cty.DynamicVal, ParseDiags: diags, SrcRange: *p.depthDiag.Subject}, diags
}

// withDepthError returns diags as they are, or, when the nesting was too
// deep, the lexer's diagnostics and the one about the nesting: the parse
// errors that skipping the rest of the input causes would only repeat it.
func (p *parser) withDepthError(lexDiags, diags hcl.Diagnostics) hcl.Diagnostics {
	if p.depthDiag == nil {
		return diags
	}
	return append(lexDiags[:len(lexDiags):len(lexDiags)], p.depthDiag)
}

// enter counts one more level of template directive nesting (if, for) in
// the parser the template is part of; see parser.enter. When it refuses,
// it also skips the rest of the template.
func (p *templateParser) enter(rng hcl.Range) bool {
	if p.outer.depth >= MaxNestingDepth {
		p.outer.tooDeep(rng)
		p.pos = len(p.Tokens) - 1 // the end token
		return false
	}
	p.outer.depth++
	return true
}
