//go:build !unix

package main

// processMemory is not known outside Unix.
func processMemory() (faults int64, maxRSS int64, ok bool) { return 0, 0, false }

// addressSpaceLimit is not known outside Unix: no limit.
func addressSpaceLimit() uint64 { return 0 }
