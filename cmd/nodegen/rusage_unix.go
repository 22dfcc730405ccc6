//go:build unix

package main

import (
	"runtime"
	"syscall"
)

// processMemory returns the page faults the process has taken and its
// largest resident set in bytes, as getrusage(2) reports them.
func processMemory() (faults int64, maxRSS int64, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0, false
	}
	rss := int64(ru.Maxrss)
	if runtime.GOOS != "darwin" {
		rss *= 1024 // kilobytes everywhere but macOS, where it is bytes
	}
	return int64(ru.Minflt + ru.Majflt), rss, true
}

// addressSpaceLimit returns the process's address-space limit (RLIMIT_AS)
// in bytes, 0 when there is none.
func addressSpaceLimit() uint64 {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || rl.Cur >= 1<<62 { // RLIM_INFINITY
		return 0
	}
	return uint64(rl.Cur)
}
