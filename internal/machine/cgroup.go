//go:build linux

package machine

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
// and hybrid hosts, and the unified one) and, with controllers, in each
// cgroup v1 controller hierarchy too, and returns their directories.
func machineCgroups(name string, controllers bool) ([]string, error) {
	parents, controllerParents, unified, err := ownCgroups()
	if err != nil {
		return nil, err
	}
	removeAbandonedCgroups(append(parents, controllerParents...), unified)
	if controllers {
		parents = append(parents, controllerParents...)
	}
	var dirs []string
	for _, parent := range parents {
		dir := filepath.Join(parent, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			removeCgroups(dirs)
			return nil, fmt.Errorf("making the machine's cgroup: %w", err)
		}
		dirs = append(dirs, dir)
		if err := inheritCpuset(parent, dir); err != nil {
			removeCgroups(dirs)
			return nil, fmt.Errorf("making the machine's cgroup: %w", err)
		}
	}
	return dirs, nil
}

// inheritCpuset copies the CPUs and memory nodes of a cgroup v1 cpuset
// cgroup to its new child dir: a new cpuset cgroup starts with none, and
// joining it fails (ENOSPC) until it has some. Other cgroups are left as
// they are.
func inheritCpuset(parent, dir string) error {
	for _, file := range []string{"cpuset.cpus", "cpuset.mems"} {
		value, err := os.ReadFile(filepath.Join(parent, file))
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, file), value, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// abandonedAge is how old a machine's cgroup with no process in it must be
// to be taken for the leftover of a killed test process; a machine being
// booted moves into its cgroups right after making them.
const abandonedAge = 10 * time.Minute

// removeAbandonedCgroups removes the machine cgroups (ngt-*) below parents
// that test processes killed before their cleanup left behind: those that
// the unified hierarchy reports empty (no process in the whole tree) and
// that are older than abandonedAge. unified is the parent in the unified
// hierarchy; without one ("") it cannot tell and removes nothing.
func removeAbandonedCgroups(parents []string, unified string) {
	if unified == "" {
		return
	}
	machines, _ := filepath.Glob(filepath.Join(unified, "ngt-*"))
	for _, dir := range machines {
		info, err := os.Stat(dir)
		if err != nil || time.Since(info.ModTime()) < abandonedAge {
			continue
		}
		events, err := os.ReadFile(filepath.Join(dir, "cgroup.events"))
		if err != nil || !strings.Contains(string(events), "populated 0") {
			continue
		}
		var trees []string
		for _, parent := range parents {
			trees = append(trees, filepath.Join(parent, filepath.Base(dir)))
		}
		removeCgroupTrees(trees)
	}
}

// ownCgroups returns the directories of this process's cgroups, read
// from /proc/self/cgroup: in the hierarchies systemd manages (dirs), in
// the cgroup v1 controller hierarchies (controllers), and among dirs the
// one in the unified hierarchy ("" when there is none).
func ownCgroups() (dirs, controllers []string, unified string, err error) {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil, nil, "", err
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		fields := strings.SplitN(line, ":", 3)
		if len(fields) != 3 {
			continue
		}
		var mount string
		controller := false
		switch {
		case fields[1] == "name=systemd":
			mount = "/sys/fs/cgroup/systemd"
		case fields[0] == "0" && fields[1] == "":
			mount = "/sys/fs/cgroup/unified" // hybrid
			if exists("/sys/fs/cgroup/cgroup.controllers") {
				mount = "/sys/fs/cgroup" // cgroup v2 only
			}
		case fields[1] != "" && !strings.HasPrefix(fields[1], "name="):
			// A v1 hierarchy of one or more controllers ("cpu,cpuacct")
			// is mounted under the controllers' names.
			mount = "/sys/fs/cgroup/" + fields[1]
			controller = true
		default:
			continue
		}
		if !isDir(mount) {
			continue
		}
		dir := filepath.Join(mount, fields[2])
		if controller {
			controllers = append(controllers, dir)
			continue
		}
		dirs = append(dirs, dir)
		if fields[1] == "" {
			unified = dir
		}
	}
	if len(dirs) == 0 {
		return nil, nil, "", errors.New("found no systemd or unified cgroup hierarchy in /proc/self/cgroup")
	}
	return dirs, controllers, unified, nil
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
