package main

import (
	"os"
	"os/exec"
	"testing"

	"github.com/nodegen/nodegen/internal/suitereport"
)

// TestPlatforms holds README.md's platform policy: everything builds for
// Linux on amd64 and arm64 (the nodes), and for macOS (module authors'
// and operators' laptops: eval, build, test without machines, lsp, fmt,
// options, deploy), tests included. Windows is not a target (README:
// use WSL 2). A package that only works on Linux (machines, nspawn)
// says so with a build constraint, and the command says why where it
// is left out.
func TestPlatforms(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles the module")
	}
	const suite = "platforms (GOOS/GOARCH builds)"
	goCmd := suitereport.Program(t, suite, "go", "the Go toolchain")
	for _, tc := range []struct {
		goos, goarch string
		verb         string // build: the packages; vet: the tests too
	}{
		{"linux", "arm64", "build"},
		{"darwin", "arm64", "vet"},
		{"darwin", "amd64", "build"},
	} {
		t.Run(tc.goos+"-"+tc.goarch, func(t *testing.T) {
			cmd := exec.Command(goCmd, tc.verb, "./...")
			cmd.Dir = "../.."
			cmd.Env = append(os.Environ(), "GOOS="+tc.goos, "GOARCH="+tc.goarch, "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("GOOS=%s GOARCH=%s go %s ./...: %v\n%s", tc.goos, tc.goarch, tc.verb, err, out)
			}
		})
	}
}
