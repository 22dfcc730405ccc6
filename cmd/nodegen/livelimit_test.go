package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
)

func TestManyLimit(t *testing.T) {
	tests := []struct {
		name string
		live uint64
		most int64
		want int64
	}{
		{"nothing live: the floor", 0, gib, manyFloor},
		{"a fleet's live heap: the floor", 20 * mib, gib, manyFloor},
		{"two fifths of the floor live: the floor", 64 * mib / 5 * 2, gib, manyFloor},
		{"more live: two and a half times it", 40 * mib, gib, 100 * mib},
		{"a large evaluation", 300 * mib, gib, 750 * mib},
		{"the memory available caps it", 600 * mib, gib, gib},
		{"less available than the floor: what is available", 0, 48 * mib, 48 * mib},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := manyLimit(tt.live, tt.most); got != tt.want {
				t.Errorf("manyLimit(%d MiB, %d MiB) = %d MiB, want %d MiB", tt.live/mib, tt.most/mib, got/mib, tt.want/mib)
			}
		})
	}
}

// TestOnEveryCollection checks that the callback comes after each
// collection, not only the first.
func TestOnEveryCollection(t *testing.T) {
	calls := make(chan struct{}, 1)
	onEveryCollection(func() {
		select {
		case calls <- struct{}{}:
		default:
		}
	})
	for range 3 {
		runtime.GC()
		<-calls // blocks (and the test times out) when no call comes
	}
}

// TestFollowLiveHeap checks that the limit is set from the live heap after
// a collection.
func TestFollowLiveHeap(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	seen := make(chan uint64, 1)
	keep := make([]*[1024]byte, 1000) // 1 MB live
	for i := range keep {
		keep[i] = new([1024]byte)
	}
	followLiveHeap(func(live uint64) int64 {
		select {
		case seen <- live:
		default:
		}
		return math.MaxInt64 - 1
	})
	runtime.GC()
	if live := <-seen; live < 1<<20 {
		t.Errorf("the live heap after a collection is %d bytes; want at least the 1 MB the test holds", live)
	}
	// The first limit is set once the second is asked for.
	runtime.GC()
	<-seen
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64-1 {
		t.Errorf("the soft memory limit is %d, want the one limit returned", got)
	}
	runtime.KeepAlive(keep)
}
