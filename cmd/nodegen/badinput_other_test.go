//go:build !linux

package main

// limitProcess does nothing where prlimit is missing: the corpus still
// runs, bounded only by its timeout.
func limitProcess(pid int, memory, cpu uint64) error { return nil }
