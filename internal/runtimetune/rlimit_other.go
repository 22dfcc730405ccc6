//go:build !unix

package runtimetune

// addressSpaceLimit is not known outside Unix: no limit.
func addressSpaceLimit() uint64 { return 0 }
