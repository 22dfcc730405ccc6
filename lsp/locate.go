package lsp

import (
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/options"
)

// siteKind is what the cursor is on.
type siteKind int

const (
	siteNone siteKind = iota
	// siteKey: a config block's label, an attribute name or an object
	// key in a config block, a config.PATH reference: an option path
	// (or part of one) as written.
	siteKey
	// siteValue: inside the value of an option (a literal, or where one
	// is typed), not on a key.
	siteValue
	// siteDecl: the label of an option declaration.
	siteDecl
	// siteSubDecl: the label of an option declaration in a submodule,
	// the declaration that starts at declAt.
	siteSubDecl
)

// site is what the cursor is on in a module, as an option path.
type site struct {
	kind siteKind
	// path is the option path up to and including the segment under the
	// cursor (for hover, definition, references); for siteValue, the
	// option whose value the cursor is in.
	path options.Path
	// prefix is the path before the segment being typed, and word that
	// segment's text up to the cursor, from wordStart (a byte offset):
	// what completion completes, with the options below prefix.
	prefix    options.Path
	word      string
	wordStart int
	// wordEnd, when after the cursor, is where what completion replaces
	// ends: the end of a literal value the cursor is in.
	wordEnd int
	// inExpr is true when the cursor is inside an expression, where
	// function names complete too.
	inExpr bool
	// label is true inside a quoted label, where a segment is written
	// as it is.
	label bool
	// declAt is where the declaration of a siteSubDecl starts (a byte
	// offset).
	declAt int
}

// locate tells what the cursor at byte off of a module's source is on.
// It works on what parses of a module being typed: a block whose body
// does not parse still has its label and its range.
func locate(body *hclsyntax.Body, src []byte, off int) site {
	if s, ok := referenceBefore(src, off); ok {
		return s
	}
	return locateBody(body, src, off, nil, false)
}

