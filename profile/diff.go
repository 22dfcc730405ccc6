package profile

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/nodegen/nodegen/internal/regularfile"
)

// Changes is what changed between two profiles, as Diff finds it. Every
// list is sorted and never nil, so that the JSON form has [] rather than
// null.
type Changes struct {
	// Added and Removed are the paths only in the new, or only in the old,
	// profile.
	Added   []ManifestEntry `json:"added"`
	Removed []ManifestEntry `json:"removed"`
	// Changed are the paths in both whose type, content, link target, mode
	// or owner differ.
	Changed []FileChange `json:"changed"`
	// Units is what switching from the old profile to the new would do to
	// systemd units.
	Units UnitChanges `json:"units"`
	// Binaries are the assets and packages that differ; nil when none do.
	Binaries *BinaryChanges `json:"binaries,omitempty"`
}

// BinaryChanges are the assets and packages that differ between two
// profiles, each list sorted.
type BinaryChanges struct {
	// Assets added, removed, or changed (another download or other files),
	// by name.
	AddedAssets   []Asset       `json:"addedAssets"`
	RemovedAssets []Asset       `json:"removedAssets"`
	ChangedAssets []AssetChange `json:"changedAssets"`
	// Packages added and removed, by name.
	AddedPackages   []string `json:"addedPackages"`
	RemovedPackages []string `json:"removedPackages"`
	// PackageProxy is set when the proxy apt-get goes through changed.
	PackageProxy *PackageProxyChange `json:"packageProxy,omitempty"`
}

// PackageProxyChange is a changed environment.packageProxy; "" is none.
type PackageProxyChange struct {
	Old string `json:"old"`
	New string `json:"new"`
}

// AssetChange is an asset whose download or files differ.
type AssetChange struct {
	Name string `json:"name"`
	Old  Asset  `json:"old"`
	New  Asset  `json:"new"`
}

// diffBinaries compares the binaries of two manifests; nil when equal.
func diffBinaries(om, nm Manifest) *BinaryChanges {
	b := &BinaryChanges{AddedAssets: []Asset{}, RemovedAssets: []Asset{}, ChangedAssets: []AssetChange{}, AddedPackages: []string{}, RemovedPackages: []string{}}
	oldAssets := map[string]Asset{}
	for _, a := range om.Assets {
		oldAssets[a.Name] = a
	}
	newAssets := map[string]bool{}
	for _, a := range nm.Assets {
		newAssets[a.Name] = true
		o, ok := oldAssets[a.Name]
		switch {
		case !ok:
			b.AddedAssets = append(b.AddedAssets, a)
		case o.Key() != a.Key() || o.URL != a.URL || fmt.Sprint(o.Files) != fmt.Sprint(a.Files):
			b.ChangedAssets = append(b.ChangedAssets, AssetChange{Name: a.Name, Old: o, New: a})
		}
	}
	for _, a := range om.Assets {
		if !newAssets[a.Name] {
			b.RemovedAssets = append(b.RemovedAssets, a)
		}
	}
	oldPkgs, newPkgs := map[string]bool{}, map[string]bool{}
	for _, p := range om.Packages {
		oldPkgs[p.Name] = true
	}
	for _, p := range nm.Packages {
		newPkgs[p.Name] = true
		if !oldPkgs[p.Name] {
			b.AddedPackages = append(b.AddedPackages, p.Name)
		}
	}
	for _, p := range om.Packages {
		if !newPkgs[p.Name] {
			b.RemovedPackages = append(b.RemovedPackages, p.Name)
		}
	}
	if om.PackageProxy != nm.PackageProxy {
		b.PackageProxy = &PackageProxyChange{Old: om.PackageProxy, New: nm.PackageProxy}
	}
	if len(b.AddedAssets)+len(b.RemovedAssets)+len(b.ChangedAssets)+len(b.AddedPackages)+len(b.RemovedPackages) == 0 && b.PackageProxy == nil {
		return nil
	}
	return b
}

