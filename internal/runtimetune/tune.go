package runtimetune

import (
	"os"
	"runtime/debug"
)

// Mode is how a command has the garbage collector tuned.
type Mode int

const (
	// Default leaves the collector as Go sets it.
	Default Mode = iota
	// OneEvaluation is for the commands that run one evaluation: such a
	// run is short and allocates tens of megabytes, most of it parsed
	// syntax that lives to the end, so collecting on the default schedule
	// mostly rescans live data. The collector is off, but for a soft
	// memory limit at which it collects after all, and the heap is backed
	// by huge pages on Linux (see useHugePages). Parsing much source
	// text (not decoded from the parse cache) collects while it parses:
	// see SourceParsed.
	OneEvaluation
	// ManyEvaluations is for the commands that run many evaluations, one
	// after another and side by side (build, test): what one evaluation
	// allocates is garbage once it is done, and the heap is collected when
	// it has grown to four times what was live (GOGC=300) or reaches a
	// soft memory limit that follows the live heap (128 MiB, or two and a
	// half times what is live when that is more: see liveFollower and
	// manyLimit), whichever comes first.
	ManyEvaluations
)

// Tune tunes the garbage collector as m says. The soft memory limit is
// derived from the memory available to the process (softMemoryLimit: half
// of it, at most 1 GiB), so that a small node or a tight cgroup sees a
// collection rather than the OOM killer; where less than 128 MiB are
// available, or nothing is known, the collector is left on its default
// schedule. An address-space limit (ulimit -v) counts as memory
// available too; for many evaluations, it is the most the limit that
// follows the live heap may be. GOGC or GOMEMLIMIT in the environment take
// precedence. Tune is called once, at the start of the process.
func Tune(m Mode) {
	if m == Default || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	limit, ok := softMemoryLimit(availableMemory(os.DirFS("/"), addressSpaceLimit()))
	if !ok {
		return
	}
	if m == ManyEvaluations {
		debug.SetGCPercent(manyGOGC)
		debug.SetMemoryLimit(manyLimit(0, limit))
		f := newLiveFollower(func(live uint64) int64 { return manyLimit(live, limit) })
		go f.run(followInterval)
		return
	}
	debug.SetMemoryLimit(limit)
	debug.SetGCPercent(-1)
	parsing.mu.Lock()
	parsing.off = true
	parsing.mu.Unlock()
	useHugePages(limit)
}
