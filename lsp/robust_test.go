package lsp

import (
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/nodegen/nodegen/modules"
)

// TestEveryPosition asks for hover, completion, definition and references
// at every position of the recorded sessions' modules, in both encodings,
// and at positions past the ends: no request may panic (the server would
// answer an internal error) or fail.
func TestEveryPosition(t *testing.T) {
	if testing.Short() {
		t.Skip("asks at every position")
	}
	archives, _ := filepath.Glob("testdata/*.txtar")
	for _, name := range archives {
		ar, err := txtar.ParseFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if !strings.HasSuffix(f.Name, ".hcl") {
				continue
			}
			for _, enc := range []string{"utf-8", "utf-16"} {
				t.Run(filepath.Base(name)+"/"+f.Name+"/"+enc, func(t *testing.T) {
					everyPosition(t, f.Name, string(f.Data), enc)
				})
			}
		}
	}
}

func everyPosition(t *testing.T, name, src, enc string) {
	root := t.TempDir()
	s := New(Options{Library: modules.FS(), ParseCache: testParseCache(), LibraryDir: t.TempDir()}, io.Discard)
	call := func(method string, params any) {
		b, _ := json.Marshal(params)
		if _, rerr := handlers[method](s, b); rerr != nil {
			t.Fatalf("%s %s: %s", method, b, rerr.Message)
		}
	}
	uri := fileURI(strings.TrimPrefix(filepath.ToSlash(root), "/")) + "/" + name
	call("initialize", map[string]any{"capabilities": map[string]any{"general": map[string]any{"positionEncodings": []string{enc}}}})
	call("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 1, "text": src}})
	s.checkDirty()
	lines := strings.Split(src, "\n")
	for l := 0; l <= len(lines); l++ {
		width := 2
		if l < len(lines) {
			width += len(lines[l])
		}
		for c := 0; c <= width; c++ {
			pos := map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]int{"line": l, "character": c}}
			for _, m := range []string{"textDocument/hover", "textDocument/completion", "textDocument/definition"} {
				call(m, pos)
			}
			pos["context"] = map[string]bool{"includeDeclaration": true}
			call("textDocument/references", pos)
		}
	}
	call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}})
}
