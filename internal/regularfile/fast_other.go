//go:build !linux

package regularfile

func readFast(buf []byte, path string, max int64) ([]byte, bool) {
	return readFastOS(buf, path, max)
}
