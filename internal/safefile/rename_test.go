//go:build linux

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestRenames: RenameNoReplace renames onto a free name and leaves both
// entries as they were when the name is taken; Exchange swaps two
// entries; both work through a Dir that DirOf made of a directory the
// caller opened, and refuse paths.
func TestRenames(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string // before
		op      func(d *Dir) error
		wantErr error // errors.Is; nil for none
		want    map[string]string
	}{
		{
			name:  "no replace, free name",
			files: map[string]string{"tmp": "new"},
			op:    func(d *Dir) error { return d.RenameNoReplace("tmp", "conf") },
			want:  map[string]string{"conf": "new"},
		},
		{
			name:    "no replace, name taken",
			files:   map[string]string{"tmp": "new", "conf": "admin"},
			op:      func(d *Dir) error { return d.RenameNoReplace("tmp", "conf") },
			wantErr: fs.ErrExist,
			want:    map[string]string{"tmp": "new", "conf": "admin"},
		},
		{
			name:  "exchange",
			files: map[string]string{"tmp": "new", "conf": "old"},
			op:    func(d *Dir) error { return d.Exchange("tmp", "conf") },
			want:  map[string]string{"tmp": "old", "conf": "new"},
		},
		{
			name:    "exchange with nothing",
			files:   map[string]string{"tmp": "new"},
			op:      func(d *Dir) error { return d.Exchange("tmp", "conf") },
			wantErr: fs.ErrNotExist,
			want:    map[string]string{"tmp": "new"},
		},
		{
			name:    "a path is not a name",
			files:   map[string]string{"tmp": "new"},
			op:      func(d *Dir) error { return d.RenameNoReplace("tmp", "../conf") },
			wantErr: errNotAName,
			want:    map[string]string{"tmp": "new"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for n, text := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, n), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			f, err := os.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			d, err := DirOf(f)
			f.Close() // the Dir has its own descriptor
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			err = tt.op(d)
			switch {
			case tt.wantErr == errNotAName:
				if err == nil {
					t.Errorf("no error, want one for a path")
				}
			case tt.wantErr == nil && err != nil, tt.wantErr != nil && !errors.Is(err, tt.wantErr):
				t.Errorf("error %v, want %v", err, tt.wantErr)
			}
			if err := d.Sync(); err != nil {
				t.Error(err)
			}
			got := map[string]string{}
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
				got[e.Name()] = string(b)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("entries %v, want %v", got, tt.want)
			}
			for n, w := range tt.want {
				if got[n] != w {
					t.Errorf("%s = %q, want %q", n, got[n], w)
				}
			}
		})
	}
}

// errNotAName stands for the error of a name that is a path.
var errNotAName = errors.New("not a name")

// TestDirOfAFile: DirOf refuses a descriptor that is not a directory.
func TestDirOfAFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if d, err := DirOf(f); err == nil {
		d.Close()
		t.Fatal("DirOf of a regular file: no error")
	}
}

// TestMoveNoReplace moves an entry to another directory onto a free name,
// and refuses a taken one, leaving both as they were.
func TestMoveNoReplace(t *testing.T) {
	base := t.TempDir()
	open := func(name string) *Dir {
		t.Helper()
		d, err := MkdirAll(filepath.Join(base, name), 0o755)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		return d
	}
	from, to := open("backups"), open("etc")
	for _, p := range []string{"backups/motd", "backups/issue", "etc/issue"} {
		if err := os.WriteFile(filepath.Join(base, p), []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := from.MoveNoReplace("motd", to, "motd"); err != nil {
		t.Fatal(err)
	}
	if err := from.MoveNoReplace("issue", to, "issue"); !errors.Is(err, fs.ErrExist) {
		t.Errorf("moving onto a taken name: %v, want it to exist", err)
	}
	for p, want := range map[string]string{"etc/motd": "backups/motd", "etc/issue": "etc/issue", "backups/issue": "backups/issue"} {
		if b, err := os.ReadFile(filepath.Join(base, p)); err != nil || string(b) != want {
			t.Errorf("%s = %q %v, want %q", p, b, err, want)
		}
	}
}
