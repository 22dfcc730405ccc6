package hclfmt

import (
	"bytes"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"

	"github.com/nodegen/nodegen/internal/hcldiag"
	"github.com/nodegen/nodegen/internal/hclguard"
)

// Format returns the canonical form of an HCL file. A file with syntax
// errors is not formatted: Format returns the errors, with filename in
// their ranges.
//
// Format checks, lexes and formats with hcl's parser, hclsyntax, which
// hclwrite is built on and evaluation uses too. Its errors are rewritten
// by internal/hcldiag, as evaluation's are, so they read the same as
// evaluation's.
//
// The parser overflows the stack on input nested tens of thousands of
// levels deep, and takes time and memory that grow with the square of a
// heredoc's lines, so Format first checks the file as evaluation does
// (internal/hclguard): such input is the same located error, `nesting too
// deep` or `template too long`, as evaluation gives.
func Format(src []byte, filename string) ([]byte, hcl.Diagnostics) {
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	if diags := hclguard.Config(src, filename, hcl.InitialPos); diags.HasErrors() {
		return nil, diags
	}
	if _, diags := hcldiag.Parse(src, filename); diags.HasErrors() {
		return nil, diags
	}
	out := hclwrite.Format(src)
	return tidyLines(spaceForKeywords(out)), nil
}

// spaceForKeywords puts back the space between a for expression's `in`
// or `if` and a parenthesis that follows it: hclwrite takes `in (x)` for
// a call of a function named in and writes `in(x)`.
func spaceForKeywords(src []byte) []byte {
	toks, diags := hclsyntax.LexConfig(src, "", hcl.InitialPos)
	if diags.HasErrors() {
		return src
	}
	// forBracket[i] tells whether the i-th open bracket starts a for
	// expression.
	var forBracket []bool
	var at []int
	for i, t := range toks {
		switch t.Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack:
			isFor := false
			for _, n := range toks[i+1:] {
				if n.Type == hclsyntax.TokenNewline {
					continue
				}
				isFor = n.Type == hclsyntax.TokenIdent && string(n.Bytes) == "for"
				break
			}
			forBracket = append(forBracket, isFor)
		case hclsyntax.TokenOParen, hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			forBracket = append(forBracket, false)
		case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen, hclsyntax.TokenTemplateSeqEnd:
			if len(forBracket) > 0 {
				forBracket = forBracket[:len(forBracket)-1]
			}
		case hclsyntax.TokenIdent:
			if len(forBracket) == 0 || !forBracket[len(forBracket)-1] || i+1 >= len(toks) {
				continue
			}
			if k := string(t.Bytes); k != "in" && k != "if" {
				continue
			}
			if n := toks[i+1]; n.Type == hclsyntax.TokenOParen && n.Range.Start.Byte == t.Range.End.Byte {
				at = append(at, t.Range.End.Byte)
			}
		}
	}
	if len(at) == 0 {
		return src
	}
	out := make([]byte, 0, len(src)+len(at))
	prev := 0
	for _, b := range at {
		out = append(out, src[prev:b]...)
		out = append(out, ' ')
		prev = b
	}
	return append(out, src[prev:]...)
}

// tidyLines drops trailing white space, collapses runs of blank lines into
// one, and leaves no blank line at the start and one newline at the end,
// outside heredoc bodies. A line that starts with a closing bracket gets
// the indentation of the line with its opening bracket (hclwrite indents
// `] : {` of a multi-line for expression one level too deep).
func tidyLines(src []byte) []byte {
	protected, closers := scanLines(src)
	lines := strings.Split(string(src), "\n")
	indents := make([]string, len(lines)+1)
	out := make([]string, 0, len(lines))
	blank := true // no blank lines at the start
	for i, l := range lines {
		if protected[i+1] {
			out = append(out, l)
			blank = false
			continue
		}
		body := strings.TrimLeft(l, " \t")
		indents[i+1] = l[:len(l)-len(body)]
		if open, ok := closers[i+1]; ok && open < i+1 {
			indents[i+1] = indents[open]
		}
		l = strings.TrimRight(indents[i+1]+body, " \t")
		if l == "" {
			if blank {
				continue
			}
			blank = true
		} else {
			blank = false
		}
		out = append(out, l)
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	if len(out) == 0 {
		return nil
	}
	return []byte(strings.Join(out, "\n") + "\n")
}

// scanLines returns the lines (1-based) that are the body or the closing
// marker of a heredoc, and for each line that starts with a closing
// bracket the line of its opening bracket.
func scanLines(src []byte) (heredoc map[int]bool, closers map[int]int) {
	lines := map[int]bool{}
	closers = map[int]int{}
	toks, _ := hclsyntax.LexConfig(src, "", hcl.InitialPos)
	var stack []int
	open := 0
	lineStart := true
	for _, t := range toks {
		first := lineStart
		lineStart = t.Type == hclsyntax.TokenNewline || bytes.HasSuffix(t.Bytes, []byte("\n"))
		switch t.Type {
		case hclsyntax.TokenOBrace, hclsyntax.TokenOBrack, hclsyntax.TokenOParen, hclsyntax.TokenTemplateInterp, hclsyntax.TokenTemplateControl:
			stack = append(stack, t.Range.Start.Line)
		case hclsyntax.TokenCBrace, hclsyntax.TokenCBrack, hclsyntax.TokenCParen, hclsyntax.TokenTemplateSeqEnd:
			if len(stack) > 0 {
				if first && open == 0 {
					closers[t.Range.Start.Line] = stack[len(stack)-1]
				}
				stack = stack[:len(stack)-1]
			}
		}
		switch t.Type {
		case hclsyntax.TokenOHeredoc:
			open = t.Range.End.Line
			if t.Range.End.Column > 1 {
				open++ // the token ends with its newline
			}
		case hclsyntax.TokenCHeredoc:
			if open > 0 {
				for l := open; l <= t.Range.Start.Line; l++ {
					lines[l] = true
				}
			}
			open = 0
		}
	}
	return lines, closers
}
