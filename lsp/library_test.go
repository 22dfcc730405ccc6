package lsp

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nodegen/nodegen/modules"
)

// TestLibraryDocument: go to definition on a library option writes the
// library's file, read-only; the editor opens it, and the server knows it
// for the library's: no diagnostics, and hover and definition answer from
// the library's evaluation.
func TestLibraryDocument(t *testing.T) {
	root, libDir := t.TempDir(), t.TempDir()
	src := "config \"networking\" {\n  hostName = \"kube\"\n}\n"
	if err := os.WriteFile(filepath.Join(root, "host.hcl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	rootURI := fileURI(strings.TrimPrefix(filepath.ToSlash(root), "/"))
	h := start(t, root, libDir)
	h.request("initialize", map[string]any{"rootUri": rootURI, "capabilities": map[string]any{}})
	h.notification("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": rootURI + "/host.hcl", "version": 1, "text": src}})

	out := h.request("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": rootURI + "/host.hcl"}, "position": map[string]int{"line": 1, "character": 3}})
	var def struct {
		Result []Location `json:"result"`
	}
	if len(out) != 1 || json.Unmarshal(out[0], &def) != nil || len(def.Result) != 1 {
		t.Fatalf("definition: %s", out)
	}
	libFile := filepath.Join(libDir, "config", "networking.hcl")
	libURI := fileURI(strings.TrimPrefix(filepath.ToSlash(libFile), "/"))
	if def.Result[0].URI != libURI {
		t.Fatalf("definition in %s, want %s", def.Result[0].URI, libURI)
	}
	st, err := os.Stat(libFile)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm()&0o222 != 0 {
		t.Errorf("the library's file is writable: %v", st.Mode())
	}
	data, err := os.ReadFile(libFile)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	line := strings.Count(text[:strings.Index(text, `option "hostName"`)], "\n")
	if def.Result[0].Range.Start.Line != line {
		t.Errorf("definition at line %d, want %d", def.Result[0].Range.Start.Line, line)
	}

	// Opened, it gets no diagnostics: the library is not the user's to fix.
	if out := h.notification("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": libURI, "version": 1, "text": text}}); len(out) != 0 {
		t.Errorf("didOpen of the library's file wrote %s", out)
	}
	// Hover on its declaration: the library's own explanation.
	out = h.request("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": libURI}, "position": map[string]int{"line": line, "character": 12}})
	if len(out) != 1 || !strings.Contains(string(out[0]), `networking.hostName\n\nValue:\n  \"nodegen\"`) {
		t.Errorf("hover in the library: %s", out)
	}
	// A second definition does not write the file again (it is the same).
	before := st.ModTime()
	h.request("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": rootURI + "/host.hcl"}, "position": map[string]int{"line": 1, "character": 3}})
	if st, err := os.Stat(libFile); err != nil || !st.ModTime().Equal(before) {
		t.Errorf("the library's file was written again: %v", err)
	}
}

// TestSubmoduleDeclaration: hover on the label of an option declared in a
// submodule (systemd.hcl's units' after) shows its documentation, and the
// paths it has (systemd.services."<name>".after among them); definition
// is the declaration itself.
func TestSubmoduleDeclaration(t *testing.T) {
	root, libDir := t.TempDir(), t.TempDir()
	data, err := fs.ReadFile(modules.FS(), "system/boot/systemd.hcl")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	at := strings.Index(text, `option "after"`)
	if at < 0 {
		t.Fatal(`no option "after" in systemd.hcl`)
	}
	line := strings.Count(text[:at], "\n")
	col := at - strings.LastIndex(text[:at], "\n") - 1 + len(`option "a`)
	libURI := fileURI(strings.TrimPrefix(filepath.ToSlash(filepath.Join(libDir, "system", "boot", "systemd.hcl")), "/"))
	h := start(t, root, libDir)
	h.request("initialize", map[string]any{"capabilities": map[string]any{"general": map[string]any{"positionEncodings": []string{"utf-8"}}}})
	h.notification("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": libURI, "version": 1, "text": text}})
	pos := map[string]any{"textDocument": map[string]any{"uri": libURI}, "position": map[string]int{"line": line, "character": col}}
	out := h.request("textDocument/hover", pos)
	if len(out) != 1 || !strings.Contains(string(out[0]), `.after** (list of systemd unit name)`) || !strings.Contains(string(out[0]), "`systemd.services.\\\"<name>\\\".after`") {
		t.Errorf("hover: %s", out)
	}
	out = h.request("textDocument/definition", pos)
	var def struct {
		Result []Location `json:"result"`
	}
	if len(out) != 1 || json.Unmarshal(out[0], &def) != nil || len(def.Result) != 1 || def.Result[0].URI != libURI || def.Result[0].Range.Start.Line != line {
		t.Errorf("definition: %s", out)
	}
}
