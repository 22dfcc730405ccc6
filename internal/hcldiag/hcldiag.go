// Package hcldiag makes an HCL parser's errors lead to the fix: one error
// for an unterminated string or heredoc instead of one per line after it,
// and the forms that set a quoted name where a block body has one. It
// works on the diagnostics and the source, not on a parser's syntax tree,
// so that both readers of nodegen files give the same errors: Parse here,
// which hclfmt uses, and internal/parsediag, for evaluation and tests;
// both parse with hcl's hclsyntax.
package hcldiag

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/internal/optionpath"
)

// A ConfigBlock is a top-level config block with one label, as Rewrite
// needs it: the label (an option path) and the range of the whole block.
type ConfigBlock struct {
	Label string
	Range hcl.Range
}

// Parse parses an HCL configuration file with upstream's
// hclsyntax.ParseConfig, with the errors rewritten as Rewrite does.
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
		return file, Rewrite(src, diags, nil)
	}
	return file, Rewrite(src, diags, func() []ConfigBlock {
		var blocks []ConfigBlock
		for _, b := range body.Blocks {
			if b.Type == "config" && len(b.Labels) == 1 {
				blocks = append(blocks, ConfigBlock{Label: b.Labels[0], Range: b.Range()})
			}
		}
		return blocks
	})
}

// Rewrite returns the errors diags of parsing src, rewritten as the
// package says. configBlocks, called only when an error needs them, lists
// the file's config blocks; it is nil when the parser gave no file.
func Rewrite(src []byte, diags hcl.Diagnostics, configBlocks func() []ConfigBlock) hcl.Diagnostics {
	diags = oneUnterminatedString(src, diags)
	if configBlocks != nil && hasQuotedName(diags) {
		explainQuotedNames(src, diags, configBlocks())
	}
	return diags
}

// hasQuotedName reports whether diags hold the parser's error for a quoted
// argument name, which explainQuotedNames rewrites.
func hasQuotedName(diags hcl.Diagnostics) bool {
	for _, d := range diags {
		if d.Summary == "Invalid argument name" {
			return true
		}
	}
	return false
}

// heredocOpener matches the end of a line that opens a heredoc: <<EOT or
// <<-EOT.
var heredocOpener = regexp.MustCompile(`<<-?([A-Za-z_][A-Za-z0-9_-]*)[ \t]*\r?$`)

// oneUnterminatedString reduces the errors of a file with an unterminated
// quoted string or heredoc to one: the parser reads the rest of the file
// as the string's text and reports every line after it, so the errors
// from where the string starts on are its consequences. The one error
// points at where the string starts and says how to end it. diags are
// returned as they are when no string is unterminated.
func oneUnterminatedString(src []byte, diags hcl.Diagnostics) hcl.Diagnostics {
	var one *hcl.Diagnostic
	for _, d := range diags {
		if d.Summary == "Unterminated template string" && d.Context != nil {
			one = unterminatedHeredoc(src, d.Context.Filename, d.Context.Start)
			if one == nil {
				one = unterminatedString(src, d.Context.Filename, d.Context.Start)
			}
			break
		}
	}
	if one == nil {
		// Without that error (the parser stopped at an earlier one), the
		// first line that ends inside a string is where it starts.
		for _, d := range diags {
			if d.Summary == "Invalid multi-line string" && d.Subject != nil {
				one = unterminatedString(src, d.Subject.Filename, d.Subject.Start)
				break
			}
		}
	}
	if one == nil {
		return diags
	}
	out := hcl.Diagnostics{}
	for _, d := range diags {
		if d.Subject != nil && d.Subject.Filename == one.Subject.Filename && d.Subject.Start.Byte < one.Subject.Start.Byte && d.Summary != "Invalid multi-line string" {
			out = append(out, d)
		}
	}
	return append(out, one)
}

