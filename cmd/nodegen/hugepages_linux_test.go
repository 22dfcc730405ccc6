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
	if strings.Contains(os.Getenv("GODEBUG"), "disablethp=1") {
		t.Skip("GODEBUG=disablethp=1")
	}
	if thp, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil || !strings.Contains(string(thp), "[madvise]") {
		t.Skip("transparent huge pages are not in madvise mode here")
	}
	if oc, err := os.ReadFile("/proc/sys/vm/overcommit_memory"); err != nil || strings.TrimSpace(string(oc)) == "2" {
		t.Skip("strict overcommit accounting")
	}
	useHugePages()
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
