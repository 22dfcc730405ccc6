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
//
// Package profile knows nothing of evaluation: building a profile from an
// evaluated host is package evalprofile's, so that the readers of
// profiles (activate, ignition) do not depend on the evaluator.
//
// # What Write replaces and removes
//
// Write replaces the directory it is given only when that is a profile: a
// nodegen-profile.json that parses, next to nothing but etc/, and etc/
// holding exactly the manifest's paths (files of the manifest's sizes,
// symlinks to its targets). Anything else, an empty manifest beside the
// user's files for one, is refused with the reason, and nothing is changed.
//
// Next to a profile result, Write makes two kinds of siblings:
// .result.nodegen-new-ID, where it builds the new profile, and
// .result.nodegen-old-ID, where the old profile waits while the new one is
// renamed into place (only where two directories cannot be exchanged in one
// step). ID is 16 random lower-case hexadecimal digits, new for each
// Write. A crash can leave them behind, and the next Write removes such a
// sibling only when it can prove a Write left it: it is an empty directory
// (a crash right after creating it), or it holds the marker file
// .nodegen-unfinished whose content names that very directory (a profile
// still being built: Write puts the marker in first and removes it once
// the profile is whole), or it is a whole profile by the test above (a
// finished new profile, or the old one). When Write removes such a
// directory it puts the marker in first and removes it last, so that a
// removal cut short leaves a directory that is still provably a Write's.
// Any other file or directory is
// left alone, whatever its name (the .result.tmp-N and .result.old-N of
// earlier versions of nodegen included).
package profile
