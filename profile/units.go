package profile

import (
	"path"
	"sort"
	"strings"

	"github.com/nodegen/nodegen/internal/unitfile"
)

// unitDir is where units live in a profile.
const unitDir = "etc/systemd/system/"

// unitSuffixes are the unit types Diff acts on.
var unitSuffixes = map[string]string{
	".service": "Service",
	".socket":  "Socket",
	".target":  "",
	".timer":   "Timer",
	".path":    "Path",
	".mount":   "Mount",
	".slice":   "Slice",
}

// wantsSuffixes are the directories whose entries a target pulls in.
var wantsSuffixes = []string{".wants", ".requires", ".upholds"}

func isUnitName(name string) bool {
	_, ok := unitSuffixes[path.Ext(name)]
	return ok && len(name) > len(path.Ext(name)) && !strings.ContainsAny(name, "/")
}

// unitTemplate returns the template of an instance ("foo@.service" for
// "foo@bar.service"), or "" when name is not an instance.
func unitTemplate(name string) string {
	ext := path.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	at := strings.IndexByte(stem, '@')
	if at < 0 || at == len(stem)-1 {
		return ""
	}
	return stem[:at+1] + ext
}

// isTemplate reports whether name is a template, "foo@.service".
func isTemplate(name string) bool {
	return strings.HasSuffix(strings.TrimSuffix(name, path.Ext(name)), "@")
}

// unitSet is what one profile says about units.
type unitSet struct {
	side    *side
	files   map[string]ManifestEntry   // unit name -> its file (or symlink), masks excluded
	masked  map[string]bool            // unit name -> symlinked to /dev/null
	dropins map[string][]ManifestEntry // unit name -> its *.conf drop-ins, sorted
	wanted  map[string]bool            // unit names in some *.wants/, *.requires/, *.upholds/
}

func newUnitSet(s *side) *unitSet {
	u := &unitSet{
		side:    s,
		files:   map[string]ManifestEntry{},
		masked:  map[string]bool{},
		dropins: map[string][]ManifestEntry{},
		wanted:  map[string]bool{},
	}
	paths := make([]string, 0, len(s.byPath))
	for p := range s.byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		rel, ok := strings.CutPrefix(p, unitDir)
		if !ok {
			continue
		}
		e := s.byPath[p]
		dir, name := path.Split(rel)
		dir = strings.TrimSuffix(dir, "/")
		switch {
		case dir == "" && isUnitName(name):
			if e.Type == TypeSymlink && e.Target == "/dev/null" {
				u.masked[name] = true
			} else {
				u.files[name] = e
			}
		case strings.Contains(dir, "/"):
			// Deeper than unit.d/file: not systemd's.
		case strings.HasSuffix(dir, ".d") && isUnitName(strings.TrimSuffix(dir, ".d")):
			if strings.HasSuffix(name, ".conf") {
				unit := strings.TrimSuffix(dir, ".d")
				u.dropins[unit] = append(u.dropins[unit], e)
			}
		default:
			for _, suf := range wantsSuffixes {
				if strings.HasSuffix(dir, suf) && isUnitName(name) {
					u.wanted[name] = true
				}
			}
		}
	}
	return u
}

// defined reports whether the profile defines unit (by its own file or its
// template's), and whether it masks it.
func (u *unitSet) defined(unit string) (defined, masked bool) {
	if u.masked[unit] {
		return false, true
	}
	if _, ok := u.files[unit]; ok {
		return true, false
	}
	if t := unitTemplate(unit); t != "" {
		if u.masked[t] {
			return false, true
		}
		if _, ok := u.files[t]; ok {
			return true, false
		}
	}
	return false, false
}

// sources are the entries that make up unit, in the order systemd reads
// them: its file (or its template's), the template's drop-ins, its own.
func (u *unitSet) sources(unit string) []ManifestEntry {
	var out []ManifestEntry
	t := unitTemplate(unit)
	if e, ok := u.files[unit]; ok {
		out = append(out, e)
	} else if e, ok := u.files[t]; ok && t != "" {
		out = append(out, e)
	}
	if t != "" {
		out = append(out, u.dropins[t]...)
	}
	return append(out, u.dropins[unit]...)
}