// FileChange is a path whose entry differs between two profiles.
type FileChange struct {
	// Path is the path in both profiles, "etc/...".
	Path string `json:"path"`
	// Old and New are the path's entries in the old and new manifest.
	Old ManifestEntry `json:"old"`
	New ManifestEntry `json:"new"`
	// What differs: the type (file or symlink), a file's content, a
	// symlink's target, a file's mode or owner.
	TypeChanged    bool `json:"typeChanged"`
	ContentChanged bool `json:"contentChanged"`
	TargetChanged  bool `json:"targetChanged"`
	ModeChanged    bool `json:"modeChanged"`
	OwnerChanged   bool `json:"ownerChanged"`
	// Diff is a unified diff of the content, when both are text files (and
	// readable).
	Diff string `json:"diff,omitempty"`
	// Binary is set when the content changed and is not text.
	Binary bool `json:"binary,omitempty"`
}

// UnitChanges says which systemd units (below etc/systemd/system/) switching
// profiles would act on, following NixOS's switch-to-configuration:
//
//   - a unit that appears (or is unmasked) is started if a target wants it:
//     it has a symlink in some *.wants/, *.requires/ or *.upholds/
//     directory; so is an unchanged unit that a target newly wants;
//   - a unit that disappears (or is masked) is stopped, unless it says
//     X-StopOnRemoval=false;
//   - a unit whose file or drop-ins (unit.d/*.conf; for an instance, its
//     template's too) changed, or a file it runs (the executable of an
//     Exec*= setting, a script that one runs, an EnvironmentFile=; a file
//     of the profile or an asset's, see ranFiles), is reloaded if it says
//     X-ReloadIfChanged=true,
//     not restarted if it says X-RestartIfChanged=false,
//     RefuseManualStop=true or X-OnlyManualStart=true, and restarted
//     otherwise; a unit whose only change is in its X-Reload-Triggers=
//     lines (reloadTriggers) is reloaded rather than restarted (a change
//     of its X-Restart-Triggers= lines, restartTriggers, restarts it as
//     any change of its file does); except
//     that changed targets, slices and paths are left
//     alone (their changes take effect on daemon-reload), and changed mounts
//     are reloaded (which remounts them).
//
// Those settings are read from the [Unit] section and the unit type's own
// section ([Service], ...), later drop-ins overriding earlier ones.
type UnitChanges struct {
	Start        []string `json:"start"`        // units to start
	Stop         []string `json:"stop"`         // units to stop
	Restart      []string `json:"restart"`      // changed units to restart
	Reload       []string `json:"reload"`       // changed units to reload
	NotRestarted []string `json:"notRestarted"` // changed units left running as they are
}

// Empty reports whether nothing changed.
func (c Changes) Empty() bool {
	return len(c.Added) == 0 && len(c.Removed) == 0 && len(c.Changed) == 0 && c.Units.empty() && c.Binaries == nil
}

func (u UnitChanges) empty() bool {
	return len(u.Start) == 0 && len(u.Stop) == 0 && len(u.Restart) == 0 && len(u.Reload) == 0 && len(u.NotRestarted) == 0
}

// Diff compares the profiles in oldDir and newDir (both written by Write):
// the paths added, removed and changed, with a unified diff of changed text
// files, and what switching would do to systemd units (see UnitChanges).
// An empty oldDir or newDir stands for a profile without entries: what a
// first switch, or a deactivation, does.
func Diff(oldDir, newDir string) (Changes, error) {
	return diff(oldDir, newDir, false)
}

// DiffFromEdited is Diff from a profile whose files may have been changed
// since it was written, as an edit made through a link into an active
// generation changes it: a file of oldDir that is not its manifest's is
// read as it is now (a regular file of at most 64 MiB), since that is what
// the system shows and runs. newDir is verified as Diff verifies it.
func DiffFromEdited(oldDir, newDir string) (Changes, error) {
	return diff(oldDir, newDir, true)
}

// maxEdited bounds an edited file that DiffFromEdited reads.
const maxEdited = 64 << 20

