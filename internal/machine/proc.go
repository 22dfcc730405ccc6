//go:build linux

package machine

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// descendants returns the PIDs of the processes below pid, read from
// /proc: children before grandchildren.
func descendants(pid int) []int {
	children := map[int][]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, path := range stats {
		child, err := strconv.Atoi(filepath.Base(filepath.Dir(path)))
		if err != nil {
			continue
		}
		if parent, ok := parentPID(path); ok {
			children[parent] = append(children[parent], child)
		}
	}
	var found []int
	queue := []int{pid}
	for len(queue) > 0 {
		next := children[queue[0]]
		queue = append(queue[1:], next...)
		found = append(found, next...)
	}
	return found
}

// parentPID reads the parent's PID from a /proc/PID/stat file.
func parentPID(statPath string) (int, bool) {
	data, err := os.ReadFile(statPath)
	if err != nil {
		return 0, false
	}
	// "PID (COMMAND) STATE PPID ...", where COMMAND may hold anything.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, false
	}
	fields := strings.Fields(string(data[i+1:]))
	if len(fields) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(fields[1])
	return ppid, err == nil
}

// isNamespaceInit reports whether pid is PID 1 of a PID namespace of its
// own: the last PID of the NSpid line of /proc/PID/status is 1.
func isNamespaceInit(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "NSpid:"); ok {
			ids := strings.Fields(rest)
			return len(ids) > 1 && ids[len(ids)-1] == "1"
		}
	}
	return false
}

// command returns the command name of pid (/proc/PID/comm).
func command(pid int) string {
	data, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	return strings.TrimSpace(string(data))
}
