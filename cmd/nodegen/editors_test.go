package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/suitereport"
)

// neovimCheck runs in Neovim after the set-up: it waits for the server,
// asks for a hover on networking.hostName, and writes what it found to
// $OUT before quitting.
const neovimCheck = `
local out = os.getenv("OUT")
local function finish(lines)
  vim.fn.writefile(lines, out)
  vim.cmd("qall!")
end
local function check(tries)
  local clients = vim.lsp.buf_get_clients(0)
  local n, root = 0, ""
  for _, c in pairs(clients) do
    n, root = n + 1, tostring(c.config.root_dir)
  end
  local diags = vim.diagnostic.get(0)
  if (n == 0 or #diags == 0) and tries > 0 then
    return vim.defer_fn(function() check(tries - 1) end, 250)
  end
  local lines = { "filetype " .. vim.bo.filetype, "clients " .. n, "root " .. root }
  for _, d in ipairs(diags) do
    table.insert(lines, "diagnostic " .. d.lnum .. " " .. vim.split(d.message, "\n")[1])
  end
  if n > 0 then
    local params = { textDocument = { uri = vim.uri_from_bufnr(0) }, position = { line = 1, character = 4 } }
    for _, r in pairs(vim.lsp.buf_request_sync(0, "textDocument/hover", params, 20000) or {}) do
      if r.result and r.result.contents then
        table.insert(lines, "hover " .. vim.split(r.result.contents.value, "\n")[2])
      end
    end
  end
  finish(lines)
end
check(120)
`

var nvimVersion = regexp.MustCompile(`NVIM v0\.(\d+)\.`)

// TestNeovimSetUp runs the Neovim set-up of docs/editors.md that fits the
// Neovim installed (0.7: vim.lsp.start_client; 0.8 to 0.10:
// vim.lsp.start; 0.11 and later: vim.lsp.config) headless, against this
// nodegen's language server: the .hcl buffer gets the filetype hcl and one
// client rooted at the workspace, a misspelt option is a diagnostic, and a
// hover on an option answers with its path.
func TestNeovimSetUp(t *testing.T) {
	nvim := suitereport.Program(t, "Neovim runs the set-up of docs/editors.md", "nvim", "Debian's neovim")
	out, err := exec.Command(nvim, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	m := nvimVersion.FindSubmatch(out)
	if m == nil {
		t.Fatalf("nvim --version: %q", out)
	}
	minor, _ := strconv.Atoi(string(m[1]))
	marker := "vim.lsp.config("
	switch {
	case minor < 8:
		marker = "vim.lsp.start_client("
	case minor < 11:
		marker = "vim.lsp.start("
	}
	src, err := os.ReadFile("../../docs/editors.md")
	if err != nil {
		t.Fatal(err)
	}
	var setup string
	for _, b := range fencedBlocks(string(src)) {
		if b.lang == "lua" && strings.Contains(b.body, marker) {
			setup = b.body
		}
	}
	if setup == "" {
		t.Fatalf("docs/editors.md has no Lua set-up with %s, for Neovim 0.%d", marker, minor)
	}

	// nodegen in PATH: this test binary, which runs as nodegen under that
	// name (TestMain).
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	ws := filepath.Join(dir, "ws")
	for _, d := range []string{bin, filepath.Join(ws, ".git"), filepath.Join(ws, "hosts")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(self, filepath.Join(bin, "nodegen")); err != nil {
		t.Fatal(err)
	}
	write := func(p, text string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(ws, "hosts/web.hcl"), "config \"networking\" {\n  hostName = \"web01\"\n  domian   = \"example.com\"\n}\n")
	write(filepath.Join(dir, "init.lua"), setup)
	write(filepath.Join(dir, "check.lua"), neovimCheck)

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	result := filepath.Join(dir, "result")
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-i", "NONE", "-u", filepath.Join(dir, "init.lua"),
		"-c", "luafile "+filepath.Join(dir, "check.lua"), "hosts/web.hcl")
	cmd.Dir = ws
	cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "OUT="+result, "XDG_STATE_HOME="+dir, "XDG_CACHE_HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim (0.%d): %v\n%s", minor, err, out)
	}
	got, err := os.ReadFile(result)
	if err != nil {
		t.Fatalf("nvim wrote no result: %v", err)
	}
	text := string(got)
	for _, want := range []string{
		"filetype hcl\n",
		"clients 1\n",
		"root " + ws + "\n",
		"diagnostic 2 Option \"networking.domian\" does not exist",
		"hover networking.hostName\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("Neovim 0.%d with the set-up of docs/editors.md: no %q in\n%s", minor, want, text)
		}
	}
}
