//go:build linux

package nspawntest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/machine"
	"github.com/nodegen/nodegen/internal/suitereport"
)

// Root describes a root file system that RootOf builds and caches: the
// default one (debootstrap's minbase variant plus systemd, systemd-sysv,
// dbus and procps) with more Debian packages (machine.Root).
type Root = machine.Root

// Rootfs returns the default root file system (the zero Root) as RootOf
// does.
func Rootfs(t testing.TB) string {
	t.Helper()
	return RootOf(t, Root{})
}

// RootOf returns a directory holding the Debian bookworm root file system
// r describes, built on first use and cached (machine.Root.Ensure).
//
// RootOf calls t.Skip with the reason when nspawn cannot run at all (not
// root, no systemd-nspawn or nsenter, no /sys/fs/cgroup) or the root is
// not cached and cannot be built (no debootstrap, tar or zstd). When the
// environment variable CI is set, it calls t.Fatal instead of skipping.
func RootOf(t testing.TB, r Root) string {
	t.Helper()
	requireNspawn(t)
	start := time.Now()
	root, built, err := r.Ensure()
	var ue *machine.UnavailableError
	if errors.As(err, &ue) {
		unavailable(t, "%s", ue.Reason)
	}
	if err != nil {
		t.Fatalf("nspawntest: %v", err)
	}
	if built {
		t.Logf("nspawntest: made the test root file system %s in %s", root, time.Since(start).Round(time.Millisecond))
	}
	return root
}

// requireNspawn skips t (fails it under CI) unless this process can boot
// a container with systemd-nspawn.
func requireNspawn(t testing.TB) {
	t.Helper()
	var ue *machine.UnavailableError
	if err := machine.Available(); errors.As(err, &ue) {
		unavailable(t, "%s", ue.Reason)
	}
	suitereport.Ran(t, Suite)
}

// Suite is how make test's list of suites (internal/suitereport) names
// the tests that boot machines.
const Suite = machine.Suite

// unavailable skips t with the formatted reason, or fails it when the
// environment variable CI is set: on CI a missing tool is an error
// (suitereport.Skip).
func unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	suitereport.Skip(t, Suite, fmt.Sprintf(format, args...))
}
