//go:build !unix

package profile

// lockDir does nothing where flock is not available.
func lockDir(dir string) func() { return func() {} }
