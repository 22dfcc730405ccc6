package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocFileMap fails when a file of the package, or of its internal
// packages, is missing from the file map in doc.go, so that the map a
// newcomer reads stays complete.
func TestDocFileMap(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	start := strings.Index(text, "// # The file map")
	if start < 0 {
		t.Fatal("doc.go has no \"# The file map\" section")
	}
	section := text[start:]
	if end := strings.Index(section[1:], "// # "); end >= 0 {
		section = section[:end+1]
	}
	// The package's files, and the internal packages' (each in the item
	// of its package).
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	internal, err := filepath.Glob("internal/*/*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append(files, internal...) {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		dir, base := filepath.Split(f)
		if dir == "" {
			if !strings.Contains(section, " "+f) {
				t.Errorf("doc.go's file map does not name %s: place it under its phase", f)
			}
			continue
		}
		item := "//   - " + strings.TrimSuffix(dir, "/") + ":"
		at := strings.Index(section, item)
		if at < 0 {
			t.Errorf("doc.go's file map has no item for %s", dir)
			continue
		}
		item = section[at:]
		if end := strings.Index(item[1:], "//   - "); end >= 0 {
			item = item[:end+1]
		}
		if !strings.Contains(item, " "+base) {
			t.Errorf("doc.go's file map does not name %s in the item of its package", f)
		}
	}
}
