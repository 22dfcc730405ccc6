//go:build !linux

package profile

// exchangeDirs cannot swap directories in one step outside Linux.
func exchangeDirs(a, b string) error { return errExchangeUnsupported }
