//go:build !unix

package main

// processMemory is not known outside Unix.
func processMemory() (faults int64, maxRSS int64, ok bool) { return 0, 0, false }
