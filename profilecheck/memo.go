package profilecheck

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
	unitExecs    = textmemo.New(func(text string) []unitExec { return slices.Clip(unitExecutables(text)) }, textmemo.SharedTexts)
	scriptExecs  = textmemo.New(func(text string) []string { return slices.Clip(scriptExecutables(text)) }, textmemo.SharedTexts)
	scriptCmds   = textmemo.New(func(text string) []scriptCommand { return slices.Clip(scriptCommands(text)) }, textmemo.SharedTexts)
	unitPATHs    = textmemo.New(func(text string) []string { return slices.Clip(unitPATH(text)) }, textmemo.SharedTexts)
)
