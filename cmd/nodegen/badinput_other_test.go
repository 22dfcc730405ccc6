//go:build !linux

package main

import "errors"

// limitProcess does nothing where prlimit is missing: the corpus still
// runs, bounded only by its timeout.
func limitProcess(pid int, memory, cpu, files uint64) error { return nil }

func mkfifo(p string) error { return errors.New("mkfifo: only on Linux") }
