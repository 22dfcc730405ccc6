package activate

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/nodegen/nodegen/internal/keyset"
	"github.com/nodegen/nodegen/profile"
)

// Conflict is a path that an activation will not take over or remove.
type Conflict struct {
	// Path is the path as a user sees it on the system ("/etc/motd").
	Path string `json:"path"`
	// Reason says what is there and what to do.
	Reason string `json:"reason"`
}

// Plan is what an activation does, as its check stage works it out before
// anything changes. Paths are relative to the root ("etc/motd").
type Plan struct {
	// From and To are generation numbers; 0 is none.
	From int `json:"from"`
	To   int `json:"to"`
	// NewGeneration says To is a generation the switch made (or, on a dry
	// run, would make: To is then 0).
	NewGeneration bool `json:"newGeneration"`
	// Place are the entries put in place (new, or replacing nodegen's own);
	// Unchanged counts the entries already in place.
	Place     []Placement `json:"place"`
	Unchanged int         `json:"unchanged"`
	// Updated are links into /etc/static that stay, whose files change
	// with the generation.
	Updated []string `json:"updated"`
	// Remove are entries of the current generation that the target does
	// not have.
	Remove []string `json:"remove"`
	// LeftInPlace are entries that the target does not have but that were
	// changed since nodegen placed them: they are left as they are and no
	// longer managed.
	LeftInPlace []string `json:"leftInPlace"`
	// Backup are files in the way that are moved aside (with Backup), and
	// Restore the backups that come back because nodegen no longer
	// manages their paths.
	Backup  []string `json:"backup"`
	Restore []string `json:"restore"`
	// Stock are the files of Backup that are moved aside without Backup:
	// the OS installer or a package put them there, unchanged since (see
	// StockFile).
	Stock []StockFile `json:"stock"`
	// TakeOver are files in the way replaced on purpose (SwitchOptions.
	// TakeOver), moved below TakenOverTo first.
	TakeOver    []string `json:"takeOver"`
	TakenOverTo string   `json:"takenOverTo,omitempty"`
	// KeepEdited are files of the generation left that were edited
	// through their links (echo >> /etc/motd writes into the generation):
	// each is copied below TakenOverTo before the activation changes what
	// the path shows.
	KeepEdited []string `json:"keepEdited"`
	// CreateDirs are the directories created for new entries.
	CreateDirs []string `json:"createDirs"`
	// Conflicts are what stops the activation: nothing changes while there
	// is one.
	Conflicts []Conflict `json:"conflicts"`
	// Invalid are what the apply stages would fail on in the target
	// profile (see checkProfile): nothing changes while there is one.
	Invalid []Conflict `json:"invalid"`
	// Units is what happens to systemd units.
	Units UnitPlan `json:"units"`
	// Download are the assets not in the cache yet, and Install the
	// packages not installed yet.
	Download []string `json:"download"`
	Install  []string `json:"install"`

	target   []Placement      // every entry of the target generation
	manifest profile.Manifest // the target generation's manifest
	state    State            // the state the plan starts from
	journal  Journal          // what the activation writes before changing anything
	failure  *Failure         // a failed activation this one goes around, for state.json
	keptDirs []string         // the created directories still there after apply
	keys     []keyset.Key     // the keys the keys step placed, for state.json
	// stillFailed are the units failed before that apply did not act on
	// and that are failed still.
	stillFailed []string
	owners      *owners
	mine        known      // the placements nodegen may have made at each path
	dpkg        *dpkgFiles // the packages' files, read on the first conflict
}

// BackupHint says how to have nodegen keep the files in the way of a
// profile, for the messages that refuse them.
const BackupHint = "nodegen switch --backup, nodegen deploy --backup, or deployment.backupConflicts = true in the host's configuration"

// planHow is how a plan treats files in the way: backup moves them aside
// (and restores them later); takeOver, paths relative to the root, are
// replaced on purpose after they are moved below takeOverDir.
type planHow struct {
	backup      bool
	takeOver    []string
	takeOverDir string
	// named says the user named takeOver (not a journal): each must be a
	// file in the way.
	named bool
	// keepEdits keeps every file of the generation left that was edited
	// through its link (see planEdits) instead of refusing: rollback, the
	// way back, is never stopped by one.
	keepEdits bool
}