func diff(oldDir, newDir string, oldEdited bool) (Changes, error) {
	oldSide, err := readSide(oldDir)
	if err != nil {
		return Changes{}, err
	}
	oldSide.edited = oldEdited
	newSide, err := readSide(newDir)
	if err != nil {
		return Changes{}, err
	}
	om, nm := oldSide.manifest, newSide.manifest
	c := Changes{
		Added:   []ManifestEntry{},
		Removed: []ManifestEntry{},
		Changed: []FileChange{},
	}
	for _, e := range om.Entries {
		if _, ok := newSide.byPath[e.Path]; !ok {
			c.Removed = append(c.Removed, e)
		}
	}
	for _, ne := range nm.Entries {
		oe, ok := oldSide.byPath[ne.Path]
		if !ok {
			c.Added = append(c.Added, ne)
			continue
		}
		fc := FileChange{
			Path:        ne.Path,
			Old:         oe,
			New:         ne,
			TypeChanged: oe.Type != ne.Type,
		}
		if !fc.TypeChanged {
			fc.ContentChanged = ne.Type == TypeFile && oe.SHA256 != ne.SHA256
			fc.TargetChanged = ne.Type == TypeSymlink && oe.Target != ne.Target
			fc.ModeChanged = ne.Type == TypeFile && oe.Mode != ne.Mode
			fc.OwnerChanged = ne.Type == TypeFile && oe.Owner() != ne.Owner()
		}
		if !fc.TypeChanged && !fc.ContentChanged && !fc.TargetChanged && !fc.ModeChanged && !fc.OwnerChanged {
			continue
		}
		if fc.ContentChanged {
			a, err := oldSide.content(oe)
			if errors.Is(err, fs.ErrPermission) {
				// A file its mode makes unreadable to us: no diff.
				c.Changed = append(c.Changed, fc)
				continue
			}
			if err != nil {
				return Changes{}, err
			}
			b, err := newSide.content(ne)
			if errors.Is(err, fs.ErrPermission) {
				c.Changed = append(c.Changed, fc)
				continue
			}
			if err != nil {
				return Changes{}, err
			}
			if isText(a) && isText(b) {
				fc.Diff = unifiedDiff("a/"+ne.Path, "b/"+ne.Path, a, b)
			} else {
				fc.Binary = true
			}
		}
		c.Changed = append(c.Changed, fc)
	}
	units, err := unitChanges(oldSide, newSide)
	if err != nil {
		return Changes{}, err
	}
	c.Units = units
	c.Binaries = diffBinaries(om, nm)
	return c, nil
}

// side is one profile of a Diff.
type side struct {
	dir      string
	manifest Manifest
	byPath   map[string]ManifestEntry
	// edited says a file that is not the manifest's is read as it is.
	edited bool
}

// readSide reads the profile in dir; "" is the empty profile.
func readSide(dir string) (*side, error) {
	if dir == "" {
		return &side{byPath: map[string]ManifestEntry{}}, nil
	}
	m, err := Read(dir)
	if err != nil {
		return nil, err
	}
	return &side{dir: dir, manifest: m, byPath: index(m)}, nil
}

func index(m Manifest) map[string]ManifestEntry {
	byPath := make(map[string]ManifestEntry, len(m.Entries))
	for _, e := range m.Entries {
		byPath[e.Path] = e
	}
	return byPath
}

// content reads a file of the profile and checks it against the manifest.
func (s *side) content(e ManifestEntry) ([]byte, error) {
	data, err := ReadEntry(s.dir, e)
	if s.edited && errors.Is(err, ErrModified) {
		return regularfile.ReadFile(filepath.Join(s.dir, filepath.FromSlash(e.Path)), maxEdited, regularfile.RefuseLinks)
	}
	return data, err
}

// ErrModified is wrapped by the errors of a profile's file that is not
// what its manifest says: the profile was modified after it was written.
var ErrModified = errors.New("the profile was modified")

