package profile

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"

	"github.com/nodegen/nodegen/internal/textmemo"
)

// The executables of units and scripts, and the hashes of files, each
// found once per process for a text (nodegen build checks and writes many
// hosts). The lists are shared: nothing may modify them, and they are
// clipped, so that appending to one copies it.
var (
	unitExecs     = textmemo.New(func(text string) []unitExec { return slices.Clip(unitExecutables(text)) }, textmemo.SharedTexts)
	scriptExecs   = textmemo.New(func(text string) []string { return slices.Clip(scriptExecutables(text)) }, textmemo.SharedTexts)
	scriptCmds    = textmemo.New(func(text string) []scriptCommand { return slices.Clip(scriptCommands(text)) }, textmemo.SharedTexts)
	unitPATHs     = textmemo.New(func(text string) []string { return slices.Clip(unitPATH(text)) }, textmemo.SharedTexts)
	contentSHA256 = textmemo.New(sha256Hex, textmemo.SharedTexts)
)

// sha256Hex returns the SHA-256 of text in lower-case hex.
func sha256Hex(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}