// known are the placements nodegen may have made at each path: those the
// state records, and those of an interrupted activation's target.
type known map[string][]Placement

func (k known) add(ps []Placement) {
	for _, p := range ps {
		k[p.Path] = append(k[p.Path], p)
	}
}

// placementOf says how a profile entry is put in place: a symlink as it
// is, a file with mode 0644 owned by root:root as a link into /etc/static,
// any other file as a copy.
func placementOf(e profile.ManifestEntry) Placement {
	p := Placement{Path: e.Path, Option: e.Option}
	switch {
	case e.Type == profile.TypeSymlink:
		p.Kind, p.Target = KindSymlink, e.Target
	case normMode(e.Mode) == "0644" && e.User == "root" && e.Group == "root":
		p.Kind, p.Target = KindLink, "/etc/static/"+strings.TrimPrefix(e.Path, "etc/")
	default:
		p.Kind, p.SHA256, p.Mode, p.User, p.Group = KindCopy, e.SHA256, normMode(e.Mode), e.User, e.Group
		p.UID, p.GID = -1, -1
	}
	return p
}

// normMode writes a mode with four digits: "644" -> "0644".
func normMode(m string) string {
	if len(m) == 3 {
		return "0" + m
	}
	return m
}

// placements are the placements of a manifest's entries, with owners
// resolved where they can be.
func placements(m profile.Manifest, o *owners) []Placement {
	ps := make([]Placement, 0, len(m.Entries))
	for _, e := range m.Entries {
		p := placementOf(e)
		if p.Kind == KindCopy {
			if uid, ok := o.uid(p.User); ok {
				p.UID = uid
			}
			if gid, ok := o.gid(p.Group); ok {
				p.GID = gid
			}
		}
		ps = append(ps, p)
	}
	return append(ps, assetPlacements(m)...)
}

// onDisk is what a path holds now.
type onDisk struct {
	fi   fs.FileInfo // nil when nothing is there
	link string      // a symlink's target
	// open opens the file that was looked at, by the name it was
	// looked at by.
	open func() (*os.File, error)
}

func (s *System) inspect(rel string) (onDisk, error) {
	d, err := inspectIn(s.r, rel)
	if err != nil {
		return onDisk{}, fmt.Errorf("%s: %w", s.show(rel), unwrapPath(err))
	}
	return d, nil
}

// inspectIn looks at rel below r without following it.
func inspectIn(r *os.Root, rel string) (onDisk, error) {
	fi, err := r.Lstat(rel)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return onDisk{}, nil
	}
	if err != nil {
		return onDisk{}, err
	}
	d := onDisk{fi: fi, open: func() (*os.File, error) { return r.Open(rel) }}
	if fi.Mode()&fs.ModeSymlink != 0 {
		if d.link, err = r.Readlink(rel); err != nil {
			return onDisk{}, err
		}
	}
	return d, nil
}

// holds reports whether what is on disk is placement p.
func (s *System) holds(d onDisk, p Placement) bool {
	if d.fi == nil {
		return false
	}
	switch p.Kind {
	case KindLink, KindSymlink:
		return d.fi.Mode()&fs.ModeSymlink != 0 && d.link == p.Target
	}
	if !d.fi.Mode().IsRegular() {
		return false
	}
	mode, err := parseMode(p.Mode)
	if err != nil || d.fi.Mode()&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) != mode {
		return false
	}
	if st, ok := d.fi.Sys().(*syscall.Stat_t); ok && p.UID >= 0 && p.GID >= 0 {
		if int(st.Uid) != p.UID || int(st.Gid) != p.GID {
			return false
		}
	}
	f, err := d.open()
	if err != nil {
		return false
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.CopyN(h, f, d.fi.Size()); err != nil {
		return false
	}
	return hex.EncodeToString(h.Sum(nil)) == p.SHA256
}

