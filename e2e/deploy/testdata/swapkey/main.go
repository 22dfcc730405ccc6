// Command swapkey is the attacker of TestKeyRaceSwap: run by the owner of
// a key's directory, it watches the directory with inotify and, when a
// file whose name starts with PREFIX appears, renames it away and puts a
// symbolic link to TARGET in its place, as fast as it can: the race that
// putKey's shell script lost (N1). It writes READY once it watches, and
// prints "swapped NAME" when it swapped.
//
//	swapkey DIR PREFIX TARGET READY
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

func main() {
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: swapkey DIR PREFIX TARGET READY")
		os.Exit(2)
	}
	dir, prefix, target, ready := os.Args[1], os.Args[2], os.Args[3], os.Args[4]
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC)
	if err != nil {
		fail(err)
	}
	if _, err := unix.InotifyAddWatch(fd, dir, unix.IN_CREATE); err != nil {
		fail(err)
	}
	if err := os.WriteFile(ready, nil, 0o644); err != nil {
		fail(err)
	}
	buf := make([]byte, 4096)
	for {
		n, err := unix.Read(fd, buf)
		if err != nil {
			fail(err)
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := strings.TrimRight(string(buf[off+unix.SizeofInotifyEvent:off+unix.SizeofInotifyEvent+int(ev.Len)]), "\x00")
			off += unix.SizeofInotifyEvent + int(ev.Len)
			if !strings.HasPrefix(name, prefix) || strings.HasSuffix(name, ".away") {
				continue
			}
			p := filepath.Join(dir, name)
			if os.Rename(p, p+".away") == nil && os.Symlink(target, p) == nil {
				fmt.Println("swapped", name)
				return
			}
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "swapkey:", err)
	os.Exit(1)
}
