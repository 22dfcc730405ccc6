package runtimetune

import (
	"runtime/debug"
	"sync"
)

// parseCollectAfter is how many bytes of source text a run with the
// collector off parses with hcl's parser before the collector is turned
// on for the rest of the parsing (see SourceParsed). hcl's parser
// allocates some 120 times a file's size to parse it, nearly all of it
// garbage once the file's syntax tree is made (its tokens, the slices
// they grow in): 1 MiB of source is over 100 MiB that nothing will read
// again. A host's own files, and the library (whose syntax trees are
// built in), are far less.
const parseCollectAfter = 1 << 20

// parsing is what SourceParsed and ParsingDone share: whether Tune turned
// the collector off for one evaluation, how much source was parsed, and
// whether the collector is on for it now.
var parsing struct {
	mu         sync.Mutex
	off        bool // Tune(OneEvaluation) turned the collector off
	bytes      int64
	collecting bool
}

// SourceParsed tells the tuning that n bytes of source text are parsed
// with hcl's parser (not decoded from a cache). In a run that Tune has set
// up for one evaluation, with the collector off, once more than
// parseCollectAfter bytes were parsed the collector is turned on again
// (GOGC=100) until ParsingDone: the parser's garbage is then collected
// as it is made, rather than being the run's peak memory (1,000 modules,
// 4 MB of HCL, parsed without the cache: 487 MiB resident with the
// collector off throughout, 200-220 MiB with it on while parsing).
// Elsewhere it does nothing.
func SourceParsed(n int) {
	parsing.mu.Lock()
	defer parsing.mu.Unlock()
	if !parsing.off {
		return
	}
	parsing.bytes += int64(n)
	if !parsing.collecting && parsing.bytes > parseCollectAfter {
		parsing.collecting = true
		debug.SetGCPercent(100)
	}
}

// ParsingDone turns the collector off again if SourceParsed turned it on:
// an evaluation's own allocations mostly live to its end (see
// OneEvaluation). A loader calls it once its modules are parsed; later
// parsing turns the collector on again, as the total is past the bound.
func ParsingDone() {
	parsing.mu.Lock()
	defer parsing.mu.Unlock()
	if parsing.collecting {
		parsing.collecting = false
		debug.SetGCPercent(-1)
	}
}
