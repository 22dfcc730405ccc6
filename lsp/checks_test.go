package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nodegen/nodegen/internal/suitereport"
)

// TestSaveRunsChecksOnlyWhenEnabled (N16): a module's check of a generated
// file is a script of the module's choosing; a save runs it only when the
// client's initializationOptions.checks enables the checks, and a mode the
// server does not know is refused at initialize.
func TestSaveRunsChecksOnlyWhenEnabled(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		suitereport.Skip(t, "lsp checks on save", "no /bin/sh to run a check with")
	}
	tests := []struct {
		name    string
		options map[string]any // initializationOptions; nil: none
		ran     bool
		refused string // the initialize error, if any
	}{
		{"no options", nil, false, ""},
		{"no checks option", map[string]any{"hosts": []string{}}, false, ""},
		{"off", map[string]any{"checks": "off"}, false, ""},
		{"auto", map[string]any{"checks": "auto"}, true, ""},
		{"required", map[string]any{"checks": "required"}, true, ""},
		{"unknown", map[string]any{"checks": "always"}, false, `initializationOptions.checks: want auto, required or off, not \"always\"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			mark := filepath.Join(t.TempDir(), "ran")
			src := fmt.Sprintf("config \"environment.etc.\\\"x.conf\\\"\" {\n  text   = \"hello\\n\"\n  checks = [{ programs = [\"/bin/sh\"], script = \"echo ran > %s\" }]\n}\n", mark)
			if err := os.WriteFile(filepath.Join(root, "host.hcl"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			rootURI := fileURI(strings.TrimPrefix(filepath.ToSlash(root), "/"))
			uri := rootURI + "/host.hcl"
			h := start(t, root, t.TempDir())
			params := map[string]any{"rootUri": rootURI, "capabilities": map[string]any{}}
			if tt.options != nil {
				params["initializationOptions"] = tt.options
			}
			answer := h.request("initialize", params)
			if tt.refused != "" {
				if len(answer) != 1 || !strings.Contains(string(answer[0]), tt.refused) {
					t.Fatalf("initialize answered %q, want an error with %q", answer, tt.refused)
				}
				return
			}
			h.notification("initialized", map[string]any{})
			h.notification("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "hcl", "version": 1, "text": src}})
			published := h.notification("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": uri}})
			if len(published) == 0 {
				t.Fatal("the save published no diagnostics: the host was not evaluated")
			}
			for _, p := range published {
				if !json.Valid(p) {
					t.Fatalf("not JSON: %s", p)
				}
			}
			_, err := os.Stat(mark)
			if ran := err == nil; ran != tt.ran {
				t.Errorf("the module's check script ran: %v, want %v", ran, tt.ran)
			}
		})
	}
}
