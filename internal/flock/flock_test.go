//go:build unix

package flock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestLock: a lock held through one open file makes TryLock through
// another fail with ErrHeld, for a file and for a directory, until it is
// released by Unlock or by closing the file.
func TestLock(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "lock")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		release    func(*os.File) error
	}{
		{"file, unlocked", file, Unlock},
		{"file, closed", file, (*os.File).Close},
		{"directory, unlocked", dir, Unlock},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := os.Open(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			b, err := os.Open(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if err := Lock(a); err != nil {
				t.Fatalf("Lock: %v", err)
			}
			if err := TryLock(b); !errors.Is(err, ErrHeld) {
				t.Fatalf("TryLock while held = %v, want ErrHeld", err)
			}
			if err := tc.release(a); err != nil {
				t.Fatalf("release: %v", err)
			}
			if err := TryLock(b); err != nil {
				t.Fatalf("TryLock after release = %v, want nil", err)
			}
		})
	}
}
