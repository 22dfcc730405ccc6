package profile

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/nodegen/nodegen/internal/textmemo"
)

// The hashes of files, each found once per process for a text (nodegen
// build writes many hosts).
var contentSHA256 = textmemo.New(sha256Hex, textmemo.SharedTexts)

// sha256Hex returns the SHA-256 of text in lower-case hex.
func sha256Hex(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}
