package lsp

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPositions(t *testing.T) {
	// Line 0: "a = \"é😀x\"" then CRLF; line 1: "b"; line 2 empty.
	src := []byte("a = \"é😀x\"\r\nb\n")
	tx := newText(src)
	tests := []struct {
		name string
		off  int
		enc  encoding
		pos  Position
	}{
		{"start", 0, utf16, Position{0, 0}},
		{"before é", 5, utf16, Position{0, 5}},
		{"after é, utf-16", 7, utf16, Position{0, 6}},
		{"after é, utf-8", 7, utf8Enc, Position{0, 7}},
		{"after the emoji, utf-16 counts a surrogate pair", 11, utf16, Position{0, 8}},
		{"after the emoji, utf-8", 11, utf8Enc, Position{0, 11}},
		{"second line", 15, utf16, Position{1, 0}},
		{"end", len(src), utf16, Position{2, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tx.position(tt.off, tt.enc); got != tt.pos {
				t.Errorf("position(%d, %s) = %+v, want %+v", tt.off, tt.enc, got, tt.pos)
			}
			if got := tx.offset(tt.pos, tt.enc); got != tt.off {
				t.Errorf("offset(%+v, %s) = %d, want %d", tt.pos, tt.enc, got, tt.off)
			}
		})
	}
}

func TestOffsetClamps(t *testing.T) {
	tx := newText([]byte("ab😀\r\ncd"))
	tests := []struct {
		pos  Position
		enc  encoding
		want int
	}{
		{Position{0, 99}, utf16, 6},   // past the line's end: before its CRLF
		{Position{0, 3}, utf16, 2},    // inside the surrogate pair: the character's start
		{Position{0, 99}, utf8Enc, 6}, // bytes too
		{Position{5, 0}, utf16, 10},   // past the last line: the end
		{Position{-1, 0}, utf16, 0},
	}
	for _, tt := range tests {
		if got := tx.offset(tt.pos, tt.enc); got != tt.want {
			t.Errorf("offset(%+v, %s) = %d, want %d", tt.pos, tt.enc, got, tt.want)
		}
	}
}

func TestLineColumn(t *testing.T) {
	// HCL counts columns in grapheme clusters: "é" written as e and a
	// combining accent is one column of three bytes.
	tx := newText([]byte("x\n\"e\u0301\" = 1\n"))
	got := []int{tx.lineColumn(1, 1), tx.lineColumn(2, 1), tx.lineColumn(2, 3), tx.lineColumn(2, 5), tx.lineColumn(9, 1)}
	want := []int{0, 2, 6, 8, len(tx.src)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lineColumn (-want +got):\n%s", diff)
	}
}
