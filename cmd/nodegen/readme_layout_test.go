package main

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeLayout checks that the README's layout table names every
// top-level directory of the repository exactly once, and no directory
// that is gone, and that its table of internal/ names every package there,
// so that a new package is placed where a newcomer looks for it.
func TestReadmeLayout(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	start := strings.Index(text, "\n## Layout\n")
	if start < 0 {
		t.Fatal("README.md has no \"## Layout\" section")
	}
	section := text[start+1:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	rows := map[string]int{}
	for _, line := range strings.Split(section, "\n") {
		if rest, ok := strings.CutPrefix(line, "| `"); ok {
			if name, _, ok := strings.Cut(rest, "`"); ok {
				rows[name]++
			}
		}
	}
	entries, err := os.ReadDir("../..")
	if err != nil {
		t.Fatal(err)
	}
	// Directories the repository ignores (/bin/, which make build and CI
	// write) are not part of its layout.
	ignored := map[string]bool{}
	if gi, err := os.ReadFile("../../.gitignore"); err == nil {
		for _, line := range strings.Split(string(gi), "\n") {
			if name, ok := strings.CutPrefix(strings.TrimSpace(line), "/"); ok && strings.HasSuffix(name, "/") {
				ignored[strings.TrimSuffix(name, "/")] = true
			}
		}
	}
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || ignored[e.Name()] {
			continue
		}
		switch n := rows[e.Name()+"/"]; n {
		case 1:
		case 0:
			t.Errorf("README.md's layout has no row for %s/", e.Name())
		default:
			t.Errorf("README.md's layout has %d rows for %s/", n, e.Name())
		}
	}
	for name := range rows {
		if fi, err := os.Stat("../../" + name); err != nil || !fi.IsDir() {
			t.Errorf("README.md's layout has a row for %s, which is not a directory", name)
		}
	}
	// Every package under internal/ is named in the table of internal/.
	internal, err := os.ReadDir("../../internal")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range internal {
		if e.IsDir() && !strings.Contains(section, "`internal/"+e.Name()+"`") {
			t.Errorf("README.md's table of internal/ does not name internal/%s", e.Name())
		}
	}
}
