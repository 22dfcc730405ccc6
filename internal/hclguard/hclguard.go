// Package hclguard refuses, before hcl's parser (hclsyntax) sees them, the
// inputs that the parser cannot handle in bounded stack, time and memory:
// nesting deeper than MaxNestingDepth, and templates whose runs of text the
// parser joins in time and memory that grow with their square. It works on
// the token stream of hcl's own scanner (hclsyntax.LexConfig and its
// siblings), so it sees the file exactly as the parser will, and returns
// one located error for the first place past a limit.
//
// Upstream's parser recurses once or more for each level of nesting
// (hashicorp/hcl#809), and some 64,000 levels overflow the Go stack: a
// fatal error that ends the process, not a panic that could be recovered.
// Levels are counted here for what the parser and every walk of its tree
// recurse through: blocks, brackets, parentheses, calls, template
// interpolations (`${`) and directives (`%{ if }`, `%{ for }`), and, within
// one of those, the operators, conditionals and traversal steps of a chain
// (`!!!!x`, `- - - x`, `a ? b : c ? d : e`, `1 + 1 + 1`, `a.b[c][d]`),
// which nest the tree as deeply without a bracket. Real configuration nests
// a few levels (nodegen's module library at most 15).
//
// Upstream's parser joins each run of consecutive literal tokens of a
// template (one token a line of a heredoc, one for each `$${` or `%%{`
// escape of a quoted string) pairwise: joining n lines copies their text
// some n/2 times, and removing each joined token shifts the rest of the
// template. A heredoc of 40,000 lines allocated 77 GB. The limits here are
// MaxTemplateLiterals tokens in one run, and MaxTemplateWork bytes of that
// copying in one file.
package hclguard

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// MaxNestingDepth is how deeply one file may nest, counted as the package
// says.
const MaxNestingDepth = 1000

// MaxTemplateLiterals is how many literal tokens may follow each other in
// one template: lines of a heredoc, or pieces of a quoted string split by
// escapes such as `$${`. nodegen's module library has at most 18.
const MaxTemplateLiterals = 2000

// MaxTemplateWork is how much work the parser may do in one file to join
// the runs of literal tokens of its templates, as the package says: the
// bytes it copies, and shiftCost for each part of a template it shifts.
// A heredoc of MaxTemplateLiterals lines of 64 bytes is about that much,
// which upstream's parser takes some 330 ms and 128 MB for (BENCHMARKS.md).
const MaxTemplateWork = 128 << 20

// shiftCost is what MaxTemplateWork counts for a part of a template that
// the parser shifts (a 16-byte interface value moved, no allocation): a
// quarter of what copying its bytes as text costs, allocation included,
// as measured.
const shiftCost = 4

// NestingTooDeep is the Extra of the error about MaxNestingDepth, by which
// its readers know it (hcl.DiagnosticExtra), not by its wording.
type NestingTooDeep struct{}

// TemplateTooLong is the Extra of the error about MaxTemplateLiterals and
// MaxTemplateWork.
type TemplateTooLong struct{}

// Config checks an HCL configuration file, as hclsyntax.ParseConfig would
// read it.
func Config(src []byte, filename string, start hcl.Pos) hcl.Diagnostics {
	if withinLimits(src) {
		return nil
	}
	toks, _ := hclsyntax.LexConfig(src, filename, start)
	return check(toks, frameBody)
}

// Expression checks an expression, as hclsyntax.ParseExpression would read
// it.
func Expression(src []byte, filename string, start hcl.Pos) hcl.Diagnostics {
	if withinLimits(src) {
		return nil
	}
	toks, _ := hclsyntax.LexExpression(src, filename, start)
	return check(toks, frameParen)
}

// Template checks a template, as hclsyntax.ParseTemplate would read it.
func Template(src []byte, filename string, start hcl.Pos) hcl.Diagnostics {
	if withinLimits(src) {
		return nil
	}
	toks, _ := hclsyntax.LexTemplate(src, filename, start)
	return check(toks, frameTemplate)
}

