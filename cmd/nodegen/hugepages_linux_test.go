package main

import (
	"os"
	"strings"
	"testing"
)

// TestUseHugePages checks that useHugePages leaves a region of the heap
// marked for huge pages: /proc/self/smaps lists the "hg" flag (VM_HUGEPAGE)
// for it.
func TestUseHugePages(t *testing.T) {
	if why := hugePagesSkipped(); why != "" {
		t.Skip(why)
	}
	useHugePages(maxSoftLimit)
	smaps, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip(err)
	}
	for _, line := range strings.Split(string(smaps), "\n") {
		if f, ok := strings.CutPrefix(line, "VmFlags:"); ok {
			for _, flag := range strings.Fields(f) {
				if flag == "hg" {
					return
				}
			}
		}
	}
	t.Error("no mapping of the process is marked for huge pages after useHugePages")
}
