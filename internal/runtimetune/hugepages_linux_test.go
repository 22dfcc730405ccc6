package runtimetune

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/nodegen/nodegen/internal/suitereport"
)

// TestUseHugePages checks what useHugePages promises: the heap is marked
// for huge pages where the allocations after it go. The range it marked
// must lie in mappings that /proc/self/smaps lists with the "hg" flag
// (VM_HUGEPAGE); a large allocation made afterwards (as parsing makes
// them) must reuse it, every 2 MiB page of the allocation from the start
// of that range on lying in such a mapping.
func TestUseHugePages(t *testing.T) {
	if why := hugePagesSkipped(); why != "" {
		suitereport.Skip(t, "transparent huge pages (runtimetune)", why)
	}
	from, to := useHugePages(maxSoftLimit)
	if to <= from {
		t.Fatal("useHugePages marked nothing, though huge pages are not skipped here")
	}
	const size = 16 << 20
	b := make([]byte, size)
	start := uintptr(unsafe.Pointer(&b[0]))
	end := start + size
	if end <= from || start >= to {
		t.Fatalf("the allocation after useHugePages, %#x-%#x, does not reuse the range it marked, %#x-%#x", start, end, from, to)
	}
	const huge = 2 << 20
	maps, err := readMappings("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, lo, hi uintptr) {
		for p := lo; p < hi; p += huge {
			m, ok := mappingAt(maps, p)
			switch {
			case !ok:
				t.Fatalf("no mapping holds %#x, in %s", p, what)
			case !m.hugePages:
				t.Fatalf("the mapping %#x-%#x that holds %#x, in %s, is not marked for huge pages (VmFlags: %s)", m.start, m.end, p, what, m.flags)
			}
		}
	}
	check(fmt.Sprintf("the range useHugePages marked, %#x-%#x", from, to), from, to)
	check(fmt.Sprintf("the allocation after it, %#x-%#x", start, end), max(from, (start+huge-1)&^(huge-1)), min(to, end&^(huge-1)))
	runtime.KeepAlive(b)
}

// A mapping is one of /proc/self/smaps.
type mapping struct {
	start, end uintptr
	flags      string
	hugePages  bool // VmFlags has "hg"
}

// readMappings reads the mappings of an smaps file and their VmFlags.
func readMappings(name string) ([]mapping, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var maps []mapping
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if flags, ok := strings.CutPrefix(line, "VmFlags:"); ok {
			if len(maps) == 0 {
				return nil, fmt.Errorf("%s: VmFlags before any mapping", name)
			}
			m := &maps[len(maps)-1]
			m.flags = strings.TrimSpace(flags)
			for _, fl := range strings.Fields(flags) {
				m.hugePages = m.hugePages || fl == "hg"
			}
			continue
		}
		// A mapping's first line: "START-END perms offset dev inode path".
		addrs, _, _ := strings.Cut(line, " ")
		lo, hi, ok := strings.Cut(addrs, "-")
		if !ok {
			continue
		}
		s, err1 := strconv.ParseUint(lo, 16, 64)
		e, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		maps = append(maps, mapping{start: uintptr(s), end: uintptr(e)})
	}
	return maps, sc.Err()
}

// mappingAt is the mapping that holds address p.
func mappingAt(maps []mapping, p uintptr) (mapping, bool) {
	for _, m := range maps {
		if m.start <= p && p < m.end {
			return m, true
		}
	}
	return mapping{}, false
}
