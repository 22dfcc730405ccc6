package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// The soft memory limit of a run of many evaluations (see manyLimit).
const (
	// manyFloor is the least the limit is: the heap a run of many
	// evaluations may grow to before a collection however little is live.
	manyFloor = 64 << 20
	// manyGOGC is the collector's GOGC in a run of many evaluations: with
	// little live, the limit (manyFloor) calls the collections; the
	// proportion takes over between manyHeadroom and it.
	manyGOGC = 300
	// manyHeadroom, in fifths, is what the limit leaves above the live
	// heap when that is more than manyFloor allows (5/2: a collection
	// when half again as much as is live was allocated).
	manyHeadroom = 5
)

// manyLimit is the soft memory limit of a run of many evaluations after a
// collection that found live bytes live: at least manyFloor, and
// manyHeadroom/2 times the live heap, so that a large evaluation never
// has the collector run back to back; and at most most, the limit that
// the memory available allows (see softMemoryLimit).
func manyLimit(live uint64, most int64) int64 {
	l := max(int64(manyFloor), int64(live/2*manyHeadroom))
	return min(l, most)
}

// followLiveHeap sets the soft memory limit after every collection of the
// process to limit(live heap). The evaluations of a run of many (build,
// test) each allocate far more than they keep, and most of what is live
// at a time is the shared library and the evaluations under way: with
// GOGC's proportion alone the heap is collected as soon as it is three or
// four times that, and the collector's work is a quarter of the run's
// instructions. A limit a few times the live heap, raised with it, lets
// the heap grow to a fixed size first (fewer collections, the same peak),
// and never falls under what the evaluations hold.
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