// withinLimits reports whether src is too small to pass a limit, counted
// on its bytes, which is cheaper than lexing it (the lexer counts the
// columns of every token by grapheme clusters, as much work again as the
// rest of parsing). It is a bound, never wrong when it says yes:
//
//   - Each level of nesting is counted at a token with one of the bytes
//     { ( $ % . ? ! + - * / < > & | or "==" in it, and an index's [ is two
//     levels (a step and a bracket), so there are no more levels than
//     such bytes.
//   - The lexer ends a literal token at a newline (\n or \r) and at each
//     $ and % (which may be one of its own), so a run has no more tokens
//     than one more than those, counting $ and % twice; and joining the
//     runs copies at most the file's bytes for each token, and shifts at
//     most as many parts.
func withinLimits(src []byte) bool {
	levels, pieces := 0, 1
	for i, b := range src {
		switch b {
		case '{', '(', '.', '?', '!', '+', '-', '*', '/', '<', '>', '&', '|':
			levels++
		case '[':
			levels += 2
		case '$', '%':
			levels++
			pieces += 2
		case '\n', '\r':
			pieces++
		case '=':
			if i > 0 && src[i-1] == '=' {
				levels++
			}
		}
	}
	return levels <= MaxNestingDepth && pieces <= MaxTemplateLiterals &&
		int64(pieces)*int64(len(src))*(1+shiftCost) <= MaxTemplateWork
}

// frameKind is what opened a frame of the checker's stack.
type frameKind uint8

const (
	// frameBody is a brace (a block body or an object) or the top of a
	// configuration file: newlines end its items.
	frameBody frameKind = iota
	// frameBrack is a bracket: a list, an index key, a for expression.
	frameBrack
	// frameParen is a parenthesis, a call's arguments, an interpolation
	// `${`, or the top of an expression: newlines are ignored in it.
	frameParen
	// frameControl is the inside of a directive's `%{ ... }`.
	frameControl
	// frameDirective is the text between `%{ if }` or `%{ for }` and its
	// end.
	frameDirective
	// frameTemplate is a quoted string, a heredoc, or the top of a
	// template.
	frameTemplate
)

// A frame is one open bracket, directive or template.
type frame struct {
	kind frameKind
	// chain counts the operators and traversal steps of the item being
	// read in the frame, each a level of nesting.
	chain int
	// directive is, for frameControl, the directive keyword after `%{`.
	directive string
	// tmpl is the frame of the template whose text the frame's tokens are
	// part of: the frame itself, for frameTemplate, that of the frame
	// below for frameDirective, -1 otherwise.
	tmpl int
	// The template's parts so far, literal or not; the run of literal
	// tokens being read, their bytes, and the work to join them.
	parts, run, runBytes int
	melds, meldIndexes   int
	copied               int64
	open                 hcl.Range
}

// checker is the state of one check.
type checker struct {
	stack []frame
	// depth is the levels of the frames, and the chains of each.
	depth int
	// work is MaxTemplateWork's count of the templates that ended.
	work int64
	diag *hcl.Diagnostic
}

// levels is how many levels of nesting a frame of kind k is.
func levels(k frameKind) int {
	if k == frameTemplate {
		return 0
	}
	return 1
}

func check(toks hclsyntax.Tokens, top frameKind) hcl.Diagnostics {
	c := &checker{stack: make([]frame, 0, 16)}
	c.stack = append(c.stack, frame{kind: top, tmpl: -1})
	if top == frameTemplate {
		c.stack[0].tmpl = 0
	}
	for i := range toks {
		if c.token(toks, i) {
			break
		}
	}
	if c.diag == nil {
		for len(c.stack) > 0 && c.diag == nil {
			c.pop()
		}
	}
	if c.diag != nil {
		return hcl.Diagnostics{c.diag}
	}
	return nil
}

