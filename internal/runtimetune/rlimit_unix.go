//go:build unix

package runtimetune

import "syscall"

// addressSpaceLimit returns the process's address-space limit (RLIMIT_AS)
// in bytes, 0 when there is none.
func addressSpaceLimit() uint64 {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || rl.Cur >= 1<<62 { // RLIM_INFINITY
		return 0
	}
	return uint64(rl.Cur)
}
