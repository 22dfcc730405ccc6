//go:build !linux

package runtimetune

// useHugePages does nothing outside Linux: it marks no range.
func useHugePages(limit int64) (from, to uintptr) { return 0, 0 }
