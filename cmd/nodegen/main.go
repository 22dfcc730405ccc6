// Command nodegen evaluates NixOS-style HCL modules and writes system
// profiles. See README.md and docs/ for the language.
package main

import (
	"os"
	"runtime/debug"
)

func main() {
	if len(os.Args) > 1 {
		if c := findCommand(os.Args[1]); c != nil && c.oneEvaluation {
			tuneGC()
		}
	}
	os.Exit(Main())
}

// tuneGC trades memory for time in the commands that run one evaluation
// (see command.oneEvaluation): such a run is short and allocates tens of
// megabytes, most of it parsed syntax that lives to the end, so collecting
// on the default schedule mostly rescans live data. The collector is
// turned off, with a soft memory limit derived from the memory available
// to the process (softMemoryLimit: half of it, at most 1 GiB) at which it
// collects after all, so that a small node or a tight cgroup sees a
// collection rather than the OOM killer; where less than 128 MiB are
// available, or nothing is known, the collector stays on its default
// schedule. On Linux the heap is backed by huge pages (see useHugePages).
// GOGC or GOMEMLIMIT in the environment take precedence.
func tuneGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	limit, ok := softMemoryLimit(availableMemory(os.DirFS("/")))
	if !ok {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(limit)
	useHugePages(limit)
}
