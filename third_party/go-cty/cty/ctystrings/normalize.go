package ctystrings

import (
	"golang.org/x/text/unicode/norm"
)

// Normalize applies NFC normalization to the given string, returning the
// transformed string.
//
// This function achieves the same effect as wrapping a string in a value
// using [cty.StringVal] and then unwrapping it again using [Value.AsString].
func Normalize(str string) string {
	// nodegen: ASCII is always in NFC, and almost every string is ASCII, so
	// such a string is returned as it is without norm's per-rune checks.
	for i := 0; i < len(str); i++ {
		if str[i] >= 0x80 {
			return norm.NFC.String(str)
		}
	}
	return str
}
