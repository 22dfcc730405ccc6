package main

import "golang.org/x/sys/unix"

// limitProcess bounds the address space (bytes), CPU time (seconds) and
// open file descriptors of the process pid, which has just started: the
// bad-input corpus's nodegen.
func limitProcess(pid int, memory, cpu, files uint64) error {
	if err := unix.Prlimit(pid, unix.RLIMIT_AS, &unix.Rlimit{Cur: memory, Max: memory}, nil); err != nil {
		return err
	}
	if err := unix.Prlimit(pid, unix.RLIMIT_NOFILE, &unix.Rlimit{Cur: files, Max: files}, nil); err != nil {
		return err
	}
	return unix.Prlimit(pid, unix.RLIMIT_CPU, &unix.Rlimit{Cur: cpu, Max: cpu}, nil)
}

func mkfifo(p string) error { return unix.Mkfifo(p, 0o644) }
