//go:build linux

package machine

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nodegen/nodegen/internal/flock"
)

// suite is the Debian release the root file system is made of.
const suite = "bookworm"

// rootPackages are installed on top of debootstrap's minbase variant:
// systemd as PID 1, D-Bus for systemctl, and ps/pgrep for tests.
var rootPackages = []string{"systemd", "systemd-sysv", "dbus", "procps"}

// defaultMirror is used when apt is configured with no mirror for suite.
const defaultMirror = "http://deb.debian.org/debian"

const (
	// buildTimeout bounds one debootstrap run, with its downloads.
	buildTimeout = 15 * time.Minute
	// packTimeout bounds packing or unpacking the cached tarball.
	packTimeout = 5 * time.Minute
	// lockTimeout bounds the wait for another process's build.
	lockTimeout = buildTimeout + packTimeout + time.Minute
)

// Root describes a root file system that Ensure builds and caches: the
// default one (debootstrap's minbase variant plus systemd, systemd-sysv,
// dbus and procps) with more Debian packages. The zero Root is the default
// root in the default cache.
type Root struct {
	// Packages are more Debian packages (with their dependencies) to
	// install.
	Packages []string
	// Disable are units that Packages enable at boot and that must not
	// start by themselves (systemctl --root ROOT disable), such as a
	// daemon that a test configures and starts.
	Disable []string
	// CacheDir is where the root is cached; "" means $NODEGEN_TEST_CACHE,
	// else /var/cache/nodegen-test.
	CacheDir string
}

// UnavailableError says why machines cannot boot here, or why a root
// file system that is not cached cannot be made: something of the
// environment is missing (root, a program), not a fault of the caller.
type UnavailableError struct{ Reason string }

func (e *UnavailableError) Error() string { return e.Reason }

// Available returns an *UnavailableError unless this process can boot a
// container with systemd-nspawn: root, systemd-nspawn, nsenter and a
// cgroup file system at /sys/fs/cgroup.
func Available() error {
	var missing []string
	if uid := os.Geteuid(); uid != 0 {
		missing = append(missing, fmt.Sprintf("root (running as uid %d)", uid))
	}
	for _, tool := range MissingTools("systemd-nspawn", "nsenter") {
		pkg := map[string]string{"systemd-nspawn": "systemd-container", "nsenter": "util-linux"}[tool]
		missing = append(missing, fmt.Sprintf("the %s command (package %s)", tool, pkg))
	}
	if !isDir("/sys/fs/cgroup") {
		missing = append(missing, "/sys/fs/cgroup")
	}
	if len(missing) > 0 {
		return &UnavailableError{fmt.Sprintf("cannot boot systemd in systemd-nspawn: this needs %s", strings.Join(missing, ", "))}
	}
	return nil
}

// Ensure returns a directory holding the Debian bookworm root file
// system r describes. It is built on first use with debootstrap, from the
// mirror apt is configured with, and cached in r's cache directory: a
// zstd tarball plus the unpacked tree, named after a hash of what goes
// into it, so that another package list builds another root next to it.
// A file lock (flock) makes concurrent processes build it once; it is
// built in a temporary directory and renamed into place, so a killed
// build never leaves a half root behind. Callers must not change the
// tree; Boot gives each machine a throw-away overlay of it. built says
// whether this call made it.
//
// Ensure returns an *UnavailableError when nspawn cannot run at all
// (Available) or the root is not cached and cannot be built (no
// debootstrap, tar or zstd).
func (r Root) Ensure() (tree string, built bool, err error) {
	if err := Available(); err != nil {
		return "", false, err
	}
	dir := r.Dir()
	key := r.key()
	if isDir(filepath.Join(dir, key)) {
		return filepath.Join(dir, key), false, nil
	}
	if missing := MissingTools("tar", "zstd"); len(missing) > 0 {
		return "", false, &UnavailableError{fmt.Sprintf("the test root file system is not cached in %s and cannot be made: %s not installed", dir, strings.Join(missing, ", "))}
	}
	if !exists(filepath.Join(dir, key+".tar.zst")) {
		if missing := MissingTools("debootstrap"); len(missing) > 0 {
			return "", false, &UnavailableError{fmt.Sprintf("the test root file system is not cached in %s and cannot be built: debootstrap is not installed", dir)}
		}
		if missing := MissingTools("systemctl"); len(missing) > 0 && len(r.Disable) > 0 {
			return "", false, &UnavailableError{fmt.Sprintf("the test root file system is not cached in %s and cannot be built: systemctl is not installed", dir)}
		}
	}
	tree, built, err = ensureRoot(dir, key, r.build)
	if err != nil {
		return "", false, fmt.Errorf("making the test root file system: %v", err)
	}
	return tree, built, nil
}

