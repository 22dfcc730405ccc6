package options

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agext/levenshtein"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/internal/optionpath"
	"github.com/nodegen/nodegen/property"
)

// showLimit is the length past which ShowValue truncates.
const showLimit = 80

// ShowValue renders a value the way HCL writes it, for messages: strings
// quoted, [1, 2], { a = 1, b = "x" }, null. Thunks show as <lazy>,
// configuration namespaces as <namespace>, properties as mkIf(...) and so
// on; unknown values as <unknown>. ShowValue forces nothing. The result is
// cut to about 80 characters, ending in "..." when it was cut.
func ShowValue(v cty.Value) string { return show(v, false) }

// showForced is ShowValue, but it forces the thunks it meets (and not the
// namespaces), ignoring their diagnostics, as NixOS does when it prints
// definitions in an error. It stops forcing once the text is long enough.
func showForced(v cty.Value) string { return show(v, true) }

func show(v cty.Value, force bool) string {
	s := shower{force: force}
	s.value(v)
	out := s.b.String()
	if len(out) <= showLimit {
		return out
	}
	cut := showLimit - 3
	for cut > 0 && !utf8.RuneStart(out[cut]) {
		cut--
	}
	return out[:cut] + "..."
}

type shower struct {
	b     strings.Builder
	force bool
}

func (s *shower) full() bool { return s.b.Len() > showLimit }

func (s *shower) value(v cty.Value) {
	if s.full() {
		return
	}
	switch {
	case v.Type() == cty.NilType:
		s.b.WriteString("<nothing>")
		return
	case !v.IsKnown():
		s.b.WriteString("<unknown>")
		return
	case v.IsNull():
		s.b.WriteString("null")
		return
	}
	ty := v.Type()
	switch {
	case ty == property.LazyType:
		if !s.force {
			s.b.WriteString("<lazy>")
			return
		}
		fv, _ := property.Shallow(v)
		s.value(fv)
	case ty == property.RefType:
		s.b.WriteString("<namespace>")
	case ty == property.PropertyType:
		s.property(v)
	case ty.IsCapsuleType():
		s.b.WriteString("<" + ty.FriendlyName() + ">")
	case ty == cty.String:
		writeQuoted(&s.b, v.AsString())
	case ty == cty.Number:
		s.b.WriteString(v.AsBigFloat().Text('f', -1))
	case ty == cty.Bool:
		if v.True() {
			s.b.WriteString("true")
		} else {
			s.b.WriteString("false")
		}
	case ty.IsTupleType() || ty.IsListType() || ty.IsSetType():
		s.b.WriteByte('[')
		i := 0
		for it := v.ElementIterator(); it.Next() && !s.full(); i++ {
			if i > 0 {
				s.b.WriteString(", ")
			}
			_, e := it.Element()
			s.value(e)
		}
		s.b.WriteByte(']')
	case ty.IsObjectType() || ty.IsMapType():
		if v.LengthInt() == 0 {
			s.b.WriteString("{}")
			return
		}
		s.b.WriteString("{ ")
		i := 0
		for it := v.ElementIterator(); it.Next() && !s.full(); i++ {
			if i > 0 {
				s.b.WriteString(", ")
			}
			k, e := it.Element()
			if optionpath.IsIdentifier(k.AsString()) {
				s.b.WriteString(k.AsString())
			} else {
				writeQuoted(&s.b, k.AsString())
			}
			s.b.WriteString(" = ")
			s.value(e)
		}
		s.b.WriteString(" }")
	default:
		s.b.WriteString("<" + ty.FriendlyName() + ">")
	}
}

func (s *shower) property(v cty.Value) {
	p, _ := property.AsProperty(v)
	s.b.WriteString(p.Kind.String())
	s.b.WriteByte('(')
	switch p.Kind {
	case property.KindIf:
		// The condition and the body are shown unforced: showing a value
		// must not evaluate the body of an mkIf.
		s.b.WriteString("..., ...")
	case property.KindMerge:
		s.value(p.Contents)
	case property.KindOverride:
		s.b.WriteString(strconv.Itoa(p.Priority) + ", ")
		s.value(p.Content)
	case property.KindOrder:
		s.b.WriteString(strconv.Itoa(p.Order) + ", ")
		s.value(p.Content)
	}
	s.b.WriteByte(')')
}

// writeQuoted writes s as an HCL quoted string.
func writeQuoted(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i, r := range s {
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
		case '$', '%':
			// "${" and "%{" start template sequences in HCL.
			b.WriteRune(r)
			if strings.HasPrefix(s[i+1:], "{") {
				b.WriteRune(r)
			}
		default:
			if r < 0x20 || r == 0x7f {
				b.WriteString(`\u00`)
				b.WriteByte("0123456789abcdef"[r>>4])
				b.WriteByte("0123456789abcdef"[r&0xf])
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// DidYouMean returns the candidate closest to name, if one is at a
// Levenshtein distance below 3 (and is not name itself), else "". Ties go
// to the candidate that sorts first, so that the answer does not depend on
// the order of candidates.
func DidYouMean(name string, candidates []string) string {
	best, bestD := "", 0
	for _, c := range candidates {
		if c == name {
			continue
		}
		d := levenshtein.Distance(name, c, nil)
		if d >= 3 {
			continue
		}
		if best == "" || d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	return best
}