// ReadEntry reads the file of manifest entry e in the profile in dir: a
// regular file of at most its manifest size (see regularfile.ReadFile) whose sha256
// is the manifest's, so that a profile changed after it was written is an
// error.
//
// A file that is there but is not the manifest's (another kind of file,
// larger, another sha256) is an error that wraps ErrModified.
func ReadEntry(dir string, e ManifestEntry) ([]byte, error) {
	data, err := regularfile.ReadFile(filepath.Join(dir, filepath.FromSlash(e.Path)), *e.Size, regularfile.RefuseLinks)
	if err != nil {
		if errors.Is(err, regularfile.ErrRefused) {
			return nil, fmt.Errorf("%w: %w", ErrModified, err)
		}
		return nil, err
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != e.SHA256 {
		return nil, fmt.Errorf("%w: %s: %s does not match its sha256 in the manifest",
			ErrModified, dir, e.Path)
	}
	return data, nil
}

// WriteText writes the changes for people: the paths added, removed and
// changed, the unit actions, then the diffs of changed text files; "no
// changes" when there are none. The output is deterministic.
func (c Changes) WriteText(w io.Writer) error {
	var b strings.Builder
	if c.Empty() {
		b.WriteString("no changes\n")
	}
	if len(c.Added) > 0 {
		b.WriteString("added:\n")
		for _, e := range c.Added {
			fmt.Fprintf(&b, "  %s (%s)\n", e.Path, describe(e))
		}
	}
	if len(c.Removed) > 0 {
		b.WriteString("removed:\n")
		for _, e := range c.Removed {
			fmt.Fprintf(&b, "  %s (%s)\n", e.Path, describe(e))
		}
	}
	if len(c.Changed) > 0 {
		b.WriteString("changed:\n")
		for _, fc := range c.Changed {
			var what []string
			if fc.TypeChanged {
				what = append(what, fmt.Sprintf("%s -> %s", describe(fc.Old), describe(fc.New)))
			}
			if fc.ContentChanged {
				if fc.Binary {
					what = append(what, "content (binary)")
				} else {
					what = append(what, "content")
				}
			}
			if fc.TargetChanged {
				what = append(what, fmt.Sprintf("target %s -> %s", fc.Old.Target, fc.New.Target))
			}
			if fc.ModeChanged {
				what = append(what, fmt.Sprintf("mode %s -> %s", fc.Old.Mode, fc.New.Mode))
			}
			if fc.OwnerChanged {
				what = append(what, fmt.Sprintf("owner %s -> %s", fc.Old.Owner(), fc.New.Owner()))
			}
			fmt.Fprintf(&b, "  %s: %s\n", fc.Path, strings.Join(what, ", "))
		}
	}
	if !c.Units.empty() {
		b.WriteString("units:\n")
		for _, l := range []struct {
			what  string
			units []string
		}{
			{"stop", c.Units.Stop},
			{"restart", c.Units.Restart},
			{"reload", c.Units.Reload},
			{"start", c.Units.Start},
			{"not restarted", c.Units.NotRestarted},
		} {
			if len(l.units) > 0 {
				fmt.Fprintf(&b, "  %s: %s\n", l.what, strings.Join(l.units, " "))
			}
		}
	}
	if bc := c.Binaries; bc != nil {
		b.WriteString("binaries:\n")
		for _, a := range bc.AddedAssets {
			fmt.Fprintf(&b, "  + asset %s: %s (%s)\n", a.Name, a.URL, a.Key())
		}
		for _, a := range bc.RemovedAssets {
			fmt.Fprintf(&b, "  - asset %s: %s\n", a.Name, a.URL)
		}
		for _, ac := range bc.ChangedAssets {
			fmt.Fprintf(&b, "  ~ asset %s: %s (%s) -> %s (%s)\n", ac.Name, ac.Old.URL, shortKey(ac.Old), ac.New.URL, shortKey(ac.New))
		}
		for _, p := range bc.AddedPackages {
			fmt.Fprintf(&b, "  + package %s\n", p)
		}
		for _, p := range bc.RemovedPackages {
			fmt.Fprintf(&b, "  - package %s\n", p)
		}
		if pc := bc.PackageProxy; pc != nil {
			fmt.Fprintf(&b, "  ~ packageProxy: %s -> %s\n", orNone(pc.Old), orNone(pc.New))
		}
	}
	for _, fc := range c.Changed {
		if fc.Diff != "" {
			b.WriteString("\n")
			b.WriteString(fc.Diff)
		} else if fc.Binary {
			fmt.Fprintf(&b, "\nBinary files a/%s and b/%s differ\n", fc.Path, fc.Path)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// shortKey is an asset's hash, shortened for people.
func shortKey(a Asset) string {
	k := a.Key()
	if len(k) > 19 {
		return k[:19]
	}
	return k
}

// describe says what an entry is: "file 0644 root:root" or
// "symlink -> /target".
func describe(e ManifestEntry) string {
	if e.Type == TypeSymlink {
		return "symlink -> " + e.Target
	}
	return fmt.Sprintf("file %s %s", e.Mode, e.Owner())
}
