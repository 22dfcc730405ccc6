package deploy

import "syscall"

// masterAttr puts an ssh master in a process group of its own, ended with
// the deployer.
func masterAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
