package profile

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/nodegen/nodegen/internal/regularfile"
	"github.com/nodegen/nodegen/profilecheck"
)

// ManifestName is the name of the manifest inside a profile directory.
const ManifestName = "nodegen-profile.json"

// ManifestVersion is the version of the manifest format that Write writes
// and Read reads.
const ManifestVersion = 1

// Types of manifest entries.
const (
	TypeFile    = "file"
	TypeSymlink = "symlink"
)

// Manifest is the content of nodegen-profile.json: every path of a profile
// and the evaluation's warnings.
type Manifest struct {
	// Version is ManifestVersion.
	Version int `json:"version"`
	// Entries are sorted by Path, each path once.
	Entries []ManifestEntry `json:"entries"`
	// Warnings are the evaluation's warnings, sorted, each once.
	Warnings []string `json:"warnings"`
	// Assets are the release files the profile installs, sorted by name,
	// and Packages the distribution packages it needs, sorted by name.
	Assets   []Asset   `json:"assets,omitempty"`
	Packages []Package `json:"packages,omitempty"`
	// PackageProxy is the HTTP proxy apt-get installs Packages through
	// (environment.packageProxy), "" for apt's own configuration.
	PackageProxy string `json:"packageProxy,omitempty"`
	// ImagePrograms are the programs the profile runs and leaves to the
	// system image (see ImagePrograms), sorted by path.
	ImagePrograms []ImageProgram `json:"imagePrograms,omitempty"`
}

// ManifestEntry describes one path of a profile.
type ManifestEntry struct {
	// Path is relative to the profile directory: "etc/hostname".
	Path string `json:"path"`
	// Type is TypeFile or TypeSymlink.
	Type string `json:"type"`
	// Mode, User and Group are set for files: "0644", "root", "root".
	Mode  string `json:"mode,omitempty"`
	User  string `json:"user,omitempty"`
	Group string `json:"group,omitempty"`
	// SHA256 (lower-case hex) and Size are set for files.
	SHA256 string `json:"sha256,omitempty"`
	Size   *int64 `json:"size,omitempty"`
	// Target is set for symlinks: where the link points.
	Target string `json:"target,omitempty"`
	// Option is the option that produced the path, e.g.
	// environment.etc."hostname".
	Option string `json:"option,omitempty"`
	// Checks are the checks of a file by the programs that read it,
	// which nodegen switch runs before anything changes.
	Checks []profilecheck.ProgramCheck `json:"checks,omitempty"`
}

// Owner returns "user:group".
func (e ManifestEntry) Owner() string { return e.User + ":" + e.Group }

// newManifest builds the manifest of validated entries sorted by target,
// without warnings (see dedupedWarnings).
func newManifest(entries []Entry) Manifest {
	m := Manifest{Version: ManifestVersion, Entries: make([]ManifestEntry, 0, len(entries))}
	for _, e := range entries {
		me := ManifestEntry{Path: "etc/" + e.Target, Option: e.Option}
		if e.Mode == TypeSymlink {
			me.Type = TypeSymlink
			me.Target = e.Link
		} else {
			size := int64(len(e.Content))
			me.Type = TypeFile
			me.Mode = e.Mode
			me.User = e.User
			me.Group = e.Group
			me.SHA256 = contentSHA256.GetBytes(e.Content)
			me.Size = &size
			me.Checks = e.Checks
		}
		m.Entries = append(m.Entries, me)
	}
	return m
}

// dedupedWarnings returns the warnings a manifest records: sorted, each
// once, and never nil.
func dedupedWarnings(warnings []string) []string {
	ws := append([]string(nil), warnings...)
	sort.Strings(ws)
	out := make([]string, 0, len(ws))
	for i, w := range ws {
		if i == 0 || w != ws[i-1] {
			out = append(out, w)
		}
	}
	return out
}

// entries returns m's entries as the Entries Write would have written
// them from, without their content, for treeProblems.
func (m Manifest) entries() []Entry {
	entries := make([]Entry, len(m.Entries))
	for i, e := range m.Entries {
		entries[i] = Entry{Target: strings.TrimPrefix(e.Path, "etc/"), Mode: e.Mode, User: e.User, Group: e.Group, Option: e.Option}
		if e.Type == TypeSymlink {
			entries[i].Mode = TypeSymlink
			entries[i].Link = e.Target
		}
	}
	return entries
}

// Read reads the manifest of the profile in dir and checks that it is well
// formed (see ParseManifest).
func Read(dir string) (Manifest, error) {
	data, err := regularfile.ReadFile(filepath.Join(dir, ManifestName), maxManifestSize, regularfile.RefuseLinks)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return Manifest{}, fmt.Errorf("%s is not a nodegen profile: it has no %s", dir, ManifestName)
		}
		return Manifest{}, err
	}
	return ParseManifest(data, filepath.Join(dir, ManifestName))
}

// ParseManifest decodes a manifest, named name in errors, and checks that
// it is well formed: a known version, entries below etc/ sorted by path,
// each once, with a known type, and none below another entry (below a
// symlink, say), by the rule Write checks before it writes (treeProblems):
// every reader of a profile (switch, receive, diff) accepts only a tree
// that can be made without writing through one of its own links. Modes
// and unit names are switch's check (activate), which reports them all.
func ParseManifest(data []byte, name string) (Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return Manifest{}, fmt.Errorf("%s: %w", name, err)
	}
	if m.Version != ManifestVersion {
		return Manifest{}, fmt.Errorf("%s: unsupported manifest version %d (this nodegen reads version %d)",
			name, m.Version, ManifestVersion)
	}
	for i, e := range m.Entries {
		bad := func(format string, args ...any) (Manifest, error) {
			return Manifest{}, fmt.Errorf("%s: entry %q: %s", name, e.Path, fmt.Sprintf(format, args...))
		}
		if !strings.HasPrefix(e.Path, "etc/") || checkTarget(strings.TrimPrefix(e.Path, "etc/")) != "" {
			return bad("bad path")
		}
		if i > 0 && m.Entries[i-1].Path >= e.Path {
			return bad("entries are not sorted by path, or the path is listed twice")
		}
		switch e.Type {
		case TypeFile:
			if e.Size == nil || len(e.SHA256) != 64 {
				return bad("a file needs sha256 and size")
			}
		case TypeSymlink:
			if !validLink(e.Target) {
				return bad("a symlink needs an absolute target without control characters")
			}
		default:
			return bad("unknown type %q", e.Type)
		}
	}
	if errs := treeProblems(m.entries()); len(errs) > 0 {
		return Manifest{}, fmt.Errorf("%s: %w", name, errs[0])
	}
	if _, _, err := validateBinaries(m.Assets, m.Packages); err != nil {
		return Manifest{}, fmt.Errorf("%s: %w", name, err)
	}
	if err := validateImagePrograms(m.ImagePrograms); err != nil {
		return Manifest{}, fmt.Errorf("%s: %w", name, err)
	}
	if err := ValidatePackageProxy(m.PackageProxy); err != nil {
		return Manifest{}, fmt.Errorf("%s: %w", name, err)
	}
	if m.Entries == nil {
		m.Entries = []ManifestEntry{}
	}
	if m.Warnings == nil {
		m.Warnings = []string{}
	}
	return m, nil
}
