package main

import "golang.org/x/sys/unix"

// limitProcess bounds the address space (bytes) and CPU time (seconds) of
// the process pid, which has just started: the bad-input corpus's nodegen.
func limitProcess(pid int, memory, cpu uint64) error {
	if err := unix.Prlimit(pid, unix.RLIMIT_AS, &unix.Rlimit{Cur: memory, Max: memory}, nil); err != nil {
		return err
	}
	return unix.Prlimit(pid, unix.RLIMIT_CPU, &unix.Rlimit{Cur: cpu, Max: cpu}, nil)
}
