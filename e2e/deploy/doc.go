// Package deploy tests nodegen deploy end to end: each test boots Debian
// machines with systemd as PID 1 and OpenSSH's server in systemd-nspawn
// (internal/nspawntest), each sshd reachable on a loopback port of its
// own, makes a key for the run, and deploys host files to them with the
// system's ssh client. The tests skip where nspawn or ssh cannot run, and
// fail in CI.
package deploy
