// Package machine boots a real systemd as PID 1 in a systemd-nspawn
// container and drives it: the machine layer that `nodegen test`'s
// machine tests (modtest/machinerun) and the project's own test harness
// (internal/nspawntest, a thin wrapper for Go tests) share.
//
// Root.Ensure builds (once, cached outside the repository) a Debian
// bookworm root file system with systemd; Boot starts a fresh, throw-away
// machine from it and PowerOff stops it; a Machine runs commands inside
// (through nsenter), writes and reads files and reads the journal. A
// Network is a private bridge in a network namespace of its own that
// machines are attached to, each with an address.
//
// Every step is bounded by a timeout. Where nspawn cannot run at all (not
// root, no systemd-nspawn, no /sys/fs/cgroup) the functions return an
// *UnavailableError saying what is missing. internal/nspawntest/README.md
// says what the package needs and where its cache lives.
package machine
