package nspawntest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Each machine gets cgroups of its own. With --keep-unit, systemd-nspawn
// puts its supervisor and the container's payload into "supervisor" and
// "payload" cgroups below the cgroup it was started in. Started from the
// test process's cgroup, two machines would share one payload cgroup, and
// each one's systemd would manage (and on power-off kill) the other's
// processes. So Boot starts nspawn in a new cgroup named after the
// machine, and removes it, with whatever nspawn and systemd left in it,
// once the machine is off.

// machineCgroups makes a cgroup named name below this process's cgroup in
// each hierarchy nspawn uses (the named "systemd" hierarchy of cgroup v1
// and hybrid hosts, and the unified one) and returns their directories.
func machineCgroups(name string) ([]string, error) {
	parents, err := ownCgroups()
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, parent := range parents {
		dir := filepath.Join(parent, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			removeCgroups(dirs)
			return nil, fmt.Errorf("making the machine's cgroup: %w", err)
		}
		dirs = append(dirs, dir)
	}
	return dirs, nil
}

// ownCgroups returns the directories of this process's cgroups in the
// hierarchies systemd manages, read from /proc/self/cgroup.
func ownCgroups() ([]string, error) {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		fields := strings.SplitN(line, ":", 3)
		if len(fields) != 3 {
			continue
		}
		var mount string
		switch {
		case fields[1] == "name=systemd":
			mount = "/sys/fs/cgroup/systemd"
		case fields[0] == "0" && fields[1] == "":
			mount = "/sys/fs/cgroup/unified" // hybrid
			if exists("/sys/fs/cgroup/cgroup.controllers") {
				mount = "/sys/fs/cgroup" // cgroup v2 only
			}
		default:
			continue
		}
		if isDir(mount) {
			dirs = append(dirs, filepath.Join(mount, fields[2]))
		}
	}
	if len(dirs) == 0 {
		return nil, errors.New("found no systemd or unified cgroup hierarchy in /proc/self/cgroup")
	}
	return dirs, nil
}

// removeCgroups removes the cgroup directories dirs with every cgroup
// below them, deepest first. Processes that just died may keep a cgroup
// busy for a moment, so it retries for a bounded time.
func removeCgroups(dirs []string) error {
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := removeCgroupTrees(dirs)
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// removeCgroupTrees makes one attempt of removeCgroups.
func removeCgroupTrees(dirs []string) error {
	var errs []error
	for _, dir := range dirs {
		var tree []string
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				tree = append(tree, path)
			}
			return nil
		})
		slices.Reverse(tree) // children before their parents
		for _, path := range tree {
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}
