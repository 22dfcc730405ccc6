package runtimetune

import (
	"runtime/debug"
	"testing"
)

// TestSourceParsed checks that parsing source turns the collector on in a
// run whose collector Tune turned off, once past parseCollectAfter bytes,
// that ParsingDone turns it off again, and that neither touches the
// collector of a run that Tune did not set up for one evaluation.
func TestSourceParsed(t *testing.T) {
	was := debug.SetGCPercent(-1)
	t.Cleanup(func() {
		debug.SetGCPercent(was)
		parsing.off, parsing.bytes, parsing.collecting = false, 0, false
	})
	gcPercent := func() int {
		p := debug.SetGCPercent(-1)
		debug.SetGCPercent(p)
		return p
	}

	// Not set up by Tune: nothing changes, whatever is parsed.
	debug.SetGCPercent(300)
	SourceParsed(4 * parseCollectAfter)
	ParsingDone()
	if p := gcPercent(); p != 300 {
		t.Fatalf("outside a run tuned for one evaluation, GOGC became %d", p)
	}

	debug.SetGCPercent(-1)
	parsing.off, parsing.bytes = true, 0
	for _, step := range []struct {
		parse int
		done  bool
		want  int
	}{
		{parse: parseCollectAfter / 2, want: -1},
		{parse: parseCollectAfter / 2, want: -1}, // at the bound, not past it
		{parse: 1, want: 100},
		{parse: 10 * parseCollectAfter, want: 100},
		{done: true, want: -1},
		{done: true, want: -1},
		// Past the bound already: the next parse collects at once.
		{parse: 1, want: 100},
		{done: true, want: -1},
	} {
		if step.done {
			ParsingDone()
		} else {
			SourceParsed(step.parse)
		}
		if p := gcPercent(); p != step.want {
			t.Fatalf("after %+v (%d bytes parsed in all): GOGC %d, want %d", step, parsing.bytes, p, step.want)
		}
	}
}
