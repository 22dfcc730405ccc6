// Package filekind names the type of a file for messages, as ls and stat
// do: "regular file", "directory", "symbolic link" and so on.
package filekind

import "io/fs"

// Of names the type of a file mode for messages: "regular file",
// "FIFO", "character device" and so on.
func Of(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "regular file"
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	}
	return "special file"
}
