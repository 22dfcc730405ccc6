package activate

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/nodegen/nodegen/profile"
)

// An /etc entry of mode 0644 owned by root is a link /etc/PATH ->
// /etc/static/PATH -> the active generation's file. A program that writes
// through links (echo >> /etc/motd, an editor that saves in place) so
// changes the generation itself: the link is still nodegen's, but what it
// shows is not the generation's file any more. This file finds those edits
// (editedFiles), shows them as drift, refuses an activation that would drop
// one unless it is kept aside (keepEdit), and puts a generation's own file
// back (Restore).

// editedFile is a file of a generation that is not what its manifest says.
type editedFile struct {
	entry profile.ManifestEntry
	why   string
}

// editedFiles verifies the files of generation n against its manifest
// (profile.Verify: the size, then the sha256 of every file); a generation
// that cannot be read has none.
func (s *System) editedFiles(n int) ([]editedFile, error) {
	if n == 0 {
		return nil, nil
	}
	_, m, err := s.readGeneration(n)
	if err != nil {
		return nil, nil
	}
	t, err := profile.Verify(s.genDir(n), m)
	if err != nil {
		return nil, fmt.Errorf("generation %d: %w", n, err)
	}
	byPath := map[string]profile.ManifestEntry{}
	for _, e := range m.Entries {
		byPath[e.Path] = e
	}
	out := make([]editedFile, 0, len(t))
	for _, x := range t {
		out = append(out, editedFile{entry: byPath[x.Path], why: x.Why})
	}
	return out, nil
}

// editedDrift describes, for status, an edit made into generation n at
// rel; through says whether /etc shows it through nodegen's link.
func (s *System) editedDrift(n int, f editedFile, through bool) Drift {
	genFile := path.Join(generationDir(n), f.entry.Path)
	now := fmt.Sprintf("the generation's copy %s was changed (%s)", "/"+genFile, f.why)
	if through {
		now = fmt.Sprintf("edited through its link: %s, which it shows, is not generation %d's file (%s)", "/"+genFile, n, f.why)
	}
	return Drift{Path: s.show(f.entry.Path), Option: f.entry.Option, Now: now, GenerationFile: s.show(genFile), Hint: EditedHint("/" + f.entry.Path)}
}

// EditedHint says the ways out of an edit made through a link into the
// active generation, for status and the refusals of switch and rollback.
func EditedHint(shown string) string {
	return fmt.Sprintf("take the edit into the host's configuration (environment.etc) and switch to it; or keep the edited file under /var/lib/nodegen/taken-over and switch anyway: nodegen switch --take-over %s PROFILE; or put back the generation's own file, keeping the edit the same way: nodegen restore %s", shown, shown)
}

// editedSum returns the sha256 of the regular file rel below the root,
// and whether it is one that could be read.
func (s *System) editedSum(rel string) (string, bool) {
	if fi, err := s.r.Lstat(rel); err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	sum, err := s.sha256Of(rel)
	return sum, err == nil
}

// planEdits finds the files of the generation the activation leaves that
// were edited through their links, and decides for each: nothing to do
// when the target shows the same content (the edit was taken into the
// configuration) or the target is that generation itself; kept (copied
// below the take-over directory) when the user named it with --take-over
// or how.keepEdits; otherwise a conflict naming the ways out.
func (s *System) planEdits(p *Plan, how planHow) error {
	if p.From == 0 || p.From == p.To {
		return nil
	}
	edited, err := s.editedFiles(p.From)
	if err != nil {
		return err
	}
	target := map[string]profile.ManifestEntry{}
	for _, e := range p.manifest.Entries {
		target[e.Path] = e
	}
	named := map[string]bool{}
	for _, rel := range how.takeOver {
		named[rel] = true
	}
	for _, f := range edited {
		rel := f.entry.Path
		genFile := path.Join(generationDir(p.From), rel)
		if t, ok := target[rel]; ok && t.Type == profile.TypeFile {
			if sum, ok := s.editedSum(genFile); ok && sum == t.SHA256 {
				continue
			}
		}
		if _, ok := s.editedSum(genFile); !ok {
			// Removed or replaced by something else than a file:
			// there is nothing of the admin's to keep.
			continue
		}
		if named[rel] || how.keepEdits {
			p.KeepEdited = append(p.KeepEdited, rel)
			continue
		}
		p.conflict(s, rel, "edited through its link into generation %d (%s, %s); the activation would drop the edit: %s",
			p.From, s.show(genFile), f.why, EditedHint("/"+rel))
	}
	return nil
}

// keepEdit copies the edited file of generation from at rel to dst, below
// the take-over directory; a copy already there (made before a crash) is
// kept as it is.
func (s *System) keepEdit(from int, rel, dst string) error {
	if _, err := s.r.Lstat(dst); err == nil {
		return nil
	}
	src := path.Join(generationDir(from), rel)
	if err := s.r.MkdirAll(path.Dir(dst), 0o700); err != nil {
		return unwrapPath(err)
	}
	in, err := s.r.Open(src)
	if err != nil {
		return unwrapPath(err)
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", s.show(src))
	}
	tmp := dst + ".tmp"
	out, err := s.r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		s.r.Remove(tmp)
		out, err = s.r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	}
	if err != nil {
		return unwrapPath(err)
	}
	_, err = io.Copy(out, in)
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = s.r.Chmod(tmp, fi.Mode().Perm())
	}
	if err == nil {
		err = s.r.Rename(tmp, dst)
	}
	if err != nil {
		s.r.Remove(tmp)
		return fmt.Errorf("keeping %s (edited through its link) as %s: %w", s.show(src), s.show(dst), unwrapPath(err))
	}
	s.logf("kept %s, edited through its link, as %s", s.show(src), s.show(dst))
	return nil
}