// referenceBefore is the site of a config.PATH reference being typed
// (config.networking., config.networking.ho), which does not parse yet;
// it reads the text before the cursor: identifiers joined by dots.
func referenceBefore(src []byte, off int) (site, bool) {
	word, start := wordBefore(src, off)
	var segs []string
	at := start
	for at > 0 && src[at-1] == '.' {
		seg, s := wordBefore(src, at-1)
		if seg == "" {
			return site{}, false
		}
		segs = append([]string{seg}, segs...)
		at = s
	}
	if len(segs) == 0 || segs[0] != "config" || at > 0 && (src[at-1] == '"' || src[at-1] == '.') {
		return site{}, false
	}
	prefix := options.Path(segs[1:])
	st := site{kind: siteKey, prefix: prefix, word: word, wordStart: start, inExpr: true, path: prefix}
	if off < len(src) && isIdentByte(src[off]) || word != "" {
		// On a whole segment (the rest of it after the cursor too).
		end := off
		for end < len(src) && isIdentByte(src[end]) {
			end++
		}
		st.path = prefix.Child(string(src[start:end]))
	}
	return st, true
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// in tells whether off is inside r, its end included (where the cursor is
// after typing the last character).
func in(r hcl.Range, off int) bool { return r.Start.Byte <= off && off <= r.End.Byte }

func locateBody(body *hclsyntax.Body, src []byte, off int, optPrefix options.Path, inSub bool) site {
	for _, b := range body.Blocks {
		if !in(b.Range(), off) {
			continue
		}
		switch b.Type {
		case "config":
			var prefix options.Path
			if len(b.Labels) > 0 {
				if in(b.LabelRanges[0], off) {
					return labelSite(b.Labels[0], b.LabelRanges[0], src, off, nil, siteKey)
				}
				p, err := options.ParsePath(b.Labels[0])
				if err != nil {
					return site{}
				}
				prefix = p
			}
			if in(b.OpenBraceRange, off) && off == b.OpenBraceRange.Start.Byte {
				return site{}
			}
			return locateConfigBody(b.Body, src, off, prefix)
		case "options", "option":
			if len(b.Labels) == 0 {
				return locateExprs(b.Body, src, off)
			}
			if inSub {
				// A submodule's option has no path of its own: it is
				// found by its block (see siteSubDecl).
				if b.Type == "option" && in(b.LabelRanges[0], off) {
					return site{kind: siteSubDecl, declAt: b.DefRange().Start.Byte}
				}
				if b.Type == "options" {
					return locateBody(b.Body, src, off, nil, true)
				}
				return locateExprs(b.Body, src, off)
			}
			if in(b.LabelRanges[0], off) {
				s := labelSite(b.Labels[0], b.LabelRanges[0], src, off, optPrefix, siteDecl)
				if b.Type == "options" {
					s.kind = siteKey
				}
				return s
			}
			if b.Type == "options" {
				p, err := options.ParsePathAfter(optPrefix, b.Labels[0])
				if err != nil {
					return site{}
				}
				return locateBody(b.Body, src, off, p, inSub)
			}
			return locateExprs(b.Body, src, off)
		case "submodule":
			return locateBody(b.Body, src, off, nil, true)
		case "run", "machine", "configuration":
			return locateBody(b.Body, src, off, nil, inSub)
		default:
			return locateExprs(b.Body, src, off)
		}
	}
	return locateExprs(body, src, off)
}

// labelSite is the site of the cursor in a quoted path label: the
// segments before it, and the one it is in.
func labelSite(label string, r hcl.Range, src []byte, off int, prefix options.Path, kind siteKind) site {
	// The label's text from after its opening quote to the cursor.
	start := r.Start.Byte + 1
	if off < start {
		return site{}
	}
	typed := string(src[start:min(off, r.End.Byte)])
	typed = strings.TrimSuffix(typed, `"`)
	cut := strings.LastIndexByte(typed, '.')
	before, word := "", typed
	if cut >= 0 {
		before, word = typed[:cut], typed[cut+1:]
	}
	s := site{kind: kind, word: word, wordStart: start + cut + 1, label: true}
	s.prefix = append(options.Path{}, prefix...)
	if before != "" {
		p, err := options.ParsePath(before)
		if err != nil {
			return site{}
		}
		s.prefix = append(s.prefix, p...)
	}
	// The whole segment under the cursor, for hover: up to the next dot.
	full := label
	if rest := strings.IndexByte(full[min(len(typed), len(full)):], '.'); rest >= 0 {
		full = full[:len(typed)+rest]
	}
	if p, err := options.ParsePathAfter(prefix, full); err == nil {
		s.path = p
	}
	return s
}

// locateConfigBody locates the cursor in the body of a config block whose
// definitions are below prefix.
func locateConfigBody(body *hclsyntax.Body, src []byte, off int, prefix options.Path) site {
	for _, a := range body.Attributes {
		if !in(a.SrcRange, off) {
			continue
		}
		if in(a.NameRange, off) {
			return keySite(prefix, a.Name, a.NameRange, off)
		}
		if a.Name == "when" {
			return locateExpr(a.Expr, src, off)
		}
		return locateValue(a.Expr, src, off, prefix.Child(a.Name))
	}
	for _, b := range body.Blocks {
		if in(b.Range(), off) {
			return locateExprs(b.Body, src, off)
		}
	}
	// Between definitions: a name being typed (which does not parse yet).
	w, start := wordBefore(src, off)
	return site{kind: siteKey, prefix: prefix, word: w, wordStart: start, path: prefix.Child(w)}
}

// keySite is the cursor on an attribute name or object key at prefix.
func keySite(prefix options.Path, name string, r hcl.Range, off int) site {
	word := name[:min(len(name), max(0, off-r.Start.Byte))]
	return site{kind: siteKey, prefix: prefix, word: word, wordStart: r.Start.Byte, path: prefix.Child(name)}
}

// locateValue locates the cursor in the value of the option (or
// namespace) at p: object keys extend the path, mk* functions pass their
// value on, anything else is an expression.
func locateValue(e hclsyntax.Expression, src []byte, off int, p options.Path) site {
	switch x := e.(type) {
	case *hclsyntax.ObjectConsExpr:
		for _, it := range x.Items {
			kr := it.KeyExpr.Range()
			if in(kr, off) {
				if name, ok := objectKey(it.KeyExpr); ok {
					return keySite(p, name, kr, off)
				}
				return locateExpr(it.KeyExpr, src, off)
			}
			if in(it.ValueExpr.Range(), off) {
				if name, ok := objectKey(it.KeyExpr); ok {
					return locateValue(it.ValueExpr, src, off, p.Child(name))
				}
				return locateExpr(it.ValueExpr, src, off)
			}
		}
		w, start := wordBefore(src, off)
		return site{kind: siteKey, prefix: p, word: w, wordStart: start, path: p.Child(w)}
	case *hclsyntax.FunctionCallExpr:
		if !strings.HasPrefix(x.Name, "mk") {
			break
		}
		for i, a := range x.Args {
			if !in(a.Range(), off) {
				continue
			}
			// The condition of mkIf and the priority of mkOverride
			// are expressions; the last argument is the value.
			if i < len(x.Args)-1 && (x.Name == "mkIf" || x.Name == "mkOverride" || x.Name == "mkOrder") {
				return locateExpr(a, src, off)
			}
			return locateValue(a, src, off, p)
		}
	case *hclsyntax.TupleConsExpr:
		for _, el := range x.Exprs {
			if in(el.Range(), off) {
				if _, isObj := el.(*hclsyntax.ObjectConsExpr); isObj {
					return locateExpr(el, src, off)
				}
				return locateValue(el, src, off, p)
			}
		}
	case *hclsyntax.ParenthesesExpr:
		return locateValue(x.Expression, src, off, p)
	}
	s := locateExpr(e, src, off)
	if s.kind == siteNone {
		s = site{kind: siteValue, path: p, inExpr: true}
		s.word, s.wordStart = wordBefore(src, off)
		switch e.(type) {
		case *hclsyntax.TemplateExpr, *hclsyntax.LiteralValueExpr:
			// A value being replaced by another: the whole literal.
			s.wordStart, s.wordEnd = e.Range().Start.Byte, e.Range().End.Byte
			s.inExpr = false
		}
	}
	return s
}

// objectKey is the name an object key writes: an identifier or a quoted
// string without templates.
func objectKey(e hclsyntax.Expression) (string, bool) {
	if k, ok := e.(*hclsyntax.ObjectConsKeyExpr); ok {
		e = k.Wrapped
	}
	switch x := e.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		if len(x.Traversal) == 1 {
			return x.Traversal.RootName(), true
		}
	case *hclsyntax.TemplateExpr:
		if len(x.Parts) == 1 {
			if l, ok := x.Parts[0].(*hclsyntax.LiteralValueExpr); ok && l.Val.Type().FriendlyName() == "string" {
				return l.Val.AsString(), true
			}
		}
	}
	return "", false
}

