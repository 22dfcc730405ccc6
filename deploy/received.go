package deploy

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The profiles a host received live in ReceivedDir, each a directory
// named by its manifest's hash, sharing their files with one another
// (see Receive). A receive holds the host's lock (activate.LockState), as switch,
// rollback and gc do, so the next command that takes the lock removes
// what a cut receive left (CleanReceived), and gc removes the profiles no
// generation needs (CollectReceived).

// ReceivedDir returns the directory of the profiles received on the host
// whose root is root.
func ReceivedDir(root string) string {
	return filepath.Join(root, filepath.FromSlash(remoteDir), "profiles")
}

// CleanReceived removes from dir, the directory of received profiles, the
// temporary directories of receives that were cut (.NAME.tmp-*), and
// returns their names. The caller holds the host's lock, so no receive is
// writing one.
func CleanReceived(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	var removed []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") && strings.Contains(e.Name(), tmpInfix) {
			if err := root.RemoveAll(e.Name()); err != nil {
				return removed, err
			}
			removed = append(removed, e.Name())
		}
	}
	return removed, nil
}

// CollectReceived removes from dir, the directory of received profiles,
// every profile but those keep names (the profiles of the generations
// that stay) and the one received last (which a deploy may be about to
// switch to), and the leftovers of cut receives (CleanReceived). It
// returns the names of the profiles removed, sorted. The caller holds the
// host's lock. A file shared with a profile that stays stays with it.
func CollectReceived(dir string, keep map[string]bool) ([]string, error) {
	if _, err := CleanReceived(dir); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	newest, newestTime := "", int64(0)
	var names []string
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		names = append(names, e.Name())
		if fi, err := e.Info(); err == nil && (newest == "" || fi.ModTime().UnixNano() > newestTime) {
			newest, newestTime = e.Name(), fi.ModTime().UnixNano()
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	removed := []string{}
	for _, n := range names {
		if keep[n] || n == newest {
			continue
		}
		if err := root.RemoveAll(n); err != nil {
			return removed, err
		}
		removed = append(removed, n)
	}
	slices.Sort(removed)
	return removed, nil
}

// ReceivedName returns the name of the received profile whose manifest
// has the SHA-256 sum (hex), as the deployer names it.
func ReceivedName(sum string) string {
	if len(sum) < 32 {
		return sum
	}
	return sum[:32]
}
