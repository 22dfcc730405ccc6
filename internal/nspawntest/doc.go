// Package nspawntest boots a real systemd as PID 1 in a systemd-nspawn
// container, for end-to-end tests of anything that talks to systemd.
//
// Rootfs builds (once, cached outside the repository) a Debian bookworm
// root file system with systemd; Boot starts a fresh, throw-away machine
// from it and powers it off when the test ends; a Machine runs commands
// inside (through nsenter), writes and copies files in and reads the
// journal. BuildStatic builds a static binary of one of this module's
// commands to copy into a machine.
//
// Every step is bounded by a timeout, so a test always stops by itself.
// Tests skip where nspawn cannot run at all (not root, no systemd-nspawn,
// no /sys/fs/cgroup) and fail instead when CI is set. README.md says what
// the package needs and where its cache lives.
package nspawntest
