package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocFileMap fails when a file of the package is missing from the file
// map in doc.go, so that the map a newcomer reads stays complete.
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
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		if !strings.Contains(section, " "+f) {
			t.Errorf("doc.go's file map does not name %s: place it under its phase", f)
		}
	}
}
