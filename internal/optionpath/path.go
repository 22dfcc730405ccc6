package optionpath

import (
	"fmt"
	"strings"
	"unicode"
)

// Path is the location of an option or of a value inside one, one segment
// per attribute name: services.kubernetes.kubelet.port is
// Path{"services", "kubernetes", "kubelet", "port"}.
//
// A Path is immutable by convention: methods that extend it return a copy,
// so that two paths built from one parent never share their backing array.
type Path []string

// Child returns a new path with seg appended. p itself is not modified.
func (p Path) Child(seg string) Path {
	c := make(Path, len(p)+1)
	copy(c, p)
	c[len(p)] = seg
	return c
}

// Join returns a new path made of p followed by rest.
func (p Path) Join(rest Path) Path {
	c := make(Path, 0, len(p)+len(rest))
	return append(append(c, p...), rest...)
}

// Equal reports whether p and o have the same segments.
func (p Path) Equal(o Path) bool {
	if len(p) != len(o) {
		return false
	}
	for i := range p {
		if p[i] != o[i] {
			return false
		}
	}
	return true
}

// HasPrefix reports whether prefix is p itself or one of its ancestors.
func (p Path) HasPrefix(prefix Path) bool {
	return len(prefix) <= len(p) && p[:len(prefix)].Equal(prefix)
}

// Key returns a string that identifies p, for use as a map key. Two paths
// have the same key exactly when they are Equal.
func (p Path) Key() string { return p.String() }

// String renders p in dotted form, quoting each segment that is not an HCL
// identifier: environment.etc."a/b.json".text. The empty path renders as
// the empty string. Parse reads the result back.
func (p Path) String() string {
	var b strings.Builder
	for i, seg := range p {
		if i > 0 {
			b.WriteByte('.')
		}
		if IsIdentifier(seg) {
			b.WriteString(seg)
		} else {
			quoteSegment(&b, seg)
		}
	}
	return b.String()
}

// IsIdentifier reports whether s can be written without quotes in a path:
// letters, digits, '_' and '-', not starting with a digit or '-'.
func IsIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case unicode.IsLetter(r) || r == '_':
		case i > 0 && (unicode.IsDigit(r) || r == '-'):
		default:
			return false
		}
	}
	return true
}

// quoteSegment writes seg in double quotes, escaping what Parse unescapes.
func quoteSegment(b *strings.Builder, seg string) {
	b.WriteByte('"')
	for _, r := range seg {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

// Parse reads a dotted path as String writes it. A segment is either
// written bare (any characters but '.' and '"'; it may not be empty) or in
// double quotes, where it may contain dots and the escapes \" \\ \n \r \t.
// The empty string is the empty path.
func Parse(s string) (Path, error) {
	if s == "" {
		return Path{}, nil
	}
	return ParseAfter(nil, s)
}

// ParseAfter is prefix followed by the segments Parse reads from
// s, in a new slice: one allocation where joining prefix and Parse's
// path would take two. An empty s gives a copy of prefix.
func ParseAfter(prefix Path, s string) (Path, error) {
	// As many segments as dots and one, in one allocation (a dot inside
	// quotes only leaves room unused).
	p := make(Path, len(prefix), len(prefix)+strings.Count(s, ".")+1)
	copy(p, prefix)
	if s == "" {
		return p, nil
	}
	i := 0
	for {
		var seg string
		if i < len(s) && s[i] == '"' {
			var b strings.Builder
			j := i + 1
			closed := false
			for j < len(s) {
				c := s[j]
				if c == '"' {
					closed = true
					j++
					break
				}
				if c == '\\' {
					if j+1 >= len(s) {
						break
					}
					switch s[j+1] {
					case '"', '\\':
						b.WriteByte(s[j+1])
					case 'n':
						b.WriteByte('\n')
					case 'r':
						b.WriteByte('\r')
					case 't':
						b.WriteByte('\t')
					default:
						return nil, fmt.Errorf("invalid path %q: unknown escape \\%c at offset %d", s, s[j+1], j)
					}
					j += 2
					continue
				}
				b.WriteByte(c)
				j++
			}
			if !closed {
				return nil, fmt.Errorf("invalid path %q: unterminated quoted segment at offset %d", s, i)
			}
			seg, i = b.String(), j
		} else {
			j := i
			for j < len(s) && s[j] != '.' && s[j] != '"' {
				j++
			}
			if j < len(s) && s[j] == '"' {
				return nil, fmt.Errorf("invalid path %q: a quote may only start a segment (offset %d)", s, j)
			}
			if j == i {
				return nil, fmt.Errorf("invalid path %q: empty segment at offset %d", s, i)
			}
			seg, i = s[i:j], j
		}
		p = append(p, seg)
		if i == len(s) {
			return p, nil
		}
		if s[i] != '.' {
			return nil, fmt.Errorf("invalid path %q: expected '.' after a quoted segment at offset %d", s, i)
		}
		i++
		if i == len(s) {
			return nil, fmt.Errorf("invalid path %q: trailing '.'", s)
		}
	}
}
