package unitcheck

import (
	"slices"

	"github.com/nodegen/nodegen/internal/textmemo"
	"github.com/nodegen/nodegen/internal/unitfile"
)

// The parses of units, scripts and command lines, each done once per
// process for a text (nodegen build checks many hosts). Their results are
// shared: nothing may modify them, and they are clipped, so that appending
// to one copies it.
var (
	unitSettings = textmemo.New(func(text string) []unitfile.Setting { return slices.Clip(unitfile.Parse(text)) }, textmemo.SharedTexts)
	scriptWaits  = textmemo.New(func(text string) []wait { return slices.Clip(shellWaits(text)) }, textmemo.SharedTexts)
	lineCommands = textmemo.New(func(text string) [][]string { return slices.Clip(commands(text)) }, textmemo.SharedTexts)
)
