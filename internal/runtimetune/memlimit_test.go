package runtimetune

import (
	"testing"
	"testing/fstest"
)

const (
	mib = 1 << 20
	gib = 1 << 30
)

func file(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }

func meminfo(availKB string) *fstest.MapFile {
	return file("MemTotal:        2000000 kB\nMemFree:          100000 kB\nMemAvailable:   " + availKB + " kB\nBuffers:           1000 kB\n")
}

// TestAvailableMemory reads fake /proc and /sys/fs/cgroup trees.
func TestAvailableMemory(t *testing.T) {
	tests := []struct {
		name  string
		files fstest.MapFS
		want  uint64
		known bool
	}{
		{"nothing readable", fstest.MapFS{}, 0, false},
		{"meminfo only", fstest.MapFS{"proc/meminfo": meminfo("1048576")}, gib, true},
		{"meminfo without MemAvailable", fstest.MapFS{"proc/meminfo": file("MemTotal: 1 kB\n")}, 0, false},
		{"cgroup v2 limit below MemAvailable", fstest.MapFS{
			"proc/meminfo":     meminfo("8388608"),
			"proc/self/cgroup": file("0::/system.slice/job.service\n"),
			"sys/fs/cgroup/system.slice/job.service/memory.max":     file("314572800\n"),
			"sys/fs/cgroup/system.slice/job.service/memory.current": file("104857600\n"),
		}, 200 * mib, true},
		{"cgroup v2 without limit", fstest.MapFS{
			"proc/meminfo":                            meminfo("1048576"),
			"proc/self/cgroup":                        file("0::/user.slice\n"),
			"sys/fs/cgroup/user.slice/memory.max":     file("max\n"),
			"sys/fs/cgroup/user.slice/memory.current": file("5000\n"),
		}, gib, true},
		{"cgroup v2 parent tighter than child", fstest.MapFS{
			"proc/self/cgroup":                 file("0::/a/b\n"),
			"sys/fs/cgroup/a/b/memory.max":     file("max\n"),
			"sys/fs/cgroup/a/b/memory.current": file("10\n"),
			"sys/fs/cgroup/a/memory.max":       file("524288000\n"),
			"sys/fs/cgroup/a/memory.current":   file("104857600\n"),
		}, 400 * mib, true},
		{"cgroup v2 over its limit", fstest.MapFS{
			"proc/self/cgroup":               file("0::/x\n"),
			"sys/fs/cgroup/x/memory.max":     file("1000\n"),
			"sys/fs/cgroup/x/memory.current": file("2000\n"),
		}, 0, true},
		{"cgroup v1 memory controller", fstest.MapFS{
			"proc/meminfo":     meminfo("4194304"),
			"proc/self/cgroup": file("5:devices:/\n4:cpu,memory:/docker/abc\n0::/\n"),
			"sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes": file("268435456\n"),
			"sys/fs/cgroup/memory/docker/abc/memory.usage_in_bytes": file("67108864\n"),
		}, 192 * mib, true},
		{"cgroup v1 unlimited", fstest.MapFS{
			"proc/meminfo":     meminfo("1048576"),
			"proc/self/cgroup": file("4:memory:/process_api/x\n"),
			"sys/fs/cgroup/memory/process_api/x/memory.limit_in_bytes": file("9223372036854771712\n"),
			"sys/fs/cgroup/memory/process_api/x/memory.usage_in_bytes": file("2207473664\n"),
		}, gib, true},
		{"cgroup seen from inside its namespace", fstest.MapFS{
			// The process's path does not exist in the mount; the
			// mount's root is its cgroup.
			"proc/self/cgroup":             file("0::/kubepods/pod1/c1\n"),
			"sys/fs/cgroup/memory.max":     file("134217728\n"),
			"sys/fs/cgroup/memory.current": file("33554432\n"),
		}, 96 * mib, true},
		{"garbage in cgroup files is ignored", fstest.MapFS{
			"proc/meminfo":                   meminfo("1048576"),
			"proc/self/cgroup":               file("garbage\n0::/x\n"),
			"sys/fs/cgroup/x/memory.max":     file("lots\n"),
			"sys/fs/cgroup/x/memory.current": file("1\n"),
		}, gib, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, known := availableMemory(tt.files, 0)
			if got != tt.want || known != tt.known {
				t.Errorf("availableMemory = %d MiB, %v; want %d MiB, %v", got/mib, known, tt.want/mib, tt.known)
			}
		})
	}
}

func TestSoftMemoryLimit(t *testing.T) {
	tests := []struct {
		available uint64
		known     bool
		want      int64
		ok        bool
	}{
		{0, false, 0, false},
		{24 * gib, true, gib, true},
		{2 * gib, true, gib, true},
		{1 * gib, true, 512 * mib, true},
		{200 * mib, true, 100 * mib, true},
		{128 * mib, true, 64 * mib, true},
		{127 * mib, true, 0, false},
		{0, true, 0, false},
	}
	for _, tt := range tests {
		got, ok := softMemoryLimit(tt.available, tt.known)
		if got != tt.want || ok != tt.ok {
			t.Errorf("softMemoryLimit(%d MiB, %v) = %d MiB, %v; want %d MiB, %v", tt.available/mib, tt.known, got/mib, ok, tt.want/mib, tt.ok)
		}
	}
}

// TestAddressSpaceLeft: under ulimit -v the memory available is what the
// limit leaves of the address space the process maps already.
func TestAddressSpaceLeft(t *testing.T) {
	status := func(kb string) *fstest.MapFile {
		return file("Name:\tnodegen\nVmPeak:\t 1300000 kB\nVmSize:\t " + kb + " kB\nVmRSS:\t 2000 kB\n")
	}
	tests := []struct {
		name  string
		files fstest.MapFS
		limit uint64
		want  uint64
		known bool
	}{
		{"no limit", fstest.MapFS{"proc/self/status": status("1048576")}, 0, 0, false},
		{"limit above VmSize", fstest.MapFS{"proc/self/status": status("1048576")}, 2 * gib, gib, true},
		{"limit below VmSize", fstest.MapFS{"proc/self/status": status("3145728")}, 2 * gib, 0, true},
		{"no status", fstest.MapFS{}, 2 * gib, 0, false},
		{"status without VmSize", fstest.MapFS{"proc/self/status": file("Name:\tnodegen\n")}, 2 * gib, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, known := addressSpaceLeft(tt.files, tt.limit)
			if got != tt.want || known != tt.known {
				t.Errorf("addressSpaceLeft = %d, %v; want %d, %v", got, known, tt.want, tt.known)
			}
		})
	}
}
