package runtimetune

import (
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// How a run of many evaluations is collected: when the heap reaches four
// times what was live at the last collection (GOGC), or the soft memory
// limit (manyLimit), whichever comes first. With under 25 MiB live (the
// hosts of a fleet) that is mostly the former; with more, the limit.
const (
	// manyGOGC is GOGC in a run of many evaluations.
	manyGOGC = 300
	// manyFloor is the least the limit is: above the heap goal GOGC sets
	// for a fleet's build (20-25 MB live, the library's declared tree
	// among it: a goal of 80-100 MB) and the runtime's own memory, so that
	// the proportion, not the limit, sets when such a build collects. At
	// 64 MiB the limit did (a heap goal of 49 MB): a 1000-host build
	// collected 184 times instead of 71, and took 8-18% longer for 55 MiB
	// less peak memory (BENCHMARKS.md).
	manyFloor = 128 << 20
)

// manyLimit is the soft memory limit of a run of many evaluations after a
// collection that found live bytes live: manyFloor, or two and a half
// times the live heap when that is more, so that a large evaluation never
// has the collector run back to back; at most most, the limit the memory
// available allows (see softMemoryLimit).
func manyLimit(live uint64, most int64) int64 {
	return min(max(int64(manyFloor), int64(live/2*5)), most)
}

// followInterval is how often a liveFollower looks for a collection: a
// 1000-host build collects some 10 times a second (BENCHMARKS.md), so the
// limit is set within a small part of the time between two collections.
const followInterval = 5 * time.Millisecond

// A liveFollower keeps the soft memory limit at limit(live heap), the
// live heap being what the last collection found live. What is live in a
// run of many evaluations (build, test) is the shared library and the
// evaluations under way, and it swings with where they are: with GOGC's
// proportion alone, the heap goal swings with it (in a 1000-host build,
// between 20 and 84 MB), and so does the peak memory. A limit that
// follows the live heap caps the peaks without ever falling under what the
// evaluations hold, which leaves room for a higher GOGC between them:
// fewer collections, less memory.
//
// It reads the runtime's own count of completed collections and its live
// heap (runtime/metrics) and relies on nothing else of the runtime: a
// step sets the limit exactly when a collection has completed since the
// step before.
type liveFollower struct {
	limit   func(live uint64) int64
	samples []metrics.Sample // collections completed, live heap
	cycles  uint64           // the collections followed so far
}

// newLiveFollower returns a follower that sets the limit to limit(live
// heap) after each collection from now on.
func newLiveFollower(limit func(live uint64) int64) *liveFollower {
	f := &liveFollower{
		limit:   limit,
		samples: []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/gc/heap/live:bytes"}},
	}
	metrics.Read(f.samples)
	f.cycles = f.samples[0].Value.Uint64()
	return f
}

// step sets the soft memory limit from the live heap when a collection
// has completed since the last step, and reports whether it did.
func (f *liveFollower) step() bool {
	metrics.Read(f.samples)
	n := f.samples[0].Value.Uint64()
	if n == f.cycles {
		return false
	}
	f.cycles = n
	debug.SetMemoryLimit(f.limit(f.samples[1].Value.Uint64()))
	return true
}

// run steps every interval, for the rest of the process.
func (f *liveFollower) run(interval time.Duration) {
	t := time.NewTicker(interval)
	for range t.C {
		f.step()
	}
}