// MissingTools returns the commands of names that are not on PATH.
func MissingTools(names ...string) []string {
	var missing []string
	for _, name := range names {
		if _, err := exec.LookPath(name); err != nil {
			missing = append(missing, name)
		}
	}
	return missing
}

// Dir is the directory the root file system is cached in: r.CacheDir,
// else $NODEGEN_TEST_CACHE, else /var/cache/nodegen-test.
func (r Root) Dir() string {
	if r.CacheDir != "" {
		return r.CacheDir
	}
	if dir := os.Getenv("NODEGEN_TEST_CACHE"); dir != "" {
		return dir
	}
	return "/var/cache/nodegen-test"
}

// key names the cached root after the suite and a hash of everything
// that goes into it, so that changing the package list makes a new root
// next to the old one instead of reusing a stale one.
func (r Root) key() string {
	// "stock /etc": roots made before keeping /etc/hostname are not reused.
	recipe := append([]string{"debootstrap --variant=minbase", suite, "stock /etc"}, r.packages()...)
	if len(r.Disable) > 0 {
		recipe = append(recipe, "disable: "+strings.Join(r.Disable, " "))
	}
	sum := sha256.Sum256([]byte(strings.Join(recipe, "\n")))
	return "debian-" + suite + "-" + hex.EncodeToString(sum[:4])
}

// ensureRoot returns dir/key, the unpacked root, making it first when it
// is missing: it unpacks dir/key.tar.zst or, when there is no tarball
// yet, calls build on an empty directory and packs the result into the
// tarball. built says whether this call made the tree. An exclusive flock
// on dir/key.lock serialises makers across processes; everything is made
// under dir/key.tmp-* and renamed into place, so dir/key and the tarball
// exist only when they are complete.
func ensureRoot(dir, key string, build func(root string) error) (tree string, built bool, err error) {
	tree = filepath.Join(dir, key)
	if isDir(tree) {
		return tree, false, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", false, err
	}
	unlock, err := lock(filepath.Join(dir, key+".lock"), lockTimeout)
	if err != nil {
		return "", false, err
	}
	defer unlock()
	if isDir(tree) { // made by another process while this one waited
		return tree, false, nil
	}
	// Holding the lock, no make is running: temporary directories are
	// left over from killed ones.
	stale, _ := filepath.Glob(filepath.Join(dir, key+".tmp-*"))
	for _, path := range stale {
		if err := os.RemoveAll(path); err != nil {
			return "", false, fmt.Errorf("removing a killed build's leftovers: %w", err)
		}
	}
	tmp, err := os.MkdirTemp(dir, key+".tmp-")
	if err != nil {
		return "", false, err
	}
	defer os.RemoveAll(tmp)
	root := filepath.Join(tmp, "root")
	if err := os.Mkdir(root, 0o755); err != nil {
		return "", false, err
	}
	tarball := filepath.Join(dir, key+".tar.zst")
	if exists(tarball) {
		if err := unpack(tarball, root); err != nil {
			return "", false, err
		}
	} else {
		if err := build(root); err != nil {
			return "", false, err
		}
		if err := pack(root, filepath.Join(tmp, "root.tar.zst"), tarball); err != nil {
			return "", false, err
		}
	}
	// The root directory of the container must be searchable by the
	// system users its services run as.
	if err := os.Chmod(root, 0o755); err != nil {
		return "", false, err
	}
	if err := os.Rename(root, tree); err != nil {
		return "", false, err
	}
	return tree, true, nil
}

