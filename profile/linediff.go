package profile

import (
	"bytes"
	"unicode/utf8"

	linediff "github.com/rogpeppe/go-internal/diff"
)

// maxTextSize is the largest file Diff shows a line diff of.
const maxTextSize = 4 << 20

// isText reports whether content is shown as text: valid UTF-8 without NUL
// bytes, and not too large.
func isText(content []byte) bool {
	return len(content) <= maxTextSize && utf8.Valid(content) && bytes.IndexByte(content, 0) < 0
}

// unifiedDiff returns a unified diff of two texts with three lines of
// context, labelled oldName and newName, or "" when they are equal. It is
// go-internal's diff (the one `nodegen fmt -d` prints): an anchored diff,
// O(n log n), that never gives up on large changes.
func unifiedDiff(oldName, newName string, oldText, newText []byte) string {
	return string(linediff.Diff(oldName, oldText, newName, newText))
}
