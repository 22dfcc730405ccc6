// Package profile writes, reads and compares nodegen system profiles.
//
// A profile is a directory holding every /etc file a host needs, below
// etc/, with their modes (symlinks as symlinks), and a manifest,
// nodegen-profile.json, that lists every path with its type, mode, owner,
// sha256, size and the option that produced it, and the evaluation's
// warnings:
//
//	result/
//	  etc/...
//	  nodegen-profile.json
//
// Write builds a profile in a fresh sibling directory and renames it into
// place, so that a failed evaluation or a crash mid-write leaves the previous
// profile whole; its output is byte-for-byte deterministic. Read reads a
// profile's manifest back. Diff compares two profiles: the files added,
// removed and changed (with a unified diff of text files), and which systemd
// units switching from one to the other would start, stop, restart or
// reload, following NixOS's switch-to-configuration.
package profile
