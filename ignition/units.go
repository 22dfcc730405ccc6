package ignition

import (
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/coreos/ignition/v2/config/shared/parse"

	"github.com/nodegen/nodegen/profile"
)

// entryKind is what an entry becomes in the config.
type entryKind int

const (
	plainEntry entryKind = iota // a storage.files or storage.links entry
	unitFile                    // a unit's contents
	unitMask                    // a unit symlinked to /dev/null
	unitDropin                  // a drop-in of a unit
	wantsLink                   // a link in a .wants/, .requires/ or .upholds/ directory to a unit in /etc/systemd/system
)

// wantsSuffixes are the directories whose links [Install] sections make.
var wantsSuffixes = map[string]string{".wants": "WantedBy", ".requires": "RequiredBy", ".upholds": "UpheldBy"}

// classify says what e becomes, with the unit it belongs to.
func classify(e profile.Entry) (entryKind, string) {
	rel, ok := strings.CutPrefix(e.Target, unitDir)
	if !ok {
		return plainEntry, ""
	}
	dir, name := path.Split(rel)
	dir = strings.TrimSuffix(dir, "/")
	switch {
	case dir == "" && isUnitName(name) && e.Mode == profile.TypeSymlink && e.Link == "/dev/null":
		return unitMask, name
	case dir == "" && isUnitName(name) && isUnitText(e):
		return unitFile, name
	case dir == "" || strings.Contains(dir, "/"):
		return plainEntry, ""
	}
	if u, ok := strings.CutSuffix(dir, ".d"); ok && isUnitName(u) && path.Ext(name) == ".conf" && isUnitText(e) {
		return unitDropin, u
	}
	for suffix := range wantsSuffixes {
		if u, ok := strings.CutSuffix(dir, suffix); ok && isUnitName(u) && isUnitName(name) &&
			e.Mode == profile.TypeSymlink && e.Link == "/etc/"+unitDir+name {
			return wantsLink, name
		}
	}
	return plainEntry, ""
}

// isUnitName reports whether Ignition takes name as a unit's name.
func isUnitName(name string) bool {
	switch ext := path.Ext(name); ext {
	case ".service", ".socket", ".device", ".mount", ".automount", ".swap", ".target", ".path", ".timer", ".snapshot", ".slice", ".scope":
		return len(name) > len(ext) && !strings.ContainsAny(name, "/")
	}
	return false
}

// isUnitText reports whether e is a file that Ignition writes as it is
// when given as a unit's or drop-in's contents: 0644, root's, not empty
// (Ignition writes no empty unit) and UTF-8 text (JSON strings are).
func isUnitText(e profile.Entry) bool {
	return e.Mode == "0644" && e.User == "root" && e.Group == "root" && len(e.Content) > 0 && utf8.Valid(e.Content)
}

// installMakes reports whether enabling the unit name, whose file is
// contents, makes exactly the links given: its [Install] section has only
// WantedBy, RequiredBy and UpheldBy (Alias, Also and DefaultInstance make
// more than links to the unit), and they name the links' directories.
func installMakes(name, contents string, links []profile.Entry) bool {
	if strings.HasSuffix(strings.TrimSuffix(name, path.Ext(name)), "@") {
		return false // a template is enabled by instance
	}
	sections, err := unitSettings(contents)
	if err != nil {
		return false
	}
	install, ok := sections["Install"]
	if !ok {
		return false
	}
	want := map[string]bool{}
	for _, s := range install {
		suffix := ""
		for sfx, key := range wantsSuffixes {
			if key == s.name {
				suffix = sfx
			}
		}
		if suffix == "" {
			return false
		}
		if s.value == "" { // an empty assignment resets the list
			for k := range want {
				if path.Ext(path.Dir(k)) == suffix {
					delete(want, k)
				}
			}
		}
		for _, t := range strings.Fields(s.value) {
			want[unitDir+t+suffix+"/"+name] = true
		}
	}
	have := map[string]bool{}
	for _, l := range links {
		have[l.Target] = true
	}
	if len(want) != len(have) {
		return false
	}
	for k := range want {
		if !have[k] {
			return false
		}
	}
	return true
}

// switchSettings are the [Unit] settings that only say what switching from
// one profile to another does to the unit (nodegen diff).
var switchSettings = []string{"X-RestartIfChanged", "X-ReloadIfChanged", "X-StopIfChanged", "X-StopOnRemoval", "X-OnlyManualStart"}

// checkSwitchSettings warns about a unit's switchSettings: Ignition
// provisions once and never switches.
func (r *renderer) checkSwitchSettings(contents string, o origin) {
	sections, err := unitSettings(contents)
	if err != nil {
		return // validation reports it
	}
	var found []string
	for _, s := range sections["Unit"] {
		if slices.Contains(switchSettings, s.name) && !slices.Contains(found, s.name) {
			found = append(found, s.name)
		}
	}
	if len(found) > 0 {
		what := "the setting " + found[0] + " only takes"
		if len(found) > 1 {
			what = "the settings " + strings.Join(found, ", ") + " only take"
		}
		r.warn(o, "%s effect when switching to a new profile; Ignition provisions the machine once and never switches, so it is left without effect", what)
	}
}

// setting is one line of a unit file's section.
type setting struct{ name, value string }

// unitSettings parses a unit file as Ignition does, into its sections'
// settings in order.
func unitSettings(contents string) (map[string][]setting, error) {
	opts, err := parse.ParseUnitContents(&contents)
	if err != nil {
		return nil, err
	}
	sections := map[string][]setting{}
	for _, o := range opts {
		sections[o.Section] = append(sections[o.Section], setting{o.Name, o.Value})
	}
	return sections, nil
}
