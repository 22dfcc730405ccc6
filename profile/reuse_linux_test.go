package profile

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"github.com/nodegen/nodegen/internal/suitereport"
)

// inode returns the inode number of p (not followed).
func inode(t *testing.T, p string) uint64 {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Sys().(*syscall.Stat_t).Ino
}

// TestWriteReusesUnchangedEntries checks which entries of the profile a
// Write replaces become names of the new profile (the same inode) and
// which are created anew: only a file with the same content, mode and
// owner and no other name, or a symlink with the same target, is taken,
// whatever was done to the old profile since it was written; and the new
// profile is the same as one written where there was none.
func TestWriteReusesUnchangedEntries(t *testing.T) {
	entry := func(target, content, mode string) Entry {
		return Entry{Target: target, Content: []byte(content), Mode: mode, Option: "o"}
	}
	link := func(target, to string) Entry {
		return Entry{Target: target, Link: to, Mode: TypeSymlink, Option: "o"}
	}
	tests := []struct {
		name   string
		old    Entry
		new    Entry
		tamper func(t *testing.T, old, outside string) // old: the entry's path in the old profile
		reused bool
	}{
		{name: "same file", old: entry("a/same", "text\n", "0644"), new: entry("a/same", "text\n", "0644"), reused: true},
		{name: "same executable", old: entry("b/run", "#!/bin/sh\n", "0755"), new: entry("b/run", "#!/bin/sh\n", "0755"), reused: true},
		{name: "same empty file", old: entry("empty", "", "0600"), new: entry("empty", "", "0600"), reused: true},
		{name: "same symlink", old: link("a/link", "/usr/share/x"), new: link("a/link", "/usr/share/x"), reused: true},
		{name: "other content, same size", old: entry("a/c", "one\n", "0644"), new: entry("a/c", "two\n", "0644")},
		{name: "other size", old: entry("a/s", "one\n", "0644"), new: entry("a/s", "three\n", "0644")},
		{name: "other mode", old: entry("a/m", "x", "0644"), new: entry("a/m", "x", "0600")},
		{name: "other link target", old: link("a/l", "/one"), new: link("a/l", "/two")},
		{name: "file becomes symlink", old: entry("a/k", "/one", "0644"), new: link("a/k", "/one")},
		{name: "symlink becomes file", old: link("a/j", "/one"), new: entry("a/j", "/one", "0644")},
		{
			name: "changed in place since", old: entry("c/edited", "text\n", "0644"), new: entry("c/edited", "text\n", "0644"),
			tamper: func(t *testing.T, old, _ string) {
				chmod(t, old, 0o644)
				if err := os.WriteFile(old, []byte("TEXT\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
		},
		{
			name: "mode changed since", old: entry("c/chmod", "text\n", "0644"), new: entry("c/chmod", "text\n", "0644"),
			tamper: func(t *testing.T, old, _ string) { chmod(t, old, 0o664) },
		},
		{
			name: "an extended attribute since", old: entry("c/xattr", "text\n", "0644"), new: entry("c/xattr", "text\n", "0644"),
			tamper: func(t *testing.T, old, _ string) {
				if err := unix.Setxattr(old, "user.note", []byte("set by hand"), 0); err != nil {
					suitereport.Skip(t, "file system features (profile)", fmt.Sprintf("no user extended attributes here: %v", err))
				}
			},
		},
		{
			name: "another name outside", old: entry("d/shared", "text\n", "0644"), new: entry("d/shared", "text\n", "0644"),
			tamper: func(t *testing.T, old, outside string) {
				if err := os.Link(old, filepath.Join(outside, "shared")); err != nil {
					t.Fatal(err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			dir, outside := filepath.Join(base, "result"), filepath.Join(base, "outside")
			if err := os.Mkdir(outside, 0o755); err != nil {
				t.Fatal(err)
			}
			mustWrite(t, dir, Profile{Entries: []Entry{tt.old}})
			oldPath := filepath.Join(dir, "etc", filepath.FromSlash(tt.old.Target))
			if tt.tamper != nil {
				tt.tamper(t, oldPath, outside)
			}
			var oldIno uint64
			if _, err := os.Lstat(oldPath); err == nil {
				oldIno = inode(t, oldPath)
			}
			outsideBefore := snapshot(t, outside)

			mustWrite(t, dir, Profile{Entries: []Entry{tt.new}})

			newIno := inode(t, filepath.Join(dir, "etc", filepath.FromSlash(tt.new.Target)))
			if got := newIno == oldIno; got != tt.reused {
				t.Errorf("the old entry reused: %v, want %v", got, tt.reused)
			}
			want := filepath.Join(base, "want")
			mustWrite(t, want, Profile{Entries: []Entry{tt.new}})
			if diff := cmp.Diff(snapshot(t, want), snapshot(t, dir)); diff != "" {
				t.Errorf("the profile differs from one written anew (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(outsideBefore, snapshot(t, outside)); diff != "" {
				t.Errorf("the files outside the profile changed (-before +after):\n%s", diff)
			}
			if tt.reused {
				fi, err := os.Lstat(filepath.Join(dir, "etc", filepath.FromSlash(tt.new.Target)))
				if err != nil {
					t.Fatal(err)
				}
				if n := fi.Sys().(*syscall.Stat_t).Nlink; n != 1 {
					t.Errorf("the reused entry has %d names once the old profile is gone, want 1", n)
				}
			}
		})
	}
}

// TestWriteReusesWholeProfile replaces a profile by itself: every file and
// symlink is the old one's, and the tree and manifest are the same.
func TestWriteReusesWholeProfile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "result")
	mustWrite(t, dir, sample())
	before := snapshot(t, dir)
	inodes := map[string]uint64{}
	for _, e := range sample().Entries {
		inodes[e.Target] = inode(t, filepath.Join(dir, "etc", filepath.FromSlash(e.Target)))
	}
	mustWrite(t, dir, sample())
	if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
		t.Errorf("the profile changed (-before +after):\n%s", diff)
	}
	for _, e := range sample().Entries {
		if e.Mode == "0000" && os.Geteuid() != 0 {
			continue // unreadable, so not compared, so created anew
		}
		if got := inode(t, filepath.Join(dir, "etc", filepath.FromSlash(e.Target))); got != inodes[e.Target] {
			t.Errorf("%s: created anew, want the old profile's", e.Target)
		}
	}
}

func chmod(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}
