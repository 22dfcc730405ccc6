//go:build linux

package nspawntest

import (
	"errors"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/machine"
	"github.com/nodegen/nodegen/internal/suitereport"
)

// staticBuildTimeout bounds one go build.
const staticBuildTimeout = 5 * time.Minute

// binDirPrefix starts the names of the temporary directories BuildStatic
// builds into, followed by the test process's PID.
const binDirPrefix = "nodegen-nspawntest-bin-"

// staticBuild is the build of one package, made once per test process.
type staticBuild struct {
	once sync.Once
	path string
	err  error
}

var (
	staticBuilds sync.Map // package → *staticBuild

	binDirOnce sync.Once
	binDir     string
	binDirErr  error
)

// BuildStatic builds a static binary (CGO_ENABLED=0 go build) of the
// package pkg of this module, given as a path from the module's root such
// as "./cmd/nodegen", and returns the binary's path. Each package is built
// once per test process; the binaries live in a temporary directory that
// the next test process removes once this one has exited. It calls t.Fatal
// when the build fails.
func BuildStatic(t testing.TB, pkg string) string {
	t.Helper()
	v, _ := staticBuilds.LoadOrStore(pkg, &staticBuild{})
	b := v.(*staticBuild)
	b.once.Do(func() { b.path, b.err = buildStatic(pkg) })
	if b.err != nil {
		t.Fatalf("nspawntest: building %s: %v", pkg, b.err)
	}
	return b.path
}

// buildStatic builds pkg into the process's binary directory.
func buildStatic(pkg string) (string, error) {
	root, err := suitereport.ModuleRoot()
	if err != nil {
		return "", err
	}
	binDirOnce.Do(func() { binDir, binDirErr = makeBinDir() })
	if binDirErr != nil {
		return "", binDirErr
	}
	// One directory per package keeps the binary's own name.
	dir, err := os.MkdirTemp(binDir, "")
	if err != nil {
		return "", err
	}
	name := path.Base(pkg)
	if name == "." || name == "/" {
		name = filepath.Base(root)
	}
	out := filepath.Join(dir, name)
	goTool, err := exec.LookPath("go")
	if err != nil {
		return "", err
	}
	err = machine.RunBounded(staticBuildTimeout, root, []string{"CGO_ENABLED=0"}, goTool, "build", "-trimpath", "-o", out, pkg)
	if err != nil {
		return "", err
	}
	return out, nil
}

// makeBinDir makes this process's temporary binary directory, after
// removing those of test processes that have exited.
func makeBinDir() (string, error) {
	old, _ := filepath.Glob(filepath.Join(os.TempDir(), binDirPrefix+"*"))
	for _, dir := range old {
		pidText, _, _ := strings.Cut(strings.TrimPrefix(filepath.Base(dir), binDirPrefix), "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			os.RemoveAll(dir)
		}
	}
	return os.MkdirTemp("", binDirPrefix+strconv.Itoa(os.Getpid())+"-")
}
