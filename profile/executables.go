package profile

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/nodegen/nodegen/internal/unitfile"
)

// execKeys are the unit settings whose first word is an executable.
var execKeys = map[string]bool{
	"ExecStart": true, "ExecStartPre": true, "ExecStartPost": true, "ExecReload": true,
	"ExecStop": true, "ExecStopPost": true, "ExecCondition": true,
}

// scriptDir is where the core library writes the scripts of units.
const scriptDir = "nodegen/scripts/"

// defaultPATH is the PATH of a unit that sets none: systemd's, with the
// directories of a system without a merged /usr.
var defaultPATH = []string{"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"}

// A run is an executable that a unit or script of a profile runs: an
// absolute path, or a bare name that a script looks up in PATH.
type run struct {
	entry Entry
	where string   // the unit setting or the script that runs it
	exe   string   // absolute, or a bare name
	path  []string // for a bare name: the PATH it is looked up in
	line  int      // for a bare name: the line of the script
}

// runs calls f with every executable that the profile's units run (their
// Exec* settings) and its scripts call (their interpreter, and every
// unquoted word in command position), each script with the PATH of the
// units that run it.
func runs(entries []Entry, f func(run)) {
	// The PATH each script is run with: the Environment=PATH= of the units
	// whose Exec* settings run it.
	scriptPATH := map[string][]string{}
	for _, e := range entries {
		if e.Mode == TypeSymlink || !strings.HasPrefix(e.Target, unitDir[len("etc/"):]) || !isUnitOrDropin(e.Target) {
			continue
		}
		dirs := unitPATHs.GetBytes(e.Content)
		for _, x := range unitExecs.GetBytes(e.Content) {
			if strings.HasPrefix(x.exe, "/etc/"+scriptDir) && dirs != nil {
				scriptPATH[x.exe] = append(scriptPATH[x.exe], dirs...)
			}
		}
	}
	for _, e := range entries {
		if e.Mode == TypeSymlink {
			continue
		}
		switch {
		case strings.HasPrefix(e.Target, unitDir[len("etc/"):]) && isUnitOrDropin(e.Target):
			for _, x := range unitExecs.GetBytes(e.Content) {
				f(run{entry: e, where: x.key, exe: x.exe})
			}
		case strings.HasPrefix(e.Target, scriptDir):
			where := "/etc/" + e.Target
			for _, exe := range scriptExecs.GetBytes(e.Content) {
				f(run{entry: e, where: where, exe: exe})
			}
			path := scriptPATH[where]
			if path == nil {
				path = defaultPATH
			}
			for _, c := range scriptCmds.GetBytes(e.Content) {
				if !strings.HasPrefix(c.Name, "/") {
					f(run{entry: e, where: where, exe: c.Name, path: path, line: c.Line})
				}
			}
		}
	}
}

// lookPath returns the first dir/name of path that have holds.
func lookPath(name string, path []string, have map[string]bool) (string, bool) {
	for _, dir := range path {
		if p := dir + "/" + name; have[p] {
			return p, true
		}
	}
	return "", false
}

// providedSet is the set of executables a profile has: its files, its
// assets' files, and the provided paths.
func providedSet(entries []Entry, assets []Asset, provided ...[]string) map[string]bool {
	have := map[string]bool{}
	for _, ps := range provided {
		for _, p := range ps {
			have[p] = true
		}
	}
	for _, e := range entries {
		have["/etc/"+e.Target] = true
	}
	for _, a := range assets {
		for _, f := range a.Files {
			have[f.Path] = true
		}
	}
	return have
}

// CheckExecutables lists the executables that the profile's units run
// (their Exec* settings) and its scripts call (in command position, by
// absolute path or by bare name in the PATH of the units that run them)
// that nothing provides: neither a file of the profile, nor an asset, nor
// one of the provided paths (packages' executables, the base system's and
// the image's). Each missing executable is a warning naming the option of
// the unit or script and what to set.
func CheckExecutables(entries []Entry, assets []Asset, provided []string) []string {
	have := providedSet(entries, assets, provided)
	var warnings []string
	seen := map[string]bool{}
	runs(entries, func(r run) {
		key := r.entry.Option + "\x00" + r.exe
		if seen[key] {
			return
		}
		if r.path == nil {
			if have[r.exe] {
				return
			}
			seen[key] = true
			warnings = append(warnings, fmt.Sprintf("%s: %s runs %s, which no asset, package or image provides; declare it in environment.assets or environment.packages, or list it in environment.providedByImage",
				orUnknown(r.entry.Option), r.where, r.exe))
			return
		}
		if _, ok := lookPath(r.exe, r.path, have); ok {
			return
		}
		seen[key] = true
		warnings = append(warnings, fmt.Sprintf("%s: %s runs %s (line %d), which no asset, package or image provides in its PATH (%s); declare its package in environment.systemPackages, or list its path in environment.providedByImage",
			orUnknown(r.entry.Option), r.where, r.exe, r.line, strings.Join(r.path, ":")))
	})
	sort.Strings(warnings)
	return warnings
}

