package runtimetune

import (
	"bufio"
	"bytes"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// Bounds of the soft memory limit that Tune sets with the collector off.
const (
	// maxSoftLimit is the most a single evaluation is let grow to before
	// a collection: far more than the largest evaluation takes.
	maxSoftLimit = 1 << 30
	// minSoftLimit is the least worth running without the collector:
	// below it Tune leaves the collector on its default schedule.
	minSoftLimit = 64 << 20
)

// noLimit is where a cgroup limit means "no limit": cgroup v1 reports
// "unlimited" as a page-rounded maximum int64.
const noLimit = 1 << 62

// softMemoryLimit is the soft memory limit for a run with the collector
// off, given the memory still available to the process: half of it, so
// that the process and whatever else runs beside it fit, and at most
// maxSoftLimit. ok is false when that is under minSoftLimit or nothing
// is known of the memory available.
func softMemoryLimit(available uint64, known bool) (limit int64, ok bool) {
	if !known {
		return 0, false
	}
	l := min(available/2, maxSoftLimit)
	if l < minSoftLimit {
		return 0, false
	}
	return int64(l), true
}

// availableMemory returns how much memory the process can still take, read
// from the file system root (the real one is os.DirFS("/")): the least of
// MemAvailable in /proc/meminfo and, for the memory cgroup the process is
// in and every cgroup above it, its limit less its usage (cgroup v2:
// memory.max and memory.current; v1: memory.limit_in_bytes and
// memory.usage_in_bytes), and under an address-space limit asLimit (0:
// none) the address space left (addressSpaceLeft). known is false when
// none of them can be read.
func availableMemory(root fs.FS, asLimit uint64) (avail uint64, known bool) {
	take := func(v uint64) {
		if !known || v < avail {
			avail, known = v, true
		}
	}
	if v, ok := memAvailable(root); ok {
		take(v)
	}
	if v, ok := addressSpaceLeft(root, asLimit); ok {
		take(v)
	}
	cgroups, _ := fs.ReadFile(root, "proc/self/cgroup")
	for _, line := range strings.Split(string(cgroups), "\n") {
		// hierarchy-ID:controllers:path; v2 is "0::/path".
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		var dir, limitFile, usageFile string
		switch {
		case parts[0] == "0" && parts[1] == "":
			dir, limitFile, usageFile = "sys/fs/cgroup", "memory.max", "memory.current"
		case hasController(parts[1], "memory"):
			dir, limitFile, usageFile = "sys/fs/cgroup/memory", "memory.limit_in_bytes", "memory.usage_in_bytes"
		default:
			continue
		}
		// Every cgroup from the process's up to the root limits it.
		for p := path.Clean("/" + parts[2]); ; p = path.Dir(p) {
			d := path.Join(dir, p)
			limit, okL := readCount(root, path.Join(d, limitFile))
			usage, okU := readCount(root, path.Join(d, usageFile))
			if okL && okU && limit < noLimit {
				take(limit - min(usage, limit))
			}
			if p == "/" {
				break
			}
		}
	}
	return avail, known
}

// hasController reports whether a comma-separated list of cgroup v1
// controllers names c.
func hasController(list, c string) bool {
	for _, n := range strings.Split(list, ",") {
		if n == c {
			return true
		}
	}
	return false
}

// readCount reads a file holding one number of bytes; "max" (cgroup v2's
// no limit) reads as noLimit.
func readCount(root fs.FS, name string) (uint64, bool) {
	b, err := fs.ReadFile(root, name)
	if err != nil {
		return 0, false
	}
	s := strings.TrimSpace(string(b))
	if s == "max" {
		return noLimit, true
	}
	v, err := strconv.ParseUint(s, 10, 64)
	return v, err == nil
}

// memAvailable reads MemAvailable from /proc/meminfo, in bytes.
func memAvailable(root fs.FS) (uint64, bool) {
	return kilobytesField(root, "proc/meminfo", "MemAvailable:")
}

// addressSpaceLeft returns how much address space the process can still
// map under an address-space limit (ulimit -v, RLIMIT_AS; limit 0 is
// none): the limit less the process's VmSize in /proc/self/status. The Go
// runtime maps far more than it uses (a gigabyte or more before the
// first allocation), so under such a limit a heap left to grow to a
// gigabyte would fail long before the memory runs out.
func addressSpaceLeft(root fs.FS, limit uint64) (uint64, bool) {
	if limit == 0 {
		return 0, false
	}
	size, ok := kilobytesField(root, "proc/self/status", "VmSize:")
	if !ok {
		return 0, false
	}
	return limit - min(size, limit), true
}

// kilobytesField reads a "Name: N kB" line of a /proc file, in bytes.
func kilobytesField(root fs.FS, name, field string) (uint64, bool) {
	b, err := fs.ReadFile(root, name)
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), field)
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, false
		}
		kb, err := strconv.ParseUint(f[0], 10, 64)
		return kb * 1024, err == nil
	}
	return 0, false
}
