package optionsite

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nodegen/nodegen/internal/atomicfile"
)

// The page and what it inlines.
var (
	//go:embed page/page.html
	pageHTML string
	//go:embed page/page.css
	pageCSS string
	//go:embed page/page.js
	pageJS string
)

// The files Write writes into its directory.
const (
	PageFile      = "options.html"
	IndexJSONFile = "options-index.json"
	IndexJSFile   = "options-index.js"
)

// IndexGlobal is the global variable options-index.js sets to the index.
const IndexGlobal = "NODEGEN_OPTIONS"

// Page is the HTML page, its style and script inline. It is the same for
// every index.
func Page() []byte {
	page := strings.Replace(pageHTML, "/*STYLE*/\n", pageCSS, 1)
	page = strings.Replace(page, "/*SCRIPT*/\n", pageJS, 1)
	return []byte(page)
}

// Files are the site's files for idx, by name.
func Files(idx Index) (map[string][]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(idx); err != nil {
		return nil, err
	}
	js := append([]byte("window."+IndexGlobal+" = "), bytes.TrimRight(buf.Bytes(), "\n")...)
	js = append(js, ";\n"...)
	return map[string][]byte{
		PageFile:      Page(),
		IndexJSONFile: buf.Bytes(),
		IndexJSFile:   js,
	}, nil
}

// Write writes the site for idx into dir, which it makes when missing:
// each file through a temporary file in dir renamed over it, so that a
// reader sees the old file or the new one, never a part.
func Write(dir string, idx Index) error {
	files, err := Files(idx)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	// The index first, the page last: a page never loads an index older
	// than itself.
	for _, name := range []string{IndexJSONFile, IndexJSFile, PageFile} {
		if err := writeAtomic(filepath.Join(dir, name), files[name]); err != nil {
			return err
		}
	}
	return nil
}

func writeAtomic(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
