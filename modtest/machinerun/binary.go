//go:build linux

package machinerun

import (
	"bufio"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/nodegen/nodegen/internal/machine"
)

// modulePath is the module whose cmd/nodegen StaticBinary builds.
const modulePath = "github.com/nodegen/nodegen"

// IsStatic reports whether the executable at path is a static ELF
// executable: no dynamic loader, no shared library. Such a file runs in
// any Linux machine, whatever its C library.
func IsStatic(path string) bool {
	f, err := elf.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return false
		}
	}
	libs, err := f.ImportedLibraries()
	return err == nil && len(libs) == 0
}

// StaticBinary returns a static nodegen executable to copy into machines:
// exe (the running command) when it is static (make build makes it so);
// otherwise one built with CGO_ENABLED=0 from the nodegen module that the
// working directory is in (go run, go build without CGO_ENABLED=0), once
// per version of exe, cached in cacheDir.
func StaticBinary(exe, cacheDir string) (string, error) {
	if IsStatic(exe) {
		return exe, nil
	}
	src, err := moduleRoot()
	if err != nil {
		return "", fmt.Errorf("%s is not a static executable, and %v to build one: build nodegen with make build (CGO_ENABLED=0)", exe, err)
	}
	sum, err := fileHash(exe)
	if err != nil {
		return "", err
	}
	out := filepath.Join(cacheDir, "bin", "nodegen-static-"+sum)
	if IsStatic(out) {
		return out, nil
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return "", err
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("%s is not a static executable, and there is no go command to build one: build nodegen with make build (CGO_ENABLED=0)", exe)
	}
	tmp := fmt.Sprintf("%s.tmp-%d", out, os.Getpid())
	defer os.Remove(tmp)
	if err := machine.RunBounded(5*time.Minute, src, []string{"CGO_ENABLED=0"}, goTool, "build", "-trimpath", "-o", tmp, "./cmd/nodegen"); err != nil {
		return "", fmt.Errorf("building a static nodegen in %s: %v", src, err)
	}
	if err := os.Rename(tmp, out); err != nil {
		return "", err
	}
	return out, nil
}

// moduleRoot finds the nodegen module the working directory is in.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if isModule(filepath.Join(dir, "go.mod")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("the working directory is not in the source of %s", modulePath)
		}
		dir = parent
	}
}

func isModule(gomod string) bool {
	f, err := os.Open(gomod)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) == 2 && fields[0] == "module" {
			return fields[1] == modulePath
		}
	}
	return false
}

func fileHash(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}
