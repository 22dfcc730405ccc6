package main

import (
	"debug/elf"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/nodegen/nodegen/internal/suitereport"
)

// TestMakeBuildIsStatic builds the command as `make build` does and checks
// that the executable needs no dynamic loader and no shared library: one
// file to copy to a machine, whatever C library it has (or none), and no
// loader to run at every start.
func TestMakeBuildIsStatic(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	const suite = "make build (cmd/nodegen)"
	if runtime.GOOS != "linux" {
		suitereport.Skip(t, suite, "checks an ELF executable")
	}
	makeCmd := suitereport.Program(t, suite, "make", "Debian's make")
	goCmd := suitereport.Program(t, suite, "go", "the Go toolchain")
	bin := filepath.Join(t.TempDir(), "nodegen")
	build := exec.Command(makeCmd, "-C", "../..", "build", "BIN="+bin, "GO="+goCmd)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the executable names a dynamic loader (PT_INTERP): it is not static")
		}
	}
	libs, err := f.ImportedLibraries()
	if err != nil {
		t.Fatal(err)
	}
	if len(libs) > 0 {
		t.Errorf("the executable needs shared libraries: %v", libs)
	}
}
