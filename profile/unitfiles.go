package profile

import (
	"bytes"
	"errors"
	"io/fs"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/nodegen/nodegen/internal/unitfile"
	"github.com/nodegen/nodegen/profilecheck"
)

// What a unit runs is part of what decides whether switching restarts it,
// as in NixOS, where a changed script is a new store path and so a changed
// unit: here a script keeps its path (/etc/nodegen/scripts/NAME-pre-start)
// and only its content changes, so the content of every file of the
// profile (or asset) that the unit runs is compared too.
//
// A unit runs the executable of each of its Exec*= settings and reads its
// EnvironmentFile= files; a script among them (a file that starts with
// "#!") runs in turn the absolute executables in command position in it.
// Files named as arguments (a configuration file) are not followed: a
// module that wants a restart when one changes says so with
// restartTriggers, or reloads with reloadTriggers, as NixOS's modules do
// for their /etc files.

// maxRunDepth bounds the scripts followed from a unit's Exec*= settings.
const maxRunDepth = 8

// ranKeys are the settings whose values name a file the unit runs or reads
// when it starts (besides its Exec* settings).
var ranKeys = map[string]bool{"EnvironmentFile": true}

// ranFiles returns what unit runs (see above): for each profile or asset
// file, a line with its path and its content's identity, sorted.
func (u *unitSet) ranFiles(unit string) (string, error) {
	lists := map[string][]string{}
	err := u.eachSource(unit, func(data []byte) {
		for _, s := range unitfile.Parse(string(data)) {
			if !profilecheck.IsExecKey(s.Key) && !ranKeys[s.Key] {
				continue
			}
			if s.Value == "" {
				// An empty assignment resets the list.
				delete(lists, s.Key)
				continue
			}
			lists[s.Key] = append(lists[s.Key], s.Value)
		}
	})
	if err != nil {
		return "", err
	}
	w := &runWalk{side: u.side, seen: map[string]bool{}}
	for _, k := range slices.Sorted(maps.Keys(lists)) {
		for _, v := range lists[k] {
			p := ranPath(k, v)
			if p == "" {
				continue
			}
			if err := w.visit(p, 0); err != nil {
				return "", err
			}
		}
	}
	sort.Strings(w.lines)
	return strings.Join(w.lines, "\n"), nil
}

// ranPath is the absolute path that a value of key names: the executable
// of an Exec*= value, after its prefixes ("-", "+", "@"...), or an
// EnvironmentFile= path after its "-"; "" when the value names none
// (a command looked up in PATH, a specifier).
func ranPath(key, value string) string {
	var p string
	if ranKeys[key] {
		p = strings.TrimPrefix(value, "-")
	} else {
		value = strings.TrimLeft(value, "@-:+!|")
		if rest, ok := strings.CutPrefix(value, `"`); ok {
			p, _, _ = strings.Cut(rest, `"`)
		} else {
			p, _, _ = strings.Cut(value, " ")
		}
	}
	if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "$%*?[") {
		return ""
	}
	return path.Clean(p)
}

// runWalk follows what a unit runs through one profile.
type runWalk struct {
	side  *side
	seen  map[string]bool
	lines []string
	files map[string]string // asset file path -> its identity, made on first use
}

// visit records the file at p (absolute) and, for a script, what it runs.
func (w *runWalk) visit(p string, depth int) error {
	if w.seen[p] || depth > maxRunDepth {
		return nil
	}
	w.seen[p] = true
	if id, ok := w.assetFiles()[p]; ok {
		w.lines = append(w.lines, p+" asset "+id)
		return nil
	}
	rel, ok := strings.CutPrefix(p, "/etc/")
	if !ok {
		return nil
	}
	rel = strings.TrimPrefix(rel, "static/")
	e, ok := w.side.byPath["etc/"+rel]
	if !ok {
		return nil
	}
	if e.Type == TypeSymlink {
		w.lines = append(w.lines, p+" -> "+e.Target)
		if strings.HasPrefix(e.Target, "/") {
			return w.visit(path.Clean(e.Target), depth+1)
		}
		return w.visit(path.Join(path.Dir(p), e.Target), depth+1)
	}
	w.lines = append(w.lines, p+" "+e.SHA256+" "+e.Mode)
	data, err := w.side.content(e)
	if errors.Is(err, fs.ErrPermission) {
		return nil // a file its mode makes unreadable to us: its hash says it all
	}
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(data, []byte("#!")) {
		return nil
	}
	for _, exe := range profilecheck.ScriptExecutables(data) {
		if err := w.visit(path.Clean(exe), depth+1); err != nil {
			return err
		}
	}
	return nil
}

// assetFiles maps the path of each file an asset of the profile installs
// to the asset's content key and the member it is.
func (w *runWalk) assetFiles() map[string]string {
	if w.files == nil {
		w.files = map[string]string{}
		for _, a := range w.side.manifest.Assets {
			for _, f := range a.Files {
				w.files[f.Path] = a.Key() + " " + f.Member
			}
		}
	}
	return w.files
}