// locateExprs locates the cursor in the attributes of a body that are
// expressions (not definitions).
func locateExprs(body *hclsyntax.Body, src []byte, off int) site {
	for _, a := range body.Attributes {
		if in(a.Expr.Range(), off) {
			return locateExpr(a.Expr, src, off)
		}
	}
	for _, b := range body.Blocks {
		if in(b.Range(), off) {
			return locateExprs(b.Body, src, off)
		}
	}
	return site{}
}

// locateExpr finds a config.PATH reference under the cursor in an
// expression; elsewhere in it the site is an expression (where functions
// complete).
func locateExpr(e hclsyntax.Expression, src []byte, off int) site {
	for _, t := range e.Variables() {
		r := t.SourceRange()
		if !in(r, off) || t.RootName() != "config" {
			continue
		}
		var segs options.Path
		for _, step := range t[1:] {
			var name string
			var sr hcl.Range
			switch s := step.(type) {
			case hcl.TraverseAttr:
				name, sr = s.Name, s.SrcRange
			case hcl.TraverseIndex:
				if s.Key.Type().FriendlyName() != "string" {
					return site{inExpr: true}
				}
				name, sr = s.Key.AsString(), s.SrcRange
			default:
				return site{inExpr: true}
			}
			if in(sr, off) {
				// The step's range starts at its dot.
				start := sr.Start.Byte
				if start < len(src) && src[start] == '.' {
					start++
				}
				word := name[:min(len(name), max(0, off-start))]
				return site{kind: siteKey, prefix: segs, word: word, wordStart: start, path: segs.Child(name), inExpr: true}
			}
			segs = segs.Child(name)
		}
		if off == r.End.Byte && off < len(src)+1 && off > 0 && src[off-1] == '.' {
			return site{kind: siteKey, prefix: segs, wordStart: off, path: segs, inExpr: true}
		}
		return site{kind: siteKey, prefix: segs[:max(0, len(segs)-1)], path: segs, inExpr: true}
	}
	w, start := wordBefore(src, off)
	return site{inExpr: true, word: w, wordStart: start}
}

// wordBefore is the identifier that ends at off, and where it starts.
func wordBefore(src []byte, off int) (string, int) {
	off = min(off, len(src))
	start := off
	for start > 0 && isIdentByte(src[start-1]) {
		start--
	}
	return string(src[start:off]), start
}
