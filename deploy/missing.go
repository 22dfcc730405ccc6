package deploy

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nodegen/nodegen/profile"
)

// The answer of `nodegen receive --missing` is the only thing a host
// chooses of what the deployer sends: the SHA-256 hashes of the files of
// the manifest it has no copy of, one a line. The deployer looks each one
// up in the manifest of the profile it evaluated and sends that file, so
// a host, even one whose root is compromised, can name nothing else: an
// answer that is not a list of hashes of that manifest is refused, and
// nothing is read for it.

// parseMissing reads a host's answer to receive --missing for manifest m:
// each line the hash of one of m's files, each once. It returns the entry
// of m to send for each hash (the first with that content), in the order
// of the answer.
func parseMissing(answer string, m profile.Manifest) ([]profile.ManifestEntry, error) {
	byHash := map[string]profile.ManifestEntry{}
	for _, e := range m.Entries {
		if e.Type == profile.TypeFile {
			if _, ok := byHash[e.SHA256]; !ok {
				byHash[e.SHA256] = e
			}
		}
	}
	// Each line is 64 hex digits and a newline: an answer longer than
	// every hash of the manifest is refused before it is split.
	if max := len(byHash) * 65; len(answer) > max {
		return nil, fmt.Errorf("the answer has %d bytes, more than the %d of all %d contents of the manifest", len(answer), max, len(byHash))
	}
	if answer == "" {
		return nil, nil
	}
	if !strings.HasSuffix(answer, "\n") {
		return nil, fmt.Errorf("the answer does not end with a newline")
	}
	lines := strings.Split(strings.TrimSuffix(answer, "\n"), "\n")
	send := make([]profile.ManifestEntry, 0, len(lines))
	seen := map[string]bool{}
	for i, h := range lines {
		e, ok := byHash[h]
		switch {
		case !isSHA256(h):
			return nil, fmt.Errorf("line %d is not a SHA-256 hash: %s", i+1, quoteShort(h))
		case !ok:
			return nil, fmt.Errorf("line %d, %s, is the hash of no file of the profile", i+1, h)
		case seen[h]:
			return nil, fmt.Errorf("line %d, %s, names a content twice", i+1, h)
		}
		seen[h] = true
		send = append(send, e)
	}
	return send, nil
}

// isSHA256 reports whether s is a SHA-256 in lower-case hex, as the
// manifest writes them.
func isSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// quoteShort quotes s for a message, escaped, at most 80 bytes of it.
func quoteShort(s string) string {
	if len(s) > 80 {
		return strconv.Quote(s[:80]) + "..."
	}
	return strconv.Quote(s)
}