// unterminatedHeredoc is the error for a heredoc whose text starts at
// start, if the line before start opens one; else nil.
func unterminatedHeredoc(src []byte, filename string, start hcl.Pos) *hcl.Diagnostic {
	if start.Byte <= 0 || start.Byte > len(src) || src[start.Byte-1] != '\n' {
		return nil
	}
	lineStart := bytes.LastIndexByte(src[:start.Byte-1], '\n') + 1
	line := src[lineStart : start.Byte-1]
	m := heredocOpener.FindSubmatchIndex(line)
	if m == nil {
		return nil
	}
	open := hcl.Pos{Line: start.Line - 1, Column: utf8.RuneCount(line[:m[0]]) + 1, Byte: lineStart + m[0]}
	end := hcl.Pos{Line: open.Line, Column: open.Column + (m[1] - m[0]), Byte: lineStart + m[1]}
	if line[m[1]-1] == '\r' {
		end.Column--
		end.Byte--
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unterminated heredoc",
		Detail:   fmt.Sprintf("This heredoc has no closing line, so the rest of the file was read as its text. End it with a line holding only %s (spaces before it are allowed).", line[m[2]:m[3]]),
		Subject:  &hcl.Range{Filename: filename, Start: open, End: end},
	}
}

// unterminatedString is the error for a quoted string left open on the
// line of at: it points from the string's opening quote to the end of
// the line.
func unterminatedString(src []byte, filename string, at hcl.Pos) *hcl.Diagnostic {
	b := min(at.Byte, len(src))
	lineStart := bytes.LastIndexByte(src[:b], '\n') + 1
	open := lineStart
	for open < b && (src[open] == ' ' || src[open] == '\t') {
		open++
	}
	inString := false
	for i := lineStart; i < b; i++ {
		switch src[i] {
		case '\\':
			i++
		case '"':
			if !inString {
				open = i
			}
			inString = !inString
		}
	}
	start := hcl.Pos{Line: at.Line, Column: utf8.RuneCount(src[lineStart:open]) + 1, Byte: open}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unterminated string",
		Detail:   "This quoted string has no closing quote (\") on its line. A quoted string ends on the line where it starts: add the closing quote. For text over several lines, use a heredoc (<<EOT, the lines, then EOT alone on a line).",
		Subject:  &hcl.Range{Filename: filename, Start: start, End: lineEnd(src, start)},
	}
}

// lineEnd is the position of the end of the line that p is on.
func lineEnd(src []byte, p hcl.Pos) hcl.Pos {
	if p.Byte > len(src) {
		return p
	}
	n := bytes.IndexByte(src[p.Byte:], '\n')
	if n < 0 {
		n = len(src) - p.Byte
	}
	if n > 0 && src[p.Byte+n-1] == '\r' {
		n--
	}
	return hcl.Pos{Line: p.Line, Column: p.Column + n, Byte: p.Byte + n}
}

// explainQuotedNames rewrites the parser's "Argument names must not be
// quoted" in a config block: it shows the forms that set a key with dots,
// in an object constructor one level up or as a quoted label segment.
func explainQuotedNames(src []byte, diags hcl.Diagnostics, blocks []ConfigBlock) {
	for _, d := range diags {
		if d.Summary != "Invalid argument name" || d.Subject == nil || d.Detail != "Argument names must not be quoted." {
			continue
		}
		var label string
		found := false
		for _, b := range blocks {
			if b.Range.ContainsOffset(d.Subject.Start.Byte) {
				label, found = b.Label, true
			}
		}
		p, err := optionpath.Parse(label)
		if !found || err != nil || len(p) == 0 {
			d.Detail += " A name with dots or other characters is quoted in an object constructor ({ \"a.b\" = 1 }) or in a block label (config \"x.\\\"a.b\\\"\")."
			continue
		}
		end := lineEnd(src, d.Subject.Start)
		attr := string(bytes.TrimSpace(src[d.Subject.Start.Byte:end.Byte]))
		name := attr
		if i := strings.IndexByte(attr[min(1, len(attr)):], '"'); i >= 0 {
			name = attr[:i+2]
		}
		parent := "config"
		if len(p) > 1 {
			parent = fmt.Sprintf("config %q", p[:len(p)-1].String())
		}
		d.Detail = fmt.Sprintf("An attribute name in a block body is an identifier, not a quoted string. To set the key %s of %s, write it in an object constructor, one level up:\n\n  %s {\n    %s = { %s }\n  }\n\nor, when the key's value is a set of options (a submodule), name it in the block's label: config %q { ... }.",
			name, p.String(), parent, p[len(p)-1], attr, p.String()+"."+name)
	}
}
