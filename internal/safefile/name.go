// Package safefile creates files in directories that nodegen does not
// own: a key's directory that the key's user can write, or any directory
// on a path whose parents another user controls. Everything is done
// through descriptors, and no symbolic link is ever followed: the
// directory is opened from "/" one component at a time (openat2 with
// RESOLVE_NO_SYMLINKS where the kernel has it), the file is created with
// O_EXCL under a temporary name in that open directory, its owner and
// mode are set on its descriptor before it has any content, and it is
// renamed to its name within the same directory descriptor. No path is
// walked again after a check, so a user who swaps a directory or the
// temporary file for a symbolic link while this runs changes nothing
// outside that directory, as systemd-tmpfiles and Nix refuse unsafe path
// transitions.
//
// A Dir also renames without replacing (RenameNoReplace, and
// MoveNoReplace to another directory) and exchanges two entries
// (Exchange), renameat2's RENAME_NOREPLACE and RENAME_EXCHANGE, so that a
// caller that checked what is at a name replaces only that: activate
// places, removes and restores the files of a generation this way, in
// directories it opened itself (DirOf).
package safefile

import "strings"

// NameProblem checks that name is a name of one directory entry, not a
// path: not empty, not . or .., no / and no NUL, at most 255 bytes. It
// returns "" for a name, or what is wrong ("it holds /").
func NameProblem(name string) string {
	switch {
	case name == "":
		return "it is empty"
	case name == "." || name == "..":
		return "it is " + name
	case strings.Contains(name, "/"):
		return "it holds /, which makes it a path"
	case strings.Contains(name, "\x00"):
		return "it holds a NUL byte"
	case len(name) > 255:
		return "it is longer than 255 bytes"
	}
	return ""
}
