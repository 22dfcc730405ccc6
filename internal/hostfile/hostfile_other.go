//go:build !linux

package hostfile

func readRegular(buf []byte, path string, max int64) ([]byte, bool) {
	return readRegularOS(buf, path, max)
}
