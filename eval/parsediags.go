package eval

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/internal/hclsyntax"
	"github.com/nodegen/nodegen/options"
)

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
	var u *hcl.Diagnostic
	for _, d := range diags {
		if d.Summary == "Unterminated template string" && d.Context != nil {
			u = d
			break
		}
	}
	if u == nil {
		return diags
	}
	start := u.Context.Start
	one := &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unterminated string",
		Detail:   "This quoted string has no closing quote (\") on its line. A quoted string ends on the line where it starts: add the closing quote. For text over several lines, use a heredoc (<<EOT, the lines, then EOT alone on a line).",
		Subject:  &hcl.Range{Filename: u.Context.Filename, Start: start, End: lineEnd(src, start)},
	}
	if start.Byte > 0 && start.Byte <= len(src) && src[start.Byte-1] == '\n' {
		// A heredoc's text starts on the line after its opener.
		lineStart := bytes.LastIndexByte(src[:start.Byte-1], '\n') + 1
		line := src[lineStart : start.Byte-1]
		if m := heredocOpener.FindSubmatchIndex(line); m != nil {
			open := hcl.Pos{Line: start.Line - 1, Column: m[0] + 1, Byte: lineStart + m[0]}
			marker := string(line[m[2]:m[3]])
			one.Summary = "Unterminated heredoc"
			one.Detail = fmt.Sprintf("This heredoc has no closing line, so the rest of the file was read as its text. End it with a line holding only %s (spaces before it are allowed).", marker)
			one.Subject = &hcl.Range{Filename: u.Context.Filename, Start: open, End: hcl.Pos{Line: open.Line, Column: m[1] + 1, Byte: lineStart + m[1]}}
		}
	}
	out := hcl.Diagnostics{}
	for _, d := range diags {
		if d.Subject != nil && d.Subject.Filename == one.Subject.Filename && d.Subject.Start.Byte < one.Subject.Start.Byte && d.Summary != "Invalid multi-line string" {
			out = append(out, d)
		}
	}
	return append(out, one)
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
func explainQuotedNames(file *hcl.File, src []byte, diags hcl.Diagnostics) {
	body, ok := file.Body.(*hclsyntax.Body)
	if !ok {
		return
	}
	for _, d := range diags {
		if d.Summary != "Invalid argument name" || d.Subject == nil || d.Detail != "Argument names must not be quoted." {
			continue
		}
		var label string
		found := false
		for _, b := range body.Blocks {
			if b.Type == "config" && len(b.Labels) == 1 && b.Range().ContainsOffset(d.Subject.Start.Byte) {
				label, found = b.Labels[0], true
			}
		}
		p, err := options.ParsePath(label)
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
