package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteAndReplace(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	keep := func(old fs.FileMode, exists bool) fs.FileMode {
		if exists {
			return old
		}
		return 0o644
	}
	tests := []struct {
		name     string
		write    func() error
		want     string
		wantMode fs.FileMode
	}{
		{"a new file gets the default", func() error { return Replace(name, []byte("one"), keep) }, "one", 0o644},
		{"WriteFile sets the mode", func() error { return WriteFile(name, []byte("two"), 0o600) }, "two", 0o600},
		{"Replace keeps the mode it is given", func() error { return Replace(name, []byte("three"), keep) }, "three", 0o600},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.write(); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			st, err := os.Stat(name)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want || st.Mode().Perm() != tt.wantMode {
				t.Errorf("content %q mode %v, want %q %v", got, st.Mode().Perm(), tt.want, tt.wantMode)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("%d entries in the directory, want only the file (no temporary left)", len(entries))
			}
		})
	}
	if err := WriteFile(filepath.Join(dir, "missing", "f"), nil, 0o644); err == nil {
		t.Error("WriteFile into a missing directory succeeded")
	}
}
