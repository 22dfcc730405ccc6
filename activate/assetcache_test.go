package activate

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/nodegen/nodegen/profile"
)

// switchAssets switches root to a profile of assets whose hostname is
// host (so that each switch makes a new generation).
func switchAssets(t *testing.T, root, host string, o SwitchOptions, assets ...profile.Asset) (*Result, error) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "profile")
	p := profile.Profile{Entries: []profile.Entry{file("hostname", host+"\n")}, Assets: assets}
	if err := profile.Write(dir, p); err != nil {
		t.Fatal(err)
	}
	return run(t, root, nil, func(s *System) (*Result, error) { return s.Switch(dir, o) })
}

// TestDamagedCacheIsNotLinked: the cache is verified when its files are
// linked: a truncated download is refused with --offline and downloaded
// again without; a tampered member is unpacked again from the verified
// archive; a program left at 0644 (a kill between rename and chmod) gets
// its mode.
func TestDamagedCacheIsNotLinked(t *testing.T) {
	srv := newAssetServer(t)
	prog := []byte("#!/bin/sh\necho the real program\n")
	tgz := tarGz(t, map[string]string{"./bridge": "the real bridge"})
	progAsset := profile.Asset{Name: "prog", URL: srv.serve("prog", prog), SHA256: sum256(prog),
		Files: []profile.AssetFile{{Path: "/usr/local/bin/prog"}}, Option: "environment.assets.prog"}
	cni := profile.Asset{Name: "cni", URL: srv.serve("cni.tgz", tgz), SHA256: sum256(tgz), Archive: "tar.gz",
		Files: []profile.AssetFile{{Path: "/opt/cni/bin/bridge", Member: "bridge"}}, Option: "environment.assets.cni"}
	root := newRoot(t, nil)
	if _, err := switchAssets(t, root, "a", SwitchOptions{}, progAsset, cni); err != nil {
		t.Fatal(err)
	}
	progCache := filepath.Join(root, assetsDir, progAsset.Key(), "download")
	bridgeCache := filepath.Join(root, assetsDir, cni.Key(), "files/bridge")

	// Truncated: --offline refuses it, a switch downloads it again.
	if err := os.Truncate(progCache, 5); err != nil {
		t.Fatal(err)
	}
	_, err := switchAssets(t, root, "b", SwitchOptions{Offline: true}, progAsset, cni)
	var be *BinariesError
	if !errors.As(err, &be) || len(be.Problems) != 1 || !strings.Contains(be.Problems[0].Reason, "does not match the profile's hash") {
		t.Fatalf("offline switch with a truncated cache: %v", err)
	}
	res, err := switchAssets(t, root, "c", SwitchOptions{}, progAsset, cni)
	if err != nil {
		t.Fatal(err)
	}
	if got := readIn(t, root, "usr/local/bin/prog"); got != string(prog) || srv.count("prog") != 2 || len(res.Plan.Download) != 1 {
		t.Errorf("after the truncation: %q, downloaded %d times, plan %v", got, srv.count("prog"), res.Plan.Download)
	}

	// A tampered member, and the program at 0644: both mended offline.
	if err := os.Chmod(bridgeCache, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bridgeCache, []byte("tampered"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(progCache, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := switchAssets(t, root, "d", SwitchOptions{Offline: true}, progAsset, cni); err != nil {
		t.Fatal(err)
	}
	if got := readIn(t, root, "opt/cni/bin/bridge"); got != "the real bridge" {
		t.Errorf("bridge after tampering: %q", got)
	}
	if fi, err := os.Stat(progCache); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("the program's mode: %v, %v", fi.Mode(), err)
	}
	if srv.count("cni.tgz") != 1 {
		t.Errorf("cni.tgz downloaded %d times", srv.count("cni.tgz"))
	}
}

// TestFileURLsTakeRegularFilesOnly: a file:// asset must be a regular
// file within the size limit; a FIFO or a device is refused at once, and
// a mismatch does not print the hash of the file it names.
func TestFileURLsTakeRegularFilesOnly(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	// A writer that opens the FIFO and closes it, so that a reader that
	// waits for one is not stuck (it then reads nothing).
	go func() {
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
	}()
	t.Cleanup(func() {
		if f, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	secret := filepath.Join(dir, "secret")
	os.WriteFile(secret, []byte("root's secret\n"), 0o600)
	big := filepath.Join(dir, "big")
	os.WriteFile(big, bytes.Repeat([]byte("x"), 2048), 0o644)
	old := maxAssetSize
	maxAssetSize = 1024
	t.Cleanup(func() { maxAssetSize = old })

	good := []byte("good")
	asset := func(name, path string) profile.Asset {
		return profile.Asset{Name: name, URL: "file://" + path, SHA256: sum256(good),
			Files: []profile.AssetFile{{Path: "/usr/local/bin/" + name}}, Option: "environment.assets." + name}
	}
	root := newRoot(t, nil)
	_, err := switchAssets(t, root, "a", SwitchOptions{}, asset("fifo", fifo), asset("zero", "/dev/zero"), asset("secret", secret), asset("big", big))
	var be *BinariesError
	if !errors.As(err, &be) || len(be.Problems) != 4 {
		t.Fatalf("switch: %v, want four problems", err)
	}
	want := map[string]string{
		"asset big":    "is larger than 1024 bytes",
		"asset fifo":   "is not a regular file",
		"asset secret": "does not have the sha256 the profile says",
		"asset zero":   "is not a regular file",
	}
	for _, p := range be.Problems {
		if !strings.Contains(p.Reason, want[p.What]) {
			t.Errorf("%s: %q, want it to say %q", p.What, p.Reason, want[p.What])
		}
		if strings.Contains(p.Reason, sum256([]byte("root's secret\n"))) {
			t.Errorf("%s: the error shows the file's hash: %s", p.What, p.Reason)
		}
	}
}

// TestArchiveMembersStream: a member is streamed to disk, not read into
// memory, and one over the size limit is a clear error, not truncated.
func TestArchiveMembersStream(t *testing.T) {
	srv := newAssetServer(t)
	huge := strings.Repeat("\x00", 64<<20)
	tgz := tarGz(t, map[string]string{"./huge": huge, "./big": strings.Repeat("b", 2<<20)})
	asset := func(member string) profile.Asset {
		return profile.Asset{Name: member, URL: srv.serve("a.tgz", tgz), SHA256: sum256(tgz), Archive: "tar.gz",
			Files: []profile.AssetFile{{Path: "/usr/local/bin/" + member, Member: member}}, Option: "environment.assets." + member}
	}
	huge = ""
	root := newRoot(t, nil)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := switchAssets(t, root, "a", SwitchOptions{}, asset("huge")); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if fi, err := os.Stat(filepath.Join(root, assetsDir, asset("huge").Key(), "files/huge")); err != nil || fi.Size() != 64<<20 {
		t.Fatalf("the member: %v, %v", fi, err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("unpacking a 64 MiB member allocated %d MiB", alloc>>20)
	}

	old := maxMemberSize
	maxMemberSize = 1 << 20
	t.Cleanup(func() { maxMemberSize = old })
	_, err := switchAssets(t, root, "b", SwitchOptions{}, asset("big"))
	var be *BinariesError
	if !errors.As(err, &be) || !strings.Contains(be.Error(), "member big larger than 1048576 bytes") {
		t.Errorf("switch with a member over the limit: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, assetsDir, asset("big").Key(), "files/big")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a part of the member is in the cache: %v", err)
	}
}
