package deploy

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The limits of what the deployer takes from a host: whatever a host
// prints is bounded, and escaped before it reaches a terminal, as
// OpenSSH treats the other end's output.
const (
	// maxStdout and maxStderr bound what one remote command may print:
	// more stops the command and fails the step.
	maxStdout = 16 << 20
	maxStderr = 4 << 20
)

// printable returns host output s as it may reach a terminal: line
// breaks and tabs as they are; other control characters (escape
// sequences, carriage returns, C1 controls), bytes that are not UTF-8 and
// the characters that reorder text (bidirectional overrides) written as
// Go escapes (\x1b, \u202e), so that they are shown, never acted on.
func printable(s string) string {
	if !strings.ContainsFunc(s, needsEscape) && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x80 && needsEscape(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case needsEscape(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// needsEscape reports whether r is escaped by printable: a control
// character but a line break or tab, or a bidirectional control.
func needsEscape(r rune) bool {
	if r == '\n' || r == '\t' {
		return false
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)
}

// cappedBuffer keeps what a command writes, up to max bytes; a write past
// max calls over (once) and fails. Without over, what is past max is
// dropped and the writer carries on (for a command that must keep
// running, such as the master connection).
type cappedBuffer struct {
	b    strings.Builder
	max  int
	over func()
	full bool
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if c.over == nil {
		if room := c.max - c.b.Len(); room > 0 {
			c.b.Write(p[:min(len(p), room)])
		}
		return len(p), nil
	}
	if c.full || c.b.Len()+len(p) > c.max {
		if !c.full {
			c.full = true
			c.over()
		}
		return 0, errOverflow
	}
	return c.b.Write(p)
}

var errOverflow = fmt.Errorf("more output than the deployer takes")
