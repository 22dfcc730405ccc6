//go:build !linux

package deploy

import "syscall"

// masterAttr puts an ssh master in a process group of its own.
func masterAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}