// fingerprint identifies the content of unit's sources.
func (u *unitSet) fingerprint(unit string) string {
	var b strings.Builder
	for _, e := range u.sources(unit) {
		b.WriteString(e.Path + "\x00" + e.Type + "\x00" + e.SHA256 + "\x00" + e.Target + "\n")
	}
	return b.String()
}

// settings reads the switch-related settings of unit from the [Unit]
// section and its type's section of its sources, later assignments
// overriding earlier ones and an empty assignment resetting.
func (u *unitSet) settings(unit string) (map[string]string, error) {
	typeSection := unitSuffixes[path.Ext(unit)]
	settings := map[string]string{}
	err := u.eachSource(unit, func(data []byte) {
		parseUnitSettings(data, typeSection, settings)
	})
	return settings, err
}

// eachSource calls f with the text of each of unit's sources, in the
// order systemd reads them; a symlink into the profile's own etc/ is
// followed, one elsewhere left out.
func (u *unitSet) eachSource(unit string, f func(data []byte)) error {
	for _, e := range u.sources(unit) {
		if e.Type == TypeSymlink {
			rel, ok := strings.CutPrefix(e.Target, "/etc/")
			if !ok {
				continue
			}
			te, ok := u.side.byPath["etc/"+path.Clean(rel)]
			if !ok || te.Type != TypeFile {
				continue
			}
			e = te
		}
		data, err := u.side.content(e)
		if err != nil {
			return err
		}
		f(data)
	}
	return nil
}

// switchKeys are the settings that decide what switching does to a unit.
var switchKeys = map[string]bool{
	"X-RestartIfChanged": true,
	"X-ReloadIfChanged":  true,
	"X-StopOnRemoval":    true,
	"X-OnlyManualStart":  true,
	"RefuseManualStop":   true,
	"X-StopIfChanged":    true,
}

// StopsIfChanged reports how switching to the profile in dir restarts unit
// when it changed: true (the default, NixOS's stopIfChanged) when the unit
// is stopped before the new files are put in place and started after, so
// that its old ExecStop runs; false (X-StopIfChanged=false) when it is
// restarted once the new files are in place.
func StopsIfChanged(dir, unit string) (bool, error) {
	s, err := readSide(dir)
	if err != nil {
		return false, err
	}
	settings, err := newUnitSet(s).settings(unit)
	if err != nil {
		return false, err
	}
	return settingBool(settings, "X-StopIfChanged", true), nil
}

// parseUnitSettings reads the switchKeys of a unit file's [Unit] section and
// of typeSection into settings.
func parseUnitSettings(data []byte, typeSection string, settings map[string]string) {
	for _, s := range unitfile.Parse(string(data)) {
		if s.Section != "Unit" && (typeSection == "" || s.Section != typeSection) || !switchKeys[s.Key] {
			continue
		}
		if s.Value == "" {
			delete(settings, s.Key)
		} else {
			settings[s.Key] = s.Value
		}
	}
}

// settingBool reads a systemd boolean setting, def when unset or invalid.
func settingBool(settings map[string]string, key string, def bool) bool {
	switch strings.ToLower(settings[key]) {
	case "1", "yes", "y", "true", "t", "on":
		return true
	case "0", "no", "n", "false", "f", "off":
		return false
	}
	return def
}

