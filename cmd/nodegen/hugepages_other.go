//go:build !linux

package main

// useHugePages does nothing outside Linux.
func useHugePages(limit int64) {}
