//go:build unix

package lib

import "syscall"

const oNonblock = syscall.O_NONBLOCK
