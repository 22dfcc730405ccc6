package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/nodegen/nodegen/fixtures"
)

// BenchmarkFleet builds fleets of 10, 100 and 1000 generated Kubernetes
// workers (fixtures.WriteFleet) in one process, as nodegen build does,
// profiles written and synced; each iteration replaces the profiles of the
// one before. NODEGEN_BENCH_FLEET=N adds a fleet of N hosts (10000 for
// issue 40's target). It reports hosts per second and the heap's
// high-water mark during the builds (peak-heap-MiB, sampled every
// millisecond): a build streams its hosts (each profile written and
// dropped once built), so the peak does not grow with the number of hosts.
func BenchmarkFleet(b *testing.B) {
	sizes := []int{10, 100, 1000}
	if n, err := strconv.Atoi(os.Getenv("NODEGEN_BENCH_FLEET")); err == nil && n > 0 {
		sizes = append(sizes, n)
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("hosts=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			hosts, err := fixtures.WriteFleet(filepath.Join(dir, "fleet"), n)
			if err != nil {
				b.Fatal(err)
			}
			out := filepath.Join(dir, "results")
			b.ReportAllocs()
			b.ResetTimer()
			peak := watchHeap()
			for b.Loop() {
				if code := runBuild(hosts, &evalFlags{}, out, 0, false, io.Discard, io.Discard); code != exitOK {
					b.Fatalf("build exited %d", code)
				}
			}
			b.ReportMetric(float64(peak())/(1<<20), "peak-heap-MiB")
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "hosts/s")
		})
	}
}

// watchHeap samples the bytes of the heap's live and not yet collected
// objects every millisecond until the function it returns is called,
// which returns the highest sample.
func watchHeap() func() uint64 {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var high uint64
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			high = max(high, sample[0].Value.Uint64())
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(stop)
		wg.Wait()
		return high
	}
}
