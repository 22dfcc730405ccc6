package ctystrings

import (
	"testing"

	"golang.org/x/text/unicode/norm"
)

// TestNormalizeASCIIFastPath checks nodegen's patch to Normalize: a string
// is normalized as norm.NFC normalizes it, whether it is ASCII (returned as
// it is) or not.
func TestNormalizeASCIIFastPath(t *testing.T) {
	for _, s := range []string{
		"",
		"kubelet",
		"a\x7f",
		"caf\u0065\u0301",   // e and a combining acute: composed by NFC
		"caf\u00e9",         // already composed
		"\u212b",            // the angstrom sign: NFC maps it to Å
		"ascii then \u0301", // a combining mark after ASCII
		"\xff\xfe",          // not UTF-8
	} {
		if got, want := Normalize(s), norm.NFC.String(s); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", s, got, want)
		}
	}
}

func FuzzNormalize(f *testing.F) {
	f.Add("kubelet")
	f.Add("caf\u0065\u0301")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Normalize(s), norm.NFC.String(s); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", s, got, want)
		}
	})
}
