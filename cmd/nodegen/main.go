// Command nodegen evaluates NixOS-style HCL modules and writes system
// profiles. See README.md and docs/ for the language.
package main

import (
	"os"
	"runtime/debug"
)

func main() {
	tuneGC()
	os.Exit(Main())
}

// tuneGC trades memory for time: a run of nodegen is short and allocates
// tens of megabytes, most of it parsed syntax that lives to the end, so
// collecting on the default schedule mostly rescans live data. Collection
// starts only when the heap nears 1 GiB, and on Linux the heap is backed by
// huge pages (see useHugePages). GOGC or GOMEMLIMIT in the environment take
// precedence.
func tuneGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(1 << 30)
	useHugePages()
}
