package deploy

import (
	"fmt"
	"regexp"
	"strings"
)

// What the host's nodegen switch (the deployer's own binary) prints when it
// ends otherwise than with an active generation; SwitchResult reads them.
const (
	// refusingPrefix starts the line of a switch that refused before it
	// changed anything: files in the way, an invalid profile, binaries
	// that cannot be provided.
	refusingPrefix = "nodegen switch: refusing: "
	// lockedPrefix starts the line of a switch that found the system
	// locked by another nodegen command (activate.ErrLocked).
	lockedPrefix = "nodegen switch: another nodegen command is changing "
	// switchPrefix starts every line of the switch's own messages.
	switchPrefix = "nodegen switch: "
)

// rolledBackLine is the line of a switch that went back by itself.
var rolledBackLine = regexp.MustCompile(`(?m)^rolled back: (.*)$`)

// SwitchResult is the result of a host's nodegen switch (or switch
// --dry-run) that did not end with a generation waiting for its
// confirmation: Busy when another nodegen command held the host's lock,
// Refused when it refused before changing anything, RolledBack when it
// activated and went back by itself, Failed otherwise. Message says why
// in a line, first; Output is what the switch printed on stderr (the
// reason, the failed units' journals), Plan what it printed on stdout
// (the plan, the progress).
func SwitchResult(stdout, stderr string, code int, dry bool) HostResult {
	r := HostResult{Outcome: Failed, Output: stderr, Plan: stdout}
	if dry && code == 0 {
		r.Outcome = Planned
		return r
	}
	first := firstLine(stderr)
	back := rolledBackLine.FindStringSubmatch(stdout)
	switch {
	case strings.HasPrefix(first, lockedPrefix):
		r.Outcome = Busy
		r.Message = strings.TrimPrefix(first, switchPrefix) + "; nothing was changed: deploy it again once that command is done"
	case strings.HasPrefix(first, refusingPrefix):
		r.Outcome = Refused
		r.Message = strings.TrimPrefix(first, refusingPrefix)
	case back != nil:
		r.Outcome = RolledBack
		r.Message = strings.TrimPrefix(first, switchPrefix) + "; rolled back: " + back[1]
	case first != "":
		r.Message = strings.TrimPrefix(first, switchPrefix)
	default:
		r.Message = fmt.Sprintf("nodegen switch exited %d", code)
	}
	return r
}

// firstLine is the first line of text that says something.
func firstLine(text string) string {
	for line := range strings.Lines(text) {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "warning: ") {
			return line
		}
	}
	return ""
}
