package unitcheck

import (
	"slices"

	"github.com/nodegen/nodegen/internal/textmemo"
)

// memoBytes bounds the texts each memo below holds: those the hosts of a
// fleet share (a worker of fleetgen's has 19 KB of files, 4 KB of them its
// own, which the memos never hold).
const memoBytes = 1 << 20

// The parses of units, scripts and command lines, each done once per
// process for a text (nodegen build checks many hosts). Their results are
// shared: nothing may modify them, and they are clipped, so that appending
// to one copies it.
var (
	unitSettings = textmemo.New(func(text string) []setting { return slices.Clip(parseUnit(text)) }, memoBytes)
	scriptWaits  = textmemo.New(func(text string) []wait { return slices.Clip(shellWaits(text)) }, memoBytes)
	lineCommands = textmemo.New(func(text string) [][]string { return slices.Clip(commands(text)) }, memoBytes)
)
