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