// token reads the i-th token, true when it is past a limit.
func (c *checker) token(toks hclsyntax.Tokens, i int) bool {
	t := &toks[i]
	top := &c.stack[len(c.stack)-1]
	if top.tmpl >= 0 {
		tm := &c.stack[top.tmpl]
		if t.Type == hclsyntax.TokenQuotedLit || t.Type == hclsyntax.TokenStringLit {
			if tm.run > 0 {
				// The parser appends this token's text to the run's, a
				// new string, and removes it from the template's parts.
				tm.runBytes += len(t.Bytes)
				tm.copied += int64(tm.runBytes)
				tm.melds++
				tm.meldIndexes += tm.parts
			} else {
				tm.runBytes = len(t.Bytes)
			}
			tm.run++
			tm.parts++
			if tm.run > MaxTemplateLiterals {
				c.templateTooLong(lineRange(t), fmt.Sprintf("This template has more than %d lines or pieces of text in a row (a piece ends at an escape such as $${)", MaxTemplateLiterals))
				return true
			}
			return false
		}
		tm.run = 0
		if t.Type == hclsyntax.TokenTemplateInterp || t.Type == hclsyntax.TokenTemplateControl {
			tm.parts++
		}
	}
	switch t.Type {
	case hclsyntax.TokenOBrace:
		return c.push(frameBody, t.Range)
	case hclsyntax.TokenOBrack:
		if i > 0 && isOperandEnd(prevSignificant(toks, i)) && c.chain(t.Range) { // an index
			return true
		}
		return c.push(frameBrack, t.Range)
	case hclsyntax.TokenOParen, hclsyntax.TokenTemplateInterp:
		return c.push(frameParen, t.Range)
	case hclsyntax.TokenTemplateControl:
		if c.push(frameControl, t.Range) {
			return true
		}
		if i+1 < len(toks) && toks[i+1].Type == hclsyntax.TokenIdent {
			c.stack[len(c.stack)-1].directive = string(toks[i+1].Bytes)
		}
	case hclsyntax.TokenOQuote, hclsyntax.TokenOHeredoc:
		if c.push(frameTemplate, t.Range) {
			return true
		}
		c.stack[len(c.stack)-1].tmpl = len(c.stack) - 1
	case hclsyntax.TokenCBrace:
		return c.close(frameBody)
	case hclsyntax.TokenCBrack:
		return c.close(frameBrack)
	case hclsyntax.TokenCParen:
		return c.close(frameParen)
	case hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc:
		return c.close(frameTemplate)
	case hclsyntax.TokenTemplateSeqEnd:
		if top.kind == frameParen {
			return c.close(frameParen)
		}
		if top.kind != frameControl {
			return false
		}
		directive := top.directive
		if c.pop() {
			return true
		}
		switch directive {
		case "if", "for":
			if c.push(frameDirective, t.Range) {
				return true
			}
			c.stack[len(c.stack)-1].tmpl = c.stack[len(c.stack)-2].tmpl
		case "endif", "endfor":
			return c.close(frameDirective)
		}
	case hclsyntax.TokenDot, hclsyntax.TokenQuestion, hclsyntax.TokenBang,
		hclsyntax.TokenPlus, hclsyntax.TokenMinus, hclsyntax.TokenStar, hclsyntax.TokenSlash, hclsyntax.TokenPercent,
		hclsyntax.TokenEqualOp, hclsyntax.TokenNotEqual, hclsyntax.TokenLessThan, hclsyntax.TokenLessThanEq,
		hclsyntax.TokenGreaterThan, hclsyntax.TokenGreaterThanEq, hclsyntax.TokenAnd, hclsyntax.TokenOr:
		return c.chain(t.Range)
	case hclsyntax.TokenComma, hclsyntax.TokenEqual, hclsyntax.TokenFatArrow:
		c.endItem()
	case hclsyntax.TokenNewline:
		if top.kind == frameBody {
			c.endItem()
		}
	}
	return false
}