// ImagePrograms lists the programs that the profile's units and scripts
// run and that only the image provides (image, environment.providedByImage):
// no file of the profile, no asset and none of the provided paths
// (packages', the base system's). A bare name is the path PATH finds it
// at. nodegen switch checks that each is on the system before it changes
// anything. The list is sorted by path, each path once, with the first
// option that runs it.
func ImagePrograms(entries []Entry, assets []Asset, provided, image []string) []ImageProgram {
	have := providedSet(entries, assets, provided)
	inImage := providedSet(nil, nil, image)
	found := map[string]string{}
	runs(entries, func(r run) {
		exe := r.exe
		if r.path != nil {
			if _, ok := lookPath(exe, r.path, have); ok {
				return
			}
			var ok bool
			if exe, ok = lookPath(exe, r.path, inImage); !ok {
				return
			}
		} else if have[exe] || !inImage[exe] {
			return
		}
		if _, ok := found[exe]; !ok {
			found[exe] = orUnknown(r.entry.Option)
		}
	})
	out := make([]ImageProgram, 0, len(found))
	for p, o := range found {
		out = append(out, ImageProgram{Path: p, Option: o})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// ImageProgram is a program that a profile runs and leaves to the system
// image (environment.providedByImage).
type ImageProgram struct {
	// Path is absolute: "/opt/kubernetes/bin/kubelet".
	Path string `json:"path"`
	// Option is the option of a unit or script that runs it.
	Option string `json:"option,omitempty"`
}

// isUnitOrDropin reports whether a target below systemd/system/ is a unit
// file or a drop-in.
func isUnitOrDropin(target string) bool {
	rel := strings.TrimPrefix(target, unitDir[len("etc/"):])
	dir, name := path.Split(rel)
	dir = strings.TrimSuffix(dir, "/")
	switch {
	case dir == "":
		return isUnitName(name)
	case strings.HasSuffix(dir, ".d") && !strings.Contains(dir, "/"):
		return strings.HasSuffix(name, ".conf")
	}
	return false
}

type unitExec struct{ key, exe string }

// unitExecutables returns the absolute executables of a unit file's Exec*
// settings, with their keys.
func unitExecutables(text string) []unitExec {
	var out []unitExec
	for _, s := range unitfile.Parse(text) {
		if !execKeys[s.Key] {
			continue
		}
		value := strings.TrimLeft(s.Value, "@-:+!")
		exe, _, _ := strings.Cut(value, " ")
		if strings.HasPrefix(exe, "/") && !strings.ContainsAny(exe, "$%") {
			out = append(out, unitExec{s.Key, exe})
		}
	}
	return out
}

// unitPATH returns the directories of a unit file's Environment=PATH=,
// nil when it sets none.
func unitPATH(text string) []string {
	var dirs []string
	for _, s := range unitfile.Parse(text) {
		if s.Key != "Environment" {
			continue
		}
		for _, a := range envAssignments(s.Value) {
			if v, ok := strings.CutPrefix(a, "PATH="); ok {
				dirs = append(dirs[:0], strings.Split(v, ":")...)
			}
		}
	}
	return dirs
}

// envAssignments splits the value of an Environment= setting into its
// assignments: separated by spaces, each perhaps in double or single
// quotes.
func envAssignments(v string) []string {
	var out []string
	var cur strings.Builder
	var quote byte
	in := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0 && c == '\\' && i+1 < len(v):
			i++
			cur.WriteByte(v[i])
		case quote != 0:
			cur.WriteByte(c)
		case c == '"' || c == '\'':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				out = append(out, cur.String())
			}
			cur.Reset()
			in = false
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// scriptExecutables returns the absolute executables a shell script runs:
// its interpreter and every absolute word in command position.
func scriptExecutables(text string) []string {
	var out []string
	if first, _, _ := strings.Cut(text, "\n"); strings.HasPrefix(first, "#!") {
		interp, _, _ := strings.Cut(strings.TrimSpace(first[2:]), " ")
		if strings.HasPrefix(interp, "/") {
			out = append(out, interp)
		}
	}
	for _, c := range scriptCmds.Get(text) {
		if strings.HasPrefix(c.Name, "/") {
			out = append(out, c.Name)
		}
	}
	return out
}

// validateImagePrograms checks the image programs of a manifest: absolute
// clean paths, sorted, each once.
func validateImagePrograms(ps []ImageProgram) error {
	for i, p := range ps {
		if p.Path == "" || p.Path[0] != '/' || path.Clean(p.Path) != p.Path || strings.ContainsAny(p.Path, "\x00\n") {
			return fmt.Errorf("image program %q (from %s): not a clean absolute path", p.Path, orUnknown(p.Option))
		}
		if i > 0 && ps[i-1].Path >= p.Path {
			return fmt.Errorf("image program %q: the programs are not sorted by path, or the path is listed twice", p.Path)
		}
	}
	return nil
}
