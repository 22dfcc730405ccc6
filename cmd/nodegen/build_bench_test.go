package main

import (
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/nodegen/nodegen/fixtures"
)

// BenchmarkFleet builds fleets of 10, 100 and 1000 generated Kubernetes
// workers (fixtures.WriteFleet) in one process, as nodegen build does,
// profiles written and synced; each iteration replaces the profiles of the
// one before. It reports hosts per second.
func BenchmarkFleet(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("hosts=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			hosts, err := fixtures.WriteFleet(filepath.Join(dir, "fleet"), n)
			if err != nil {
				b.Fatal(err)
			}
			out := filepath.Join(dir, "results")
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if code := runBuild(hosts, &evalFlags{}, out, 0, false, io.Discard, io.Discard); code != exitOK {
					b.Fatalf("build exited %d", code)
				}
			}
			b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "hosts/s")
		})
	}
}
