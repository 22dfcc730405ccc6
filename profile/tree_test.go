package profile

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPlanTree(t *testing.T) {
	entry := func(target string) Entry { return Entry{Target: target, Mode: "0644"} }
	tests := []struct {
		name    string
		entries []Entry // sorted by target
		want    []string
	}{
		{"none", nil, nil},
		{"flat", []Entry{entry("a"), entry("b")}, []string{"0 etc: a b"}},
		{
			"nested",
			[]Entry{entry("a/b/c"), entry("a/d"), entry("b"), entry("e/f/g/h")},
			[]string{"0 etc: b", "1 etc/a: a/d", "2 etc/a/b: a/b/c", "3 etc/e:", "4 etc/e/f:", "5 etc/e/f/g: e/f/g/h"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			top, njobs := planTree("etc", tt.entries)
			var got []string
			var walk func(j *dirJob)
			walk = func(j *dirJob) {
				line := fmt.Sprintf("%d %s:", j.order, j.path)
				for _, e := range j.entries {
					line += " " + e.Target
				}
				got = append(got, line)
				for _, c := range j.children {
					walk(c)
				}
			}
			if top != nil {
				walk(top)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
			if njobs != len(tt.want) {
				t.Errorf("%d jobs, want %d", njobs, len(tt.want))
			}
		})
	}
}

// wideProfile has files and symlinks in many directories, nested, as the
// goroutines of createTree share them out.
func wideProfile() Profile {
	var p Profile
	for i := range 12 {
		for j := range 4 {
			dir := fmt.Sprintf("d%02d/s%d", i, j)
			if j%2 == 1 {
				dir = fmt.Sprintf("d%02d/s%d/deeper/still", i, j)
			}
			for k := range 3 {
				p.Entries = append(p.Entries,
					Entry{Target: fmt.Sprintf("%s/f%d", dir, k), Content: []byte(dir + "\n"), Mode: fmt.Sprintf("06%d0", k*2)},
					Entry{Target: fmt.Sprintf("%s/l%d", dir, k), Link: "/etc/" + dir, Mode: TypeSymlink})
			}
		}
		p.Entries = append(p.Entries, Entry{Target: fmt.Sprintf("d%02d/top", i), Content: []byte("x"), Mode: "0755"})
	}
	return p
}

// TestWriteWideTree checks every entry of a profile of many directories
// against what was asked, and that one goroutine writes the same tree.
func TestWriteWideTree(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "result")
	p := wideProfile()
	mustWrite(t, dir, p)
	got := snapshot(t, dir)
	for _, e := range p.Entries {
		rel := filepath.Join("etc", e.Target)
		want := "symlink " + e.Link
		if e.Mode != TypeSymlink {
			mode, _ := strconv.ParseUint(e.Mode, 8, 32)
			want = "file " + fs.FileMode(mode).String() + " " + string(e.Content)
		}
		if got[rel] != want {
			t.Errorf("%s is %q, want %q", rel, got[rel], want)
		}
		for d := filepath.Dir(rel); d != "."; d = filepath.Dir(d) {
			if got[d] != "dir -rwxr-xr-x" {
				t.Errorf("%s is %q, want a directory 0755", d, got[d])
			}
		}
	}
	var dirs int
	for _, s := range got {
		if strings.HasPrefix(s, "dir ") {
			dirs++
		}
	}
	if want := len(p.Entries) + 1 + dirs; len(got) != want { // and the manifest
		t.Errorf("%d paths, want %d", len(got), want)
	}
}

// TestCreateTreeFirstError checks that of two entries that fail in
// different directories, the error reported is that of the directory
// first in the plan, whichever goroutine fails first.
func TestCreateTreeFirstError(t *testing.T) {
	p := wideProfile()
	early, late := "d01/s1/deeper/still/l2", "d03/s0/f1"
	errEarly, errLate := errors.New("early"), errors.New("late")
	setFailpoint(t, func(stage string) error {
		switch stage {
		case "entry " + early:
			return errEarly
		case "entry " + late:
			return errLate
		}
		return nil
	})
	for i := range 20 {
		err := Write(filepath.Join(t.TempDir(), "result"), p)
		if !errors.Is(err, errEarly) {
			t.Fatalf("write %d: %v, want the error of %s", i, err, early)
		}
	}
}
