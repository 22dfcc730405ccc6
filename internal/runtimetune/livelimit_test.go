package runtimetune

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
		{"two fifths of the floor live: the floor", 128 * mib / 5 * 2, gib, manyFloor},
		{"more live: two and a half times it", 80 * mib, gib, 200 * mib},
		{"a large evaluation", 300 * mib, gib, 750 * mib},
		{"the memory available caps it", 600 * mib, gib, gib},
		{"less available than the floor: what is available", 0, 96 * mib, 96 * mib},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := manyLimit(tt.live, tt.most); got != tt.want {
				t.Errorf("manyLimit(%d MiB, %d MiB) = %d MiB, want %d MiB", tt.live/mib, tt.most/mib, got/mib, tt.want/mib)
			}
		})
	}
}

// TestLiveFollower checks that a step sets the limit from the live heap
// exactly when a collection has completed since the step before. The
// collector's own schedule is off, so that the collections are the
// test's.
func TestLiveFollower(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	keep := make([]*[1024]byte, 1000) // 1 MB live
	for i := range keep {
		keep[i] = new([1024]byte)
	}
	var lives []uint64
	f := newLiveFollower(func(live uint64) int64 {
		lives = append(lives, live)
		return 512*mib + int64(len(lives))
	})
	if f.step() {
		t.Fatal("a step set the limit before any collection")
	}
	for i := 1; i <= 3; i++ {
		runtime.GC()
		if !f.step() {
			t.Fatalf("collection %d: the step after it set no limit", i)
		}
		if f.step() {
			t.Fatalf("collection %d: a second step set the limit again", i)
		}
		if got, want := debug.SetMemoryLimit(-1), 512*mib+int64(i); got != want {
			t.Errorf("collection %d: the soft memory limit is %d, want %d, the limit returned for it", i, got, want)
		}
	}
	for i, live := range lives {
		if live < 1<<20 {
			t.Errorf("collection %d: the live heap given is %d bytes; want at least the 1 MB the test holds", i+1, live)
		}
	}
	runtime.KeepAlive(keep)
}
