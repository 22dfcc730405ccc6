package runtimetune

import (
	"os"
	"runtime"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// heapReserve is how much heap useHugePages prepares: more than evaluating
// a set of a thousand modules (2.4 MB of HCL) takes.
const heapReserve = 256 << 20

// useHugePages asks Linux to back the heap nodegen is about to fill with
// transparent huge pages. A run allocates the parsed syntax of every module
// and keeps it to the end, with the collector off (see Tune), so every
// allocation lands on a page the process has never touched, and with 4 KiB
// pages the kernel's page faults took a third of the command's time on the
// generated 1000-module set. Where transparent huge pages are enabled only
// for regions that ask (the "madvise" setting, Debian's default), the Go
// runtime does not ask for its heap.
//
// So the heap is grown at once by one large allocation, which maps the
// memory without touching it; that range is marked MADV_HUGEPAGE and freed,
// and the allocations that follow reuse it. Nothing is resident until it is
// used. The collection that frees it runs on one P: on a 2-core machine,
// runtime.GC took up to 6 ms of CPU with two (the collector's workers on
// the idle P), 0.5 ms with one. Failures are ignored: the advice is only
// advice. GODEBUG=disablethp=1, the Go runtime's own switch against huge
// pages for the heap, turns this off too.
//
// It is done only where it helps and cannot hurt: when transparent huge
// pages are enabled for regions that ask ("always" needs no asking,
// "never" would not listen), not under strict overcommit accounting
// (vm.overcommit_memory = 2), where the reservation would count against
// the commit limit of a small machine, and not under a limit on the address
// space (ulimit -v), where the runtime could not map the reservation and
// the command would die of it (Go's out-of-memory error is fatal). Nor is
// it done when the soft memory limit (see Tune) is below the
// reservation, where the runtime would give the pages back at once.
//
// It returns the range of addresses it marked (the reservation's whole
// huge pages), empty when it marked none.
func useHugePages(limit int64) (from, to uintptr) {
	if limit < heapReserve || hugePagesSkipped() != "" {
		return 0, 0
	}
	b := make([]byte, heapReserve)
	const huge = 2 << 20
	addr := uintptr(unsafe.Pointer(&b[0]))
	from, to = (addr+huge-1)&^(huge-1), (addr+heapReserve)&^(huge-1)
	if to <= from || unix.Madvise(b[from-addr:to-addr], unix.MADV_HUGEPAGE) != nil {
		from, to = 0, 0
	}
	runtime.KeepAlive(b)
	b = nil
	procs := runtime.GOMAXPROCS(1)
	runtime.GC()
	runtime.GOMAXPROCS(procs)
	return from, to
}

// hugePagesSkipped says why useHugePages does nothing here, or "".
func hugePagesSkipped() string {
	if strings.Contains(os.Getenv("GODEBUG"), "disablethp=1") {
		return "GODEBUG=disablethp=1"
	}
	thp, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !strings.Contains(string(thp), "[madvise]") {
		return "transparent huge pages are not in madvise mode"
	}
	if oc, err := os.ReadFile("/proc/sys/vm/overcommit_memory"); err != nil || strings.TrimSpace(string(oc)) == "2" {
		return "strict overcommit accounting"
	}
	if addressSpaceLimit() != 0 {
		return "a limit on the address space (ulimit -v)"
	}
	return ""
}