// unitChanges works out what switching from old to new does to units.
func unitChanges(oldSide, newSide *side) (UnitChanges, error) {
	old, cur := newUnitSet(oldSide), newUnitSet(newSide)
	names := map[string]bool{}
	for _, u := range []*unitSet{old, cur} {
		for n := range u.files {
			names[n] = true
		}
		for n := range u.masked {
			names[n] = true
		}
		for n := range u.dropins {
			names[n] = true
		}
		for n := range u.wanted {
			names[n] = true
		}
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		if !isTemplate(n) {
			sorted = append(sorted, n)
		}
	}
	sort.Strings(sorted)

	uc := UnitChanges{Start: []string{}, Stop: []string{}, Restart: []string{}, Reload: []string{}, NotRestarted: []string{}}
	for _, unit := range sorted {
		od, om := old.defined(unit)
		nd, nm := cur.defined(unit)
		newlyWanted := cur.wanted[unit] && !old.wanted[unit]
		switch {
		case nm && !om, od && !nd:
			// Masked (even a unit the old profile did not define: it may
			// come from elsewhere and run), or removed.
			if od {
				s, err := old.settings(unit)
				if err != nil {
					return UnitChanges{}, err
				}
				if !settingBool(s, "X-StopOnRemoval", true) {
					continue
				}
			}
			uc.Stop = append(uc.Stop, unit)
		case nm:
			// Masked before and after.
		case nd && !od, om && !nm:
			// New, or unmasked.
			if cur.wanted[unit] {
				uc.Start = append(uc.Start, unit)
			}
		default:
			oldRan, err := old.ranFiles(unit)
			if err != nil {
				return UnitChanges{}, err
			}
			curRan, err := cur.ranFiles(unit)
			if err != nil {
				return UnitChanges{}, err
			}
			if old.fingerprint(unit) == cur.fingerprint(unit) && oldRan == curRan {
				if newlyWanted {
					uc.Start = append(uc.Start, unit)
				}
				continue
			}
			action, err := changedAction(cur, unit)
			if err != nil {
				return UnitChanges{}, err
			}
			if action == "restart" && oldRan == curRan {
				only, err := onlyReloadTriggersChanged(old, cur, unit)
				if err != nil {
					return UnitChanges{}, err
				}
				if only {
					action = "reload"
				}
			}
			switch action {
			case "restart":
				uc.Restart = append(uc.Restart, unit)
			case "reload":
				uc.Reload = append(uc.Reload, unit)
			case "skip":
				uc.NotRestarted = append(uc.NotRestarted, unit)
			}
		}
	}
	return uc, nil
}

// onlyReloadTriggersChanged reports whether the only difference between
// the old and the new sources of unit is in their X-Reload-Triggers= lines
// (a module's reloadTriggers): then the unit is reloaded rather than
// restarted, as NixOS's switch-to-configuration does.
func onlyReloadTriggersChanged(old, cur *unitSet, unit string) (bool, error) {
	a, err := old.textWithout(unit, "X-Reload-Triggers=")
	if err != nil {
		return false, err
	}
	b, err := cur.textWithout(unit, "X-Reload-Triggers=")
	if err != nil {
		return false, err
	}
	return a == b, nil
}

// textWithout is the text of unit's sources, each with its path, without
// the lines that start with prefix.
func (u *unitSet) textWithout(unit, prefix string) (string, error) {
	var b strings.Builder
	for _, e := range u.sources(unit) {
		b.WriteString(e.Path + "\x00" + e.Type + "\x00" + e.Target + "\n")
		if e.Type != TypeFile {
			continue
		}
		data, err := u.side.content(e)
		if err != nil {
			return "", err
		}
		for _, l := range strings.Split(string(data), "\n") {
			if !strings.HasPrefix(strings.TrimSpace(l), prefix) {
				b.WriteString(l + "\n")
			}
		}
	}
	return b.String(), nil
}

// changedAction decides what switching does to a unit whose file or
// drop-ins changed: "restart", "reload", "skip" (not restarted), or "".
func changedAction(cur *unitSet, unit string) (string, error) {
	switch path.Ext(unit) {
	case ".target", ".slice", ".path":
		return "", nil
	case ".mount":
		return "reload", nil
	}
	s, err := cur.settings(unit)
	if err != nil {
		return "", err
	}
	switch {
	case settingBool(s, "X-ReloadIfChanged", false):
		return "reload", nil
	case !settingBool(s, "X-RestartIfChanged", true),
		settingBool(s, "RefuseManualStop", false),
		settingBool(s, "X-OnlyManualStart", false):
		return "skip", nil
	}
	return "restart", nil
}
