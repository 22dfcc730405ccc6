package activate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"

	"github.com/nodegen/nodegen/internal/keyset"
	"github.com/nodegen/nodegen/profile"
)

// stateVersion is the version of state.json and journal.json.
const stateVersion = 1

// State is what nodegen manages on a system, as state.json records it. It
// is written only once an activation has placed every file.
type State struct {
	Version int `json:"version"`
	// Generation is the active generation; 0 when none is (never switched,
	// or deactivated).
	Generation int `json:"generation"`
	// LastGeneration is the highest generation number ever used, so that
	// numbers are never reused, even after gc.
	LastGeneration int `json:"lastGeneration"`
	// Entries are the paths nodegen placed, sorted by path.
	Entries []Placement `json:"entries"`
	// Dirs are the directories below etc/ that nodegen created, sorted;
	// they are removed when nothing of nodegen's is left in them and they
	// are empty.
	Dirs []string `json:"dirs"`
	// Failures are the last activations that failed at a step after they
	// changed the system (at most maxFailures, oldest first).
	Failures []Failure `json:"failures,omitempty"`
	// Marks are the generations whose last activation failed or was
	// rolled back, by generation (see Mark).
	Marks []Mark `json:"marks,omitempty"`
	// Keys are the keys of the active generation that its activation
	// placed, with their hashes (see installKeys).
	Keys []keyset.Key `json:"keys,omitempty"`
}

// maxFailures bounds the failures state.json keeps.
const maxFailures = 20

// Placement is how one path of a profile is put in place below the root.
type Placement struct {
	// Path is relative to the root: "etc/motd".
	Path string `json:"path"`
	// Kind is KindLink, KindCopy or KindSymlink.
	Kind string `json:"kind"`
	// Target is the symlink's target, for KindLink and KindSymlink.
	Target string `json:"target,omitempty"`
	// SHA256, Mode, User and Group describe a copy; UID and GID are the
	// owner it was given, resolved on the system when it was placed.
	SHA256 string `json:"sha256,omitempty"`
	Mode   string `json:"mode,omitempty"`
	User   string `json:"user,omitempty"`
	Group  string `json:"group,omitempty"`
	UID    int    `json:"uid,omitempty"`
	GID    int    `json:"gid,omitempty"`
	// Option is the option that produced the entry.
	Option string `json:"option,omitempty"`
}

// Kinds of placement.
const (
	// KindLink is a symlink to the entry in /etc/static, for a profile file
	// with mode 0644 owned by root:root.
	KindLink = "link"
	// KindCopy is a copy of the file with its mode and owner, for every
	// other profile file (as NixOS copies environment.etc entries that
	// have a mode, user or group).
	KindCopy = "copy"
	// KindSymlink is a profile symlink, placed as it is.
	KindSymlink = "symlink"
)

// Journal records an activation under way. It is written before the first
// change and removed after the last, so that a crash in between is found
// and healed by the next command.
type Journal struct {
	Version int `json:"version"`
	// From and To are generation numbers, 0 for none.
	From int `json:"from"`
	To   int `json:"to"`
	// Backup says whether conflicting files are moved aside.
	Backup bool `json:"backup"`
	// Dirs are the directories the activation creates (or created).
	Dirs []string `json:"dirs"`
	// Failed is set once a step of the activation failed: the journal is
	// then never completed again, and the next command activates its own
	// generation around it (it knows the paths of both generations).
	Failed *Failure `json:"failed,omitempty"`
	// Stopped are the units the failed activation stopped, started again
	// by its rollback.
	Stopped []string `json:"stopped,omitempty"`
	// TakeOver are the paths replaced on purpose, moved below TakeOverDir.
	TakeOver    []string `json:"takeOver,omitempty"`
	TakeOverDir string   `json:"takeOverDir,omitempty"`
}

// how is how completing the journal's activation treats files in the way.
func (j Journal) how() planHow {
	return planHow{backup: j.Backup, takeOver: j.TakeOver, takeOverDir: j.TakeOverDir}
}

// readState reads state.json; a missing file is the state of a system
// nodegen never switched.
func (s *System) readState() (State, error) {
	var st State
	data, err := s.readFile(stateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return State{Version: stateVersion, Entries: []Placement{}, Dirs: []string{}}, nil
	}
	if err != nil {
		return State{}, err
	}
	if err := json.Unmarshal(data, &st); err != nil {
		return State{}, fmt.Errorf("%s: %w", s.show(stateFile), err)
	}
	if st.Version != stateVersion {
		return State{}, fmt.Errorf("%s: unsupported version %d", s.show(stateFile), st.Version)
	}
	if st.Entries == nil {
		st.Entries = []Placement{}
	}
	if st.Dirs == nil {
		st.Dirs = []string{}
	}
	return st, nil
}

// writeState writes state.json atomically: readable by root only when it
// records the hash of a secret (a copy that others may not read, see
// profile.SecretMode), else by everyone.
func (s *System) writeState(st State) error {
	st.Version = stateVersion
	sort.Slice(st.Entries, func(i, j int) bool { return st.Entries[i].Path < st.Entries[j].Path })
	sort.Strings(st.Dirs)
	mode := fs.FileMode(0o644)
	if len(st.Keys) > 0 {
		mode = 0o600 // the hashes of secrets
	}
	for _, e := range st.Entries {
		if e.Kind == KindCopy && profile.SecretMode(e.Mode) {
			mode = 0o600
		}
	}
	return s.writeJSON(stateFile, st, mode)
}

// readJournal reads journal.json; ok is false when there is none.
func (s *System) readJournal() (j Journal, ok bool, err error) {
	data, err := s.readFile(journalFile)
	if errors.Is(err, fs.ErrNotExist) {
		return Journal{}, false, nil
	}
	if err != nil {
		return Journal{}, false, err
	}
	if err := json.Unmarshal(data, &j); err != nil {
		return Journal{}, false, fmt.Errorf("%s: %w", s.show(journalFile), err)
	}
	if j.Version != stateVersion {
		return Journal{}, false, fmt.Errorf("%s: unsupported version %d", s.show(journalFile), j.Version)
	}
	return j, true, nil
}

func (s *System) writeJournal(j Journal) error {
	j.Version = stateVersion
	sort.Strings(j.Dirs)
	return s.writeJSON(journalFile, j, 0o644)
}
