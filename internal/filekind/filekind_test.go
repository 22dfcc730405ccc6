package filekind

import (
	"io/fs"
	"testing"
)

func TestOf(t *testing.T) {
	for _, tt := range []struct {
		mode fs.FileMode
		want string
	}{
		{0o644, "regular file"},
		{fs.ModeDir | 0o755, "directory"},
		{fs.ModeSymlink | 0o777, "symbolic link"},
		{fs.ModeNamedPipe, "FIFO"},
		{fs.ModeSocket, "socket"},
		{fs.ModeDevice | fs.ModeCharDevice, "character device"},
		{fs.ModeDevice, "block device"},
		{fs.ModeIrregular, "special file"},
	} {
		if got := Of(tt.mode); got != tt.want {
			t.Errorf("Of(%v) = %q, want %q", tt.mode, got, tt.want)
		}
	}
}
