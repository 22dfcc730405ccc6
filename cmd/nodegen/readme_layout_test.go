package main

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeLayout checks that the README's layout table names every
// top-level directory of the repository exactly once, so that a new package
// is placed where a newcomer looks for it.
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
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
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
}
