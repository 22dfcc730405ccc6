package profile

import (
	"io/fs"
	"strconv"
)

// This file holds the rule for secrets: a file of a profile whose mode
// does not let everyone read it (0600, 0640, ...) is a secret, and every
// file nodegen writes that describes it, with its hash and size, is
// readable by its owner only: the profile's manifest, a generation's copy
// of it and its generation.json (which holds the manifest's hash), and
// state.json. An unsalted SHA-256 of a short secret is as good as the
// secret to anyone who can try guesses, and its size narrows them.

// SecretMode reports whether a file of mode (octal, "0640") is a secret:
// one that others may not read. A mode that does not parse is taken for
// a secret.
func SecretMode(mode string) bool {
	m, err := strconv.ParseUint(mode, 8, 32)
	return err != nil || m&0o004 == 0
}

// HoldsSecrets reports whether a file of the manifest is a secret.
func (m Manifest) HoldsSecrets() bool {
	for _, e := range m.Entries {
		if e.Type == TypeFile && SecretMode(e.Mode) {
			return true
		}
	}
	return false
}

// DescriptionMode is the mode of a file that describes the profile of
// manifest m, such as the manifest itself: 0600 when the profile holds a
// secret, else 0644.
func (m Manifest) DescriptionMode() fs.FileMode {
	if m.HoldsSecrets() {
		return 0o600
	}
	return 0o644
}
