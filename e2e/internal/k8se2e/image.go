//go:build linux

package k8se2e

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// CacheDir is where the Kubernetes binaries, the nodes' root file systems
// and the images are cached: $NODEGEN_K8S_CACHE, else
// /var/cache/nodegen-e2e/kubernetes.
func CacheDir() string {
	if dir := os.Getenv("NODEGEN_K8S_CACHE"); dir != "" {
		return dir
	}
	return "/var/cache/nodegen-e2e/kubernetes"
}

// ImageTags are the references of the image: the pod sandbox and the
// workload are the same program.
var ImageTags = []string{"k8s-e2e.local/pause:1", "k8s-e2e.local/sleeper:1"}

var imageBuild struct {
	once sync.Once
	path string
	err  error
}

// Image returns the path of the image tarball (e2e/kubernetes/image: the
// sleeper program in a one-layer image tagged ImageTags), building it into
// the cache when it is missing: CACHE/image-HASH.tar, HASH of image/'s
// files.
func Image(t testing.TB) string {
	t.Helper()
	imageBuild.once.Do(func() { imageBuild.path, imageBuild.err = buildImage() })
	if imageBuild.err != nil {
		t.Fatalf("building the image: %v", imageBuild.err)
	}
	return imageBuild.path
}

// buildImage builds the image tarball unless it is cached.
func buildImage() (string, error) {
	return CachedImage("image", func(src, tmp, mkimage string) error {
		sleeper := filepath.Join(tmp, "sleeper")
		if err := Run(src, []string{"CGO_ENABLED=0", "GOWORK=off", "GOFLAGS="}, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", sleeper, "./sleeper"); err != nil {
			return err
		}
		args := []string{"-bin", sleeper, "-out", filepath.Join(tmp, "image.tar")}
		for _, tag := range ImageTags {
			args = append(args, "-tag", tag)
		}
		return Run(tmp, nil, mkimage, args...)
	})
}

// imageSource returns the directory e2e/kubernetes/image, from this
// file's place in the source tree.
func imageSource() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("k8se2e: no source file to find e2e/kubernetes/image from")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "kubernetes", "image"), nil
}

// CachedImage returns CACHE/NAME-HASH.tar, HASH of e2e/kubernetes/image's
// files, making it when it is missing: build gets image/'s path, a
// temporary directory and image/mkimage built into it, and writes
// image.tar there, which is then renamed into place (a tarball in the
// cache is always whole).
func CachedImage(name string, build func(src, tmp, mkimage string) error) (string, error) {
	src, err := imageSource()
	if err != nil {
		return "", err
	}
	sum, err := treeHash(src)
	if err != nil {
		return "", err
	}
	out := filepath.Join(CacheDir(), name+"-"+sum+".tar")
	if _, err := os.Stat(out); err == nil {
		return out, nil
	}
	if err := os.MkdirAll(CacheDir(), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(CacheDir(), "image-build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	mkimage := filepath.Join(tmp, "mkimage")
	if err := Run(src, []string{"CGO_ENABLED=0", "GOWORK=off", "GOFLAGS="}, "go", "build", "-o", mkimage, "./mkimage"); err != nil {
		return "", err
	}
	if err := build(src, tmp, mkimage); err != nil {
		return "", err
	}
	return out, os.Rename(filepath.Join(tmp, "image.tar"), out)
}

// treeHash hashes the names and contents of the regular files below dir.
func treeHash(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(h, "%s %d\n", rel, len(data))
		h.Write(data)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:12], err
}

// Run runs a command in dir with env added to this process's environment,
// killed after ten minutes, and returns an error with its output unless it
// succeeds.
func Run(dir string, env []string, name string, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 10 * time.Second
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return nil
}