// Restore puts back the active generation's own file at each of paths
// ("/etc/motd"), where it was edited through its link: the edited file is
// first kept below var/lib/nodegen/taken-over (as switch --take-over
// keeps what it replaces), then the generation's file is written again,
// whole, from a copy verified against the generation's manifest: the
// profile in from when given, else a file of another generation with the
// same sha256. It returns where the edits were kept.
func (s *System) Restore(paths []string, from string) (string, error) {
	if j, err := s.Pending(); err != nil {
		return "", err
	} else if j != nil {
		return "", fmt.Errorf("an activation is pending (nodegen status shows it); the next switch, rollback or deactivate completes it: restore after it")
	}
	st, err := s.readState()
	if err != nil {
		return "", err
	}
	if st.Generation == 0 {
		return "", fmt.Errorf("no generation is active: nothing to restore")
	}
	edited, err := s.editedFiles(st.Generation)
	if err != nil {
		return "", err
	}
	byPath := map[string]editedFile{}
	for _, f := range edited {
		byPath[f.entry.Path] = f
	}
	type fix struct {
		rel  string
		e    profile.ManifestEntry
		data []byte
	}
	var fixes []fix
	for _, p := range paths {
		rel := strings.TrimPrefix(path.Clean("/"+p), "/")
		f, ok := byPath[rel]
		if !ok {
			return "", fmt.Errorf("/%s: generation %d's file is as its manifest says (or is not one of its files): nothing to restore", rel, st.Generation)
		}
		if f.entry.Type != profile.TypeFile {
			return "", fmt.Errorf("/%s: generation %d's entry is a symlink (%s); nodegen restore puts back files", rel, st.Generation, f.why)
		}
		data, err := s.findCopy(f.entry, from, st.Generation)
		if err != nil {
			return "", fmt.Errorf("/%s: %w", rel, err)
		}
		fixes = append(fixes, fix{rel, f.entry, data})
	}
	dir := s.freeName(path.Join(takenOverDir, s.now().UTC().Format("20060102T150405Z")))
	for _, f := range fixes {
		genFile := path.Join(generationDir(st.Generation), f.rel)
		if _, ok := s.editedSum(genFile); ok {
			if err := s.keepEdit(st.Generation, f.rel, path.Join(dir, f.rel)); err != nil {
				return "", err
			}
		}
		mode, err := parseMode(f.e.Mode)
		if err != nil {
			return "", fmt.Errorf("/%s: %w", f.rel, err)
		}
		if err := s.writeGenerationFile(genFile, f.data, mode); err != nil {
			return "", err
		}
		s.logf("restored generation %d's %s", st.Generation, s.show(genFile))
	}
	return dir, nil
}

// findCopy finds the content of the generation entry e: in the profile
// from (when given), else in a file of any other generation that has the
// same sha256; each verified against e.
func (s *System) findCopy(e profile.ManifestEntry, from string, active int) ([]byte, error) {
	if from != "" {
		data, err := profile.ReadEntry(from, e)
		if err != nil {
			return nil, fmt.Errorf("%s does not hold the generation's file: %w", from, err)
		}
		return data, nil
	}
	ns, err := s.generationNumbers()
	if err != nil {
		return nil, err
	}
	for i := len(ns) - 1; i >= 0; i-- {
		if ns[i] == active {
			continue
		}
		_, m, err := s.readGeneration(ns[i])
		if err != nil {
			continue
		}
		for _, o := range m.Entries {
			if o.Type == profile.TypeFile && o.SHA256 == e.SHA256 {
				o.Size = e.Size
				if data, err := profile.ReadEntry(s.genDir(ns[i]), o); err == nil {
					return data, nil
				}
			}
		}
	}
	return nil, fmt.Errorf("no other generation holds the generation's file (sha256 %s): name the profile it came from, nodegen restore --from PROFILE PATH, or switch with --take-over PATH", e.SHA256)
}

// writeGenerationFile replaces the generation's file rel with data, whole
// (a temporary file renamed over it, after a sync).
func (s *System) writeGenerationFile(rel string, data []byte, mode fs.FileMode) error {
	tmp := rel + ".nodegen-restore"
	s.r.Remove(tmp)
	f, err := s.r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return unwrapPath(err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = s.r.Chmod(tmp, mode)
	}
	if err == nil {
		err = s.r.Rename(tmp, rel)
	}
	if err != nil {
		s.r.Remove(tmp)
		return fmt.Errorf("restoring %s: %w", s.show(rel), unwrapPath(err))
	}
	return s.syncDir(path.Dir(rel))
}