// lock takes an exclusive flock on path, waiting at most timeout for
// another holder, and returns the function that releases it.
func lock(path string, timeout time.Duration) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(timeout)
	for {
		err := flock.TryLock(f)
		if err == nil {
			return func() { f.Close() }, nil // closing releases the lock
		}
		if !errors.Is(err, flock.ErrHeld) {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("locking %s: still held by another process after %s", path, timeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// packages returns the packages of the root: rootPackages, then those of
// r.Packages that are not among them, each once.
func (r Root) packages() []string {
	packages := slices.Clone(rootPackages)
	for _, p := range r.Packages {
		if !slices.Contains(packages, p) {
			packages = append(packages, p)
		}
	}
	return packages
}

// build installs the Debian root into the empty directory root.
func (r Root) build(root string) error {
	err := RunBounded(buildTimeout, "", nil, "debootstrap", "--variant=minbase",
		"--include="+strings.Join(r.packages(), ","), suite, root, aptMirror())
	if err != nil {
		return err
	}
	if len(r.Disable) > 0 {
		args := append([]string{"--root=" + root, "disable"}, r.Disable...)
		if err := RunBounded(time.Minute, "", nil, "systemctl", args...); err != nil {
			return err
		}
	}
	// The downloaded packages are not needed any more. Everything else
	// stays as debootstrap left it, /etc/hostname (the building machine's
	// name, as debootstrap writes it) and /etc/hosts included: a test
	// machine is a stock machine (Boot gives each its own host name, as a
	// cloud provider does).
	debs, _ := filepath.Glob(filepath.Join(root, "var/cache/apt/archives/*.deb"))
	for _, path := range debs {
		if err := os.Remove(path); err != nil {
			return err
		}
	}
	return nil
}

// pack writes a zstd tarball of root to tmp, syncs it and renames it to
// tarball.
func pack(root, tmp, tarball string) error {
	if err := runTar("-C", root, "-I", "zstd", "-cf", tmp, "."); err != nil {
		return err
	}
	f, err := os.Open(tmp)
	if err != nil {
		return err
	}
	err = f.Sync()
	f.Close()
	if err != nil {
		return err
	}
	return os.Rename(tmp, tarball)
}

// unpack extracts the zstd tarball into the directory root.
func unpack(tarball, root string) error {
	return runTar("-C", root, "-I", "zstd", "-xpf", tarball)
}

// runTar runs tar with args, keeping numeric owners and extended
// attributes (file capabilities) as they are.
func runTar(args ...string) error {
	args = append([]string{"--numeric-owner", "--xattrs", "--xattrs-include=*"}, args...)
	return RunBounded(packTimeout, "", nil, "tar", args...)
}

// RunBounded runs the command name with args in dir (when not "") with
// env added to this process's environment, kills it after timeout, and
// returns an error with the end of its output unless it exits 0.
func RunBounded(timeout time.Duration, dir string, env []string, name string, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		err = fmt.Errorf("timed out after %s", timeout)
	}
	if err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, tail(out, 40))
	}
	return nil
}

// aptMirror returns the Debian mirror apt is configured with for suite,
// from deb822 .sources files or one-line .list files, else defaultMirror.
func aptMirror() string {
	sources, _ := filepath.Glob("/etc/apt/sources.list.d/*.sources")
	for _, path := range sources {
		if uri := deb822Mirror(path); uri != "" {
			return uri
		}
	}
	lists, _ := filepath.Glob("/etc/apt/sources.list.d/*.list")
	for _, path := range append([]string{"/etc/apt/sources.list"}, lists...) {
		if uri := oneLineMirror(path); uri != "" {
			return uri
		}
	}
	return defaultMirror
}

// deb822Mirror returns the first URI of a stanza of the deb822 sources
// file at path whose Suites include suite, or "".
func deb822Mirror(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	for _, stanza := range strings.Split(string(data), "\n\n") {
		var uris, suites []string
		for _, line := range strings.Split(stanza, "\n") {
			field, value, ok := strings.Cut(line, ":")
			if !ok || strings.HasPrefix(line, "#") {
				continue
			}
			switch strings.ToLower(strings.TrimSpace(field)) {
			case "uris":
				uris = strings.Fields(value)
			case "suites":
				suites = strings.Fields(value)
			}
		}
		if len(uris) > 0 && slices.Contains(suites, suite) {
			return uris[0]
		}
	}
	return ""
}

// oneLineMirror returns the URI of the first "deb URI SUITE ..." line of
// the sources list at path whose suite is suite, or "".
func oneLineMirror(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		fields := strings.Fields(scanner.Text())
		if len(fields) < 3 || fields[0] != "deb" {
			continue
		}
		fields = fields[1:]
		if strings.HasPrefix(fields[0], "[") { // options: [arch=amd64 signed-by=...]
			for len(fields) > 0 && !strings.HasSuffix(fields[0], "]") {
				fields = fields[1:]
			}
			if len(fields) > 0 {
				fields = fields[1:]
			}
		}
		if len(fields) >= 2 && fields[1] == suite {
			return fields[0]
		}
	}
	return ""
}

// tail returns the last n lines of out.
func tail(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// isDir reports whether path is a directory.
func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// Suite is how make test's list of suites (internal/suitereport) names
// the tests that boot machines.
const Suite = "systemd in systemd-nspawn (internal/nspawntest)"
