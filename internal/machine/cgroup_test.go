//go:build linux

package machine

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/suitereport"
)

func TestRemoveAbandonedCgroups(t *testing.T) {
	requireNspawn(t)
	parents, _, unified, err := ownCgroups()
	if err != nil {
		t.Fatal(err)
	}
	if unified == "" {
		suitereport.Skip(t, Suite, "no unified cgroup hierarchy, so abandoned cgroups are never removed")
	}
	// makeMachineCgroups makes the cgroups of a fake machine, with a
	// subtree as nspawn and systemd leave it, made age ago.
	makeMachineCgroups := func(age time.Duration) (string, []string) {
		name := "ngt-test-" + randomHex(6)
		var dirs []string
		for _, parent := range parents {
			dir := filepath.Join(parent, name)
			for _, sub := range []string{"init.scope", "system.slice"} {
				if err := os.MkdirAll(filepath.Join(dir, "payload", sub), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			dirs = append(dirs, dir)
		}
		t.Cleanup(func() { removeCgroups(dirs) })
		then := time.Now().Add(-age)
		if err := os.Chtimes(filepath.Join(unified, name), then, then); err != nil {
			t.Fatal(err)
		}
		return name, dirs
	}
	_, abandoned := makeMachineCgroups(time.Hour)
	_, young := makeMachineCgroups(0)
	runningName, running := makeMachineCgroups(time.Hour)
	sleep := exec.Command("sleep", "600")
	if err := sleep.Start(); err != nil {
		t.Fatal(err)
	}
	defer sleep.Wait()
	defer sleep.Process.Kill()
	for _, dir := range running {
		procs := filepath.Join(dir, "payload", "init.scope", "cgroup.procs")
		if err := os.WriteFile(procs, []byte(strconv.Itoa(sleep.Process.Pid)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	then := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(unified, runningName), then, then) // moving the process in may touch it

	removeAbandonedCgroups(parents, unified)
	for _, dir := range abandoned {
		if exists(dir) {
			t.Errorf("the abandoned cgroup %s is left", dir)
		}
	}
	// Not even the empty cgroups of a machine that still has processes.
	for _, dir := range append(young, running...) {
		if !exists(filepath.Join(dir, "payload", "system.slice")) {
			t.Errorf("%s was removed", dir)
		}
	}
}