// describe says what is on disk, for conflicts.
func describe(d onDisk) string {
	switch {
	case d.fi.Mode()&fs.ModeSymlink != 0:
		return "a symlink to " + d.link
	case d.fi.IsDir():
		return "a directory"
	case d.fi.Mode().IsRegular():
		return "a file"
	}
	return "a special file"
}

// plan works out the activation from the state (and an interrupted
// activation's journal) to generation to (0: none), without changing
// anything.
//
// The target's profile is read from toDir, which is its generation's
// directory unless given (a profile not yet made a generation, for a dry
// run or the check before one is made).
func (s *System) plan(st State, interrupted *Journal, to int, toDir string, how planHow) (*Plan, error) {
	backup := how.backup
	// The units change from the generation the system had before: the
	// interrupted activation's start when completing it, its end when
	// planning what comes after it.
	from := st.Generation
	if interrupted != nil {
		from = interrupted.To
		if to == interrupted.To {
			from = interrupted.From
		}
	}
	p := &Plan{
		From: from, To: to, state: st,
		Place: []Placement{}, Updated: []string{}, Remove: []string{}, LeftInPlace: []string{}, Backup: []string{}, Stock: []StockFile{}, TakeOver: []string{},
		Restore: []string{}, CreateDirs: []string{}, Conflicts: []Conflict{}, KeepEdited: []string{}, Invalid: []Conflict{}, Download: []string{}, Install: []string{},
	}
	p.owners = s.readOwners()
	if toDir == "" && to != 0 {
		toDir = s.genDir(to)
	}
	var toM profile.Manifest
	if toDir != "" {
		var err error
		if toM, err = profile.Read(toDir); err != nil {
			return nil, err
		}
		for _, e := range toM.Entries {
			if isConf(e, "etc/sysusers.d/") {
				if data, err := profile.ReadEntry(toDir, e); err == nil {
					p.owners.declare(data)
				}
			}
		}
	}
	p.target = placements(toM, p.owners)
	p.manifest = toM
	if toDir != "" {
		s.checkProfile(p, toM, toDir)
	}

	mine := known{}
	p.mine = mine
	mine.add(st.Entries)
	dirs := map[string]bool{}
	for _, d := range st.Dirs {
		dirs[d] = true
	}
	if interrupted != nil {
		for _, g := range []int{interrupted.From, interrupted.To} {
			if g == 0 || g == to {
				continue
			}
			if _, m, err := s.readGeneration(g); err == nil {
				mine.add(placements(m, p.owners))
			}
		}
		for _, d := range interrupted.Dirs {
			dirs[d] = true
		}
		if interrupted.To == to {
			// Completing it: what it placed before it stopped is ours.
			mine.add(p.target)
		}
	}

	// etc/static is nodegen's when it is absent or points into the
	// generations.
	if d, err := s.inspect(staticLink); err != nil {
		return nil, err
	} else if d.fi != nil && (d.fi.Mode()&fs.ModeSymlink == 0 || !strings.HasPrefix(d.link, "/"+generationsDir+"/")) {
		p.conflict(s, staticLink, "%s is in the way of nodegen's link to the active generation; move it away", describe(d))
	}

	takeOver := map[string]bool{}
	for _, rel := range how.takeOver {
		takeOver[rel] = true
	}
	inTarget := map[string]bool{}
	creating := map[string]bool{}
	for _, t := range p.target {
		inTarget[t.Path] = true
		if t.Kind == KindCopy && (!p.owners.KnownUser(t.User) || !p.owners.KnownGroup(t.Group)) {
			p.conflict(s, t.Path, "owner %s:%s (from %s) is not a user and group of the system, and no sysusers.d file of the profile creates it", t.User, t.Group, t.Option)
		}
		blocked, absent := false, false
		for _, dir := range ancestors(t.Path) {
			if !absent && !creating[dir] {
				d, err := s.inspect(dir)
				if err != nil {
					return nil, err
				}
				switch {
				case d.fi == nil:
					absent = true
				case !d.fi.IsDir():
					p.conflict(s, t.Path, "its directory %s is %s; nodegen places files only in real directories", s.show(dir), describe(d))
					blocked = true
				}
			}
			if blocked {
				break
			}
			if (absent || creating[dir]) && !creating[dir] {
				creating[dir] = true
				p.CreateDirs = append(p.CreateDirs, dir)
			}
		}
		if blocked {
			continue
		}
		d, err := s.inspect(t.Path)
		if err != nil {
			return nil, err
		}
		switch {
		case d.fi == nil:
			p.Place = append(p.Place, t)
		case s.holds(d, t) && (t.Kind == KindLink || s.holdsAny(d, mine[t.Path])):
			// A link into /etc/static is nodegen's whoever placed it; a
			// file or symlink that merely looks like the entry is the
			// admin's unless nodegen placed it (it would be deleted with
			// the entry).
			p.Unchanged++
		case s.holdsAny(d, mine[t.Path]):
			p.Place = append(p.Place, t)
		case d.fi.IsDir():
			p.conflict(s, t.Path, "a directory is in the way of the profile's entry (from %s)", t.Option)
		default:
			if takeOver[t.Path] {
				p.TakeOver = append(p.TakeOver, t.Path)
				p.Place = append(p.Place, t)
				continue
			}
			// A file the installer or a package put there unchanged is
			// taken over with a backup; anything else is someone's.
			_, managed := stateHas(st, t.Path)
			stock, isStock := "", false
			if !managed {
				stock, isStock = s.stock(p, t, d)
			}
			why := fmt.Sprintf("%s changed since nodegen placed it", describe(d))
			if !managed {
				why = fmt.Sprintf("%s that nodegen does not manage is in the way of the profile's entry (from %s)", describe(d), t.Option)
				if d.fi.Mode().IsRegular() {
					if w := s.dpkgOf(p).whose(t.Path); w != "" {
						why = fmt.Sprintf("%s is in the way of the profile's entry (from %s)", w, t.Option)
					}
				}
			}
			if !backup && !isStock {
				p.conflict(s, t.Path, "%s; move it away, or have nodegen keep it and put it back when it stops managing the path: %s", why, BackupHint)
				continue
			}
			if b, err := s.inspect(backupPath(t.Path)); err != nil {
				return nil, err
			} else if b.fi != nil {
				if isStock {
					why = fmt.Sprintf("%s (%s) is in the way of the profile's entry (from %s)", describe(d), stock, t.Option)
				}
				p.conflict(s, t.Path, "%s, and a backup of an earlier file is already kept at %s; move one of them away", why, s.show(backupPath(t.Path)))
				continue
			}
			p.Backup = append(p.Backup, t.Path)
			if isStock {
				p.Stock = append(p.Stock, StockFile{Path: t.Path, What: stock})
			}
			p.Place = append(p.Place, t)
		}
	}

	// Entries nodegen placed that the target does not have.
	var gone []string
	for rel := range mine {
		if !inTarget[rel] {
			gone = append(gone, rel)
		}
	}
	sort.Strings(gone)
	for _, rel := range gone {
		d, err := s.inspect(rel)
		if err != nil {
			return nil, err
		}
		switch {
		case d.fi == nil:
		case s.holdsAny(d, mine[rel]):
			p.Remove = append(p.Remove, rel)
		default:
			p.LeftInPlace = append(p.LeftInPlace, rel)
		}
	}

	// Backups come back when their path is free again.
	backups, err := s.backups()
	if err != nil {
		return nil, err
	}
	for _, rel := range backups {
		if inTarget[rel] {
			continue
		}
		d, err := s.inspect(rel)
		if err != nil {
			return nil, err
		}
		if d.fi == nil || slices.Contains(p.Remove, rel) {
			p.Restore = append(p.Restore, rel)
		} else {
			p.conflict(s, rel, "nodegen keeps the file it moved aside at %s, but %s is there now; move one of them away", s.show(backupPath(rel)), describe(d))
		}
	}

	createdDirs := make([]string, 0, len(dirs)+len(p.CreateDirs))
	for d := range dirs {
		createdDirs = append(createdDirs, d)
	}
	createdDirs = append(createdDirs, p.CreateDirs...)
	if err := s.planEdits(p, how); err != nil {
		return nil, err
	}
	for _, rel := range how.takeOver {
		if how.named && !slices.Contains(p.TakeOver, rel) && !slices.Contains(p.KeepEdited, rel) {
			p.conflict(s, rel, "--take-over names it, but it is not a file in the way of the profile's entry: nothing to take over")
		}
	}
	if len(p.TakeOver) > 0 || len(p.KeepEdited) > 0 {
		p.TakenOverTo = how.takeOverDir
	}
	p.journal = Journal{From: p.From, To: to, Backup: backup, Dirs: dedupe(createdDirs), TakeOver: append(slices.Clone(p.TakeOver), p.KeepEdited...), TakeOverDir: p.TakenOverTo}
	if interrupted != nil && interrupted.Failed != nil {
		// Until this activation is done, the journal says the failure: a
		// crash leaves it to be gone around again, not completed.
		p.failure, p.journal.Failed = interrupted.Failed, interrupted.Failed
	}

	fromDir := ""
	if p.From != 0 {
		fromDir = s.genDir(p.From)
	}
	// The generation left may have been edited through its links
	// (planEdits): what the system shows and runs is the edited file.
	ch, err := profile.DiffFromEdited(fromDir, toDir)
	if err != nil {
		return nil, err
	}
	if p.Units, err = s.planUnits(ch, toDir); err != nil {
		return nil, err
	}
	// Links into /etc/static stay as they are when their file changes:
	// the new content comes with etc/static.
	placing := map[string]bool{}
	for _, t := range p.Place {
		placing[t.Path] = true
	}
	for _, c := range ch.Changed {
		if !placing[c.Path] && placementOf(c.New).Kind == KindLink && placementOf(c.Old).Kind == KindLink {
			p.Updated = append(p.Updated, c.Path)
			p.Unchanged--
		}
	}
	sort.Slice(p.Conflicts, func(i, j int) bool { return p.Conflicts[i].Path < p.Conflicts[j].Path })
	return p, nil
}

