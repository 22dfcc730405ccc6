package safefile

import "golang.org/x/sys/unix"

// openBeneath opens the directory at the relative path name below dir
// with openat2, which refuses every symbolic link on the way (and
// leaving dir); ENOSYS before Linux 5.6.
func openBeneath(dir int, name string) (int, error) {
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = unix.Openat2(dir, name, &how)
		return err
	})
	return fd, err
}
