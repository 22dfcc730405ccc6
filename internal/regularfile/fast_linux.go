package regularfile

import (
	"slices"
	"syscall"
)

func readFast(buf []byte, path string, max int64) ([]byte, bool) {
	var st syscall.Stat_t
	if retry(func() error { return syscall.Stat(path, &st) }) != nil || !fits(&st, max) {
		return buf, false
	}
	var fd int
	err := retry(func() (err error) {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOCTTY|syscall.O_NONBLOCK, 0)
		return err
	})
	if err != nil {
		return buf, false
	}
	defer syscall.Close(fd)
	if retry(func() error { return syscall.Fstat(fd, &st) }) != nil || !fits(&st, max) {
		return buf, false
	}
	// Room for one byte more than the size, to tell a file that grew.
	size := int(st.Size)
	buf = slices.Grow(buf[:0], size+1)[:size+1]
	n := 0
	for {
		m, err := syscall.Read(fd, buf[n:])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return buf[:0], false
		case m == 0:
			return buf[:n], n == size
		}
		n += m
		if n > size {
			return buf[:0], false
		}
	}
}

// fits reports whether st is a regular file of at most max bytes.
func fits(st *syscall.Stat_t, max int64) bool {
	return st.Mode&syscall.S_IFMT == syscall.S_IFREG && st.Size <= max
}

// retry calls f again as long as a signal interrupts it.
func retry(f func() error) error {
	for {
		if err := f(); err != syscall.EINTR {
			return err
		}
	}
}
