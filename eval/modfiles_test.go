package eval

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/options"
)

// TestModuleFilesFailClosed: when a host module's directory cannot be
// opened as an os.Root, file() and ReadModuleFile fail; they never read
// through the unconfined file system instead.
func TestModuleFilesFailClosed(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.hcl", "option \"motd\" { type = str }\nconfig {\n  motd = file(\"motd.txt\")\n}\n")
	write("motd.txt", "hello\n")
	load := func() *Evaluator {
		ev, diags := New(Config{Files: []string{filepath.Join(dir, "main.hcl")}})
		if diags.HasErrors() {
			t.Fatal(diags.Error())
		}
		return ev
	}

	// Confined, the file is read.
	ev := load()
	v, diags := ev.Get(options.Path{"motd"})
	if diags.HasErrors() || GoValue(v) != "hello\n" {
		t.Fatalf("motd = %v, %v; want the file's text", GoValue(v), diags)
	}

	saved := openRoot
	defer func() { openRoot = saved }()
	openRoot = func(string) (*os.Root, error) { return nil, errors.New("no roots here") }

	ev = load()
	v, diags = ev.Get(options.Path{"motd"})
	if !diags.HasErrors() {
		t.Fatalf("file() read %q without a confined root", GoValue(v))
	}
	if got := diags.Error(); !strings.Contains(got, "cannot be opened as a confined root (no roots here)") {
		t.Errorf("file() error = %s; want it to say the directory cannot be confined", got)
	}
	wd, _ := os.Getwd()
	rng := hcl.Range{Filename: syntax.DisplayPath(strings.TrimPrefix(filepath.ToSlash(filepath.Join(dir, "main.hcl")), "/"), wd)}
	if b, err := ev.ReadModuleFile(rng, "motd.txt"); err == nil || !strings.Contains(err.Error(), "confined root") {
		t.Errorf("ReadModuleFile = %q, %v; want an error", b, err)
	}
}
