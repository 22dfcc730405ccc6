//go:build linux

package machinerun

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// disk is a machine's disk: an overlay of the cached root (read-only,
// shared) with a writable layer of the machine's own, mounted on the
// host. Unlike nspawn's --volatile=overlay, whose layer lives as long as
// the container, it survives a reboot, as a host's disk does.
type disk struct {
	// Base holds the layer (upper, work) and the mount point (root).
	Base string `json:"base"`
}

// Root is the directory the machine boots from.
func (d *disk) Root() string { return filepath.Join(d.Base, "root") }

// newDisk mounts an overlay of root in a new directory below parent.
func newDisk(root, parent string) (*disk, error) {
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return nil, err
	}
	base, err := os.MkdirTemp(parent, "disk-")
	if err != nil {
		return nil, err
	}
	d := &disk{Base: base}
	for _, sub := range []string{"upper", "work", "root"} {
		if err := os.Mkdir(filepath.Join(base, sub), 0o755); err != nil {
			os.RemoveAll(base)
			return nil, err
		}
	}
	opts := fmt.Sprintf("lowerdir=%s,upperdir=%s,workdir=%s", root, filepath.Join(base, "upper"), filepath.Join(base, "work"))
	if err := unix.Mount("overlay", d.Root(), "overlay", 0, opts); err != nil {
		os.RemoveAll(base)
		return nil, fmt.Errorf("mounting an overlay of %s: %v", root, err)
	}
	return d, nil
}

// remove unmounts the disk and removes its layer.
func (d *disk) remove() error {
	if err := unix.Unmount(d.Root(), unix.MNT_DETACH); err != nil && err != unix.EINVAL && err != unix.ENOENT {
		return fmt.Errorf("unmounting %s: %v", d.Root(), err)
	}
	return os.RemoveAll(d.Base)
}
