package regularfile

// ReadFast reads the file at path, a host path, into buf (overwritten,
// grown as needed) when it is a regular file of at most max bytes that
// holds as many bytes as its size says, following symbolic links, in as
// few system calls as the operating system allows: what loading a
// thousand module files and their parse-cache entries spends most of its
// system time on when each goes through os.Open (which also sets the
// descriptor up for the poller: four fcntl calls and an epoll_ctl a file
// on Linux). The file is checked before it is opened, so that a FIFO or a
// device is never opened, and again once open. It returns false in every
// other case (a missing file, another kind of file, a file that is too
// large or changed while read, an error), and says nothing of why: the
// caller reads the file with Read or ReadFile to tell.
func ReadFast(buf []byte, path string, max int64) ([]byte, bool) {
	return readFast(buf, path, max)
}
