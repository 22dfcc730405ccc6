package pull

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
)

// StatePath is the pull state, relative to the root.
const StatePath = "var/lib/nodegen/pull/state.json"

// State is what the host's pulls did: the highest serial it applied, and
// how the last pull ended.
type State struct {
	// Serial is the highest serial the host switched to (confirmed or
	// rolled back: neither is tried again); Manifest, Tag and Generation
	// are that pull's.
	Serial     uint64 `json:"serial"`
	Manifest   string `json:"manifest,omitempty"`
	Tag        string `json:"tag,omitempty"`
	Generation int    `json:"generation,omitempty"`
	// Outcome is how the pull of Serial ended: "confirmed" or
	// "rolled back".
	Outcome string `json:"outcome,omitempty"`
	// LastPull is when the last pull ran (RFC 3339), LastSuccess when one
	// last found the registry and what it said acceptable.
	LastPull    string `json:"lastPull,omitempty"`
	LastSuccess string `json:"lastSuccess,omitempty"`
	// LastError is the last pull's error, "" when it succeeded; Code its
	// exit code.
	LastError string `json:"lastError,omitempty"`
	Code      int    `json:"code,omitempty"`
}

// ReadState reads the pull state below root; none is a zero State.
func ReadState(root string) (State, error) {
	var s State
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(StatePath)))
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, err
	}
	err = json.Unmarshal(data, &s)
	return s, err
}

// WriteState writes the pull state below root, atomically.
func WriteState(root string, s State) error {
	p := filepath.Join(root, filepath.FromSlash(StatePath))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".state-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}
