package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// How a run of many evaluations is collected: when the heap reaches four
// times what was live at the last collection (GOGC), or the soft memory
// limit (manyLimit), whichever comes first. With under 16 MiB live (the
// hosts of a fleet) that is mostly the former; with more, the limit.
const (
	// manyGOGC is GOGC in a run of many evaluations.
	manyGOGC = 300
	// manyFloor is the least the limit is.
	manyFloor = 64 << 20
)

// manyLimit is the soft memory limit of a run of many evaluations after a
// collection that found live bytes live: manyFloor, or two and a half
// times the live heap when that is more, so that a large evaluation never
// has the collector run back to back; at most most, the limit the memory
// available allows (see softMemoryLimit).
func manyLimit(live uint64, most int64) int64 {
	return min(max(int64(manyFloor), int64(live/2*5)), most)
}

// followLiveHeap sets the soft memory limit after every collection of the
// process to limit(live heap). What is live in a run of many evaluations
// (build, test) is the shared library and the evaluations under way, and
// it swings with where they are: with GOGC's proportion alone, the heap
// goal swings with it (in a 1000-host build, between 20 and 84 MB), and so
// does the peak memory. A limit that follows the live heap caps the peaks
// without ever falling under what the evaluations hold, which leaves room
// for a higher GOGC between them: fewer collections, less memory.
func followLiveHeap(limit func(live uint64) int64) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	onEveryCollection(func() {
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			debug.SetMemoryLimit(limit(sample[0].Value.Uint64()))
		}
	})
}

// collectionSentinel is an object nothing refers to, whose finalizer thus
// runs after the next collection (see onEveryCollection). It holds a
// pointer and is larger than the tiny allocator's blocks, which are
// finalized with their neighbours.
type collectionSentinel struct {
	_ *int
	_ [16]byte
}

// onEveryCollection calls f after each collection, on the finalizer
// goroutine: a sentinel's finalizer sets up the next one and calls it.
func onEveryCollection(f func()) {
	var arm func()
	arm = func() {
		runtime.SetFinalizer(&collectionSentinel{}, func(*collectionSentinel) {
			arm()
			f()
		})
	}
	arm()
}
