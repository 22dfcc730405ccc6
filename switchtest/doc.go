// Package switchtest tests nodegen switch end to end against a real
// systemd: each test boots a Debian machine with systemd as PID 1 in
// systemd-nspawn (internal/nspawntest), copies the nodegen command and
// profiles into it, and switches, rolls back and deactivates there. The
// tests skip where nspawn cannot run at all, and fail in CI.
package switchtest
