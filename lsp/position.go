package lsp

import (
	"unicode/utf8"

	"github.com/apparentlymart/go-textseg/v15/textseg"
	"github.com/hashicorp/hcl/v2"
)

// encoding is the position encoding negotiated with the client: how a
// Position's Character counts.
type encoding int

const (
	utf16   encoding = iota // UTF-16 code units, LSP's default
	utf8Enc                 // bytes
)

func (e encoding) String() string {
	if e == utf8Enc {
		return "utf-8"
	}
	return "utf-16"
}

// text is a document's content with where its lines start. Lines end at
// "\n" (a "\r" before it is part of the line's end, as LSP has it); HCL's
// byte offsets index the same bytes.
type text struct {
	src   []byte
	lines []int // byte offset of each line's start
}

func newText(src []byte) *text {
	t := &text{src: src, lines: []int{0}}
	for i, b := range src {
		if b == '\n' {
			t.lines = append(t.lines, i+1)
		}
	}
	return t
}

// lineEnd is the byte offset of the end of line l, before its "\r\n" or
// "\n".
func (t *text) lineEnd(l int) int {
	end := len(t.src)
	if l+1 < len(t.lines) {
		end = t.lines[l+1] - 1
		if end > t.lines[l] && t.src[end-1] == '\r' {
			end--
		}
	}
	return end
}

// offset converts a position to a byte offset. A line past the end is the
// end of the text and a character past its line's end is that end, as LSP
// asks; a position inside a UTF-16 surrogate pair is the character's start.
func (t *text) offset(p Position, enc encoding) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(t.lines) {
		return len(t.src)
	}
	start, end := t.lines[p.Line], t.lineEnd(p.Line)
	if enc == utf8Enc {
		return min(start+max(p.Character, 0), end)
	}
	units := 0
	for i := start; i < end; {
		r, n := utf8.DecodeRune(t.src[i:end])
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > p.Character {
			return i
		}
		units += w
		i += n
	}
	return end
}

// position converts a byte offset to a position.
func (t *text) position(off int, enc encoding) Position {
	off = max(0, min(off, len(t.src)))
	l := 0
	lo, hi := 0, len(t.lines)-1
	for lo <= hi {
		m := (lo + hi) / 2
		if t.lines[m] <= off {
			l, lo = m, m+1
		} else {
			hi = m - 1
		}
	}
	start := t.lines[l]
	if enc == utf8Enc {
		return Position{Line: l, Character: off - start}
	}
	units := 0
	for i := start; i < off; {
		r, n := utf8.DecodeRune(t.src[i:off])
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
		i += n
	}
	return Position{Line: l, Character: units}
}

// rangeOf converts an hcl range, by its byte offsets, which are exact
// whatever HCL's columns count.
func (t *text) rangeOf(r hcl.Range, enc encoding) Range {
	return Range{Start: t.position(r.Start.Byte, enc), End: t.position(r.End.Byte, enc)}
}

// lineColumn converts HCL's line and column (1-based; the column counts
// grapheme clusters, as hclsyntax counts them) to a byte offset, for the
// positions messages quote as file:line:col.
func (t *text) lineColumn(line, col int) int {
	if line < 1 || line > len(t.lines) {
		return len(t.src)
	}
	i, end := t.lines[line-1], t.lineEnd(line-1)
	for c := 1; c < col && i < end; c++ {
		adv, _, _ := textseg.ScanGraphemeClusters(t.src[i:end], true)
		if adv == 0 {
			break
		}
		i += adv
	}
	return i
}

// restOfLine is the range from off to the end of its line, trailing space
// left out: where a message quoting file:line:col is shown.
func (t *text) restOfLine(off int) (int, int) {
	l := t.position(off, utf8Enc).Line
	end := t.lineEnd(l)
	for end > off && (t.src[end-1] == ' ' || t.src[end-1] == '\t') {
		end--
	}
	return off, end
}