// prevSignificant is the type of the token before the i-th that is not a
// comment, TokenNil if none.
func prevSignificant(toks hclsyntax.Tokens, i int) hclsyntax.TokenType {
	for j := i - 1; j >= 0; j-- {
		if toks[j].Type != hclsyntax.TokenComment {
			return toks[j].Type
		}
	}
	return hclsyntax.TokenNil
}

// isOperandEnd reports whether a bracket after a token of type t is an
// index rather than a list.
func isOperandEnd(t hclsyntax.TokenType) bool {
	switch t {
	case hclsyntax.TokenIdent, hclsyntax.TokenCParen, hclsyntax.TokenCBrack, hclsyntax.TokenCBrace,
		hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc, hclsyntax.TokenStar, hclsyntax.TokenNumberLit:
		return true
	}
	return false
}

// push opens a frame at rng, true when it is past MaxNestingDepth.
func (c *checker) push(k frameKind, rng hcl.Range) bool {
	c.depth += levels(k)
	if c.depth > MaxNestingDepth {
		c.tooDeep(rng)
		return true
	}
	c.stack = append(c.stack, frame{kind: k, tmpl: -1, open: rng})
	return false
}

// close ends the innermost frame when it is of kind k; a closing token
// that matches no frame is the parser's error to report.
func (c *checker) close(k frameKind) bool {
	if len(c.stack) > 1 && c.stack[len(c.stack)-1].kind == k {
		return c.pop()
	}
	return false
}

// pop ends the innermost frame, true when the template it ends takes the
// file past MaxTemplateWork.
func (c *checker) pop() bool {
	f := &c.stack[len(c.stack)-1]
	c.depth -= levels(f.kind) + f.chain
	c.stack = c.stack[:len(c.stack)-1]
	if f.kind != frameTemplate {
		return false
	}
	// Joining a token shifts the parts after it.
	c.work += f.copied + shiftCost*int64(f.melds*(f.parts-1)-f.meldIndexes)
	if c.work > MaxTemplateWork {
		c.templateTooLong(f.open, fmt.Sprintf("Joining the lines of text of this template, and of those before it in the file, "+
			"takes the parser more than %d MiB of copying", MaxTemplateWork>>20))
		return true
	}
	return false
}

// chain counts one more level of the item being read in the innermost
// frame, true when it is past MaxNestingDepth.
func (c *checker) chain(rng hcl.Range) bool {
	c.stack[len(c.stack)-1].chain++
	c.depth++
	if c.depth > MaxNestingDepth {
		c.tooDeep(rng)
		return true
	}
	return false
}

// endItem ends the chain of the innermost frame.
func (c *checker) endItem() {
	f := &c.stack[len(c.stack)-1]
	c.depth -= f.chain
	f.chain = 0
}

// lineRange is the range of a literal token without the newline it ends
// with (a heredoc's line), so that the error shows that one line.
func lineRange(t *hclsyntax.Token) hcl.Range {
	r := t.Range
	if n := len(t.Bytes); n > 0 && t.Bytes[n-1] == '\n' && r.End.Line > r.Start.Line {
		text := bytes.TrimSuffix(t.Bytes[:n-1], []byte("\r"))
		r.End = hcl.Pos{Line: r.Start.Line, Column: r.Start.Column + utf8.RuneCount(text), Byte: r.Start.Byte + len(text)}
	}
	return r
}

func (c *checker) tooDeep(rng hcl.Range) {
	c.diag = &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Nesting too deep",
		Detail: fmt.Sprintf("Blocks, expressions and templates nest more than %d levels deep here; "+
			"nodegen refuses deeper nesting, which no real configuration needs.", MaxNestingDepth),
		Subject: rng.Ptr(),
		Extra:   NestingTooDeep{},
	}
}

func (c *checker) templateTooLong(rng hcl.Range, what string) {
	c.diag = &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Template too long",
		Detail: what + "; nodegen refuses it, since the parser's work grows with the square of the lines. " +
			"Split the text into several templates joined with join(), or read it with file().",
		Subject: rng.Ptr(),
		Extra:   TemplateTooLong{},
	}
}