func (p *Plan) conflict(s *System, rel, format string, args ...any) {
	p.Conflicts = append(p.Conflicts, Conflict{Path: s.show(rel), Reason: fmt.Sprintf(format, args...)})
}

// holdsAny reports whether what is on disk is one of ps.
func (s *System) holdsAny(d onDisk, ps []Placement) bool {
	for _, p := range ps {
		if s.holds(d, p) {
			return true
		}
	}
	return false
}

func stateHas(st State, rel string) (Placement, bool) {
	i := sort.Search(len(st.Entries), func(i int) bool { return st.Entries[i].Path >= rel })
	if i < len(st.Entries) && st.Entries[i].Path == rel {
		return st.Entries[i], true
	}
	return Placement{}, false
}

// ancestors are the directories above rel below the root, outermost
// first: "etc/a/b" -> "etc", "etc/a".
func ancestors(rel string) []string {
	var out []string
	for i := 0; i < len(rel); i++ {
		if rel[i] == '/' {
			out = append(out, rel[:i])
		}
	}
	return out
}

// backups lists the paths ("etc/...") whose admin files nodegen keeps.
func (s *System) backups() ([]string, error) {
	var out []string
	err := fs.WalkDir(s.r.FS(), backupDir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == backupDir {
			return fs.SkipDir
		}
		if err != nil {
			return err
		}
		if !d.IsDir() {
			out = append(out, strings.TrimPrefix(p, backupDir+"/"))
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return out, nil
}

// isConf reports whether a profile entry is a *.conf file directly in dir
// ("etc/sysusers.d/").
func isConf(e profile.ManifestEntry, dir string) bool {
	rel, ok := strings.CutPrefix(e.Path, dir)
	return ok && e.Type == profile.TypeFile && strings.HasSuffix(rel, ".conf") && !strings.Contains(rel, "/")
}

// dedupe sorts and removes repeats.
func dedupe(list []string) []string {
	sort.Strings(list)
	out := list[:0]
	for i, x := range list {
		if i == 0 || x != list[i-1] {
			out = append(out, x)
		}
	}
	return out
}
