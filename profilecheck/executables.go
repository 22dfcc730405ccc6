package profilecheck

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/nodegen/nodegen/internal/unitfile"
)

// This file holds the executables check: every executable that the units
// of a profile run (their Exec* settings) and its scripts call is
// provided, by a file of the profile, an asset, a package, the base
// system or the image. It also finds the programs a profile leaves to the
// image (ImagePrograms), which nodegen switch checks are on the target.

// execKeys are the unit settings whose first word is an executable.
var execKeys = map[string]bool{
	"ExecStart": true, "ExecStartPre": true, "ExecStartPost": true, "ExecReload": true,
	"ExecStop": true, "ExecStopPost": true, "ExecCondition": true,
}

// IsExecKey tells whether a unit setting's first word is an executable it
// runs: ExecStart, ExecStartPre, ...
func IsExecKey(key string) bool { return execKeys[key] }

// scriptDir is where the core library writes the scripts of units, below
// /etc.
const scriptDir = "nodegen/scripts/"

// defaultPATH is the PATH of a unit that sets none: systemd's, with the
// directories of a system without a merged /usr.
var defaultPATH = []string{"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"}

// A run is an executable that a unit or script of a profile runs: an
// absolute path, or a bare name that a script looks up in PATH.
type run struct {
	file File
	key  string   // for a unit: the Exec* setting that runs it
	exe  string   // absolute, or a bare name
	path []string // for a bare name: the PATH it is looked up in
	line int      // for a bare name: the line of the script
}

// runs calls f with every executable that the profile's units run (their
// Exec* settings) and its scripts call (their interpreter, and every
// unquoted word in command position), each script with the PATH of the
// units that run it.
func runs(files []File, f func(run)) {
	// The PATH each script is run with: the Environment=PATH= of the units
	// whose Exec* settings run it.
	scriptPATH := map[string][]string{}
	for _, e := range files {
		if e.Link != "" || !strings.HasPrefix(e.Path, unitDir) || !isUnitOrDropin(e.Path) {
			continue
		}
		dirs := unitPATHs.GetBytes(e.Content)
		for _, x := range unitExecs.GetBytes(e.Content) {
			if strings.HasPrefix(x.exe, "/etc/"+scriptDir) && dirs != nil {
				scriptPATH[x.exe] = append(scriptPATH[x.exe], dirs...)
			}
		}
	}
	for _, e := range files {
		if e.Link != "" {
			continue
		}
		switch {
		case strings.HasPrefix(e.Path, unitDir) && isUnitOrDropin(e.Path):
			for _, x := range unitExecs.GetBytes(e.Content) {
				f(run{file: e, key: x.key, exe: x.exe})
			}
		case strings.HasPrefix(e.Path, scriptDir):
			for _, exe := range scriptExecs.GetBytes(e.Content) {
				f(run{file: e, exe: exe})
			}
			path := scriptPATH["/etc/"+e.Path]
			if path == nil {
				path = defaultPATH
			}
			for _, c := range scriptCmds.GetBytes(e.Content) {
				if !strings.HasPrefix(c.Name, "/") {
					f(run{file: e, exe: c.Name, path: path, line: c.Line})
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

// providedSet is the set of executables a profile has: its files and the
// provided paths.
func providedSet(files []File, provided []string) map[string]bool {
	have := map[string]bool{}
	for _, p := range provided {
		have[p] = true
	}
	for _, e := range files {
		have["/etc/"+e.Path] = true
	}
	return have
}

// Executables checks that every executable the profile's units run (their
// Exec* settings) and its scripts call (in command position, by absolute
// path or by bare name in the PATH of the units that run them) is
// provided: by a file of the profile or one of the provided paths (the
// files of its assets, its packages' executables, the base system's and
// the image's). Each executable that is not is a problem of the unit or
// script that runs it (once per file), saying what to set; a bare name's
// is on the line of the script. The problems come sorted by file, line
// and message.
func Executables(files []File, provided []string) []Problem {
	have := providedSet(files, provided)
	var problems []Problem
	seen := map[string]bool{}
	runs(files, func(r run) {
		key := r.file.Path + "\x00" + r.exe
		if seen[key] {
			return
		}
		p := Problem{Option: r.file.Option, Path: r.file.Path, Summary: "Executable not provided"}
		runner := "it runs"
		if r.key != "" {
			runner = r.key + " runs"
		}
		if r.path == nil {
			if have[r.exe] {
				return
			}
			p.Message = fmt.Sprintf("%s %s, which no asset, package or image provides; declare it in environment.assets or environment.packages, or list it in environment.providedByImage", runner, r.exe)
		} else {
			if _, ok := lookPath(r.exe, r.path, have); ok {
				return
			}
			p.Line = r.line
			p.Message = fmt.Sprintf("%s %s, which no asset, package or image provides in its PATH (%s); declare its package in environment.systemPackages, or list its path in environment.providedByImage",
				runner, r.exe, strings.Join(r.path, ":"))
		}
		seen[key] = true
		problems = append(problems, p)
	})
	sort.SliceStable(problems, func(i, j int) bool {
		a, b := problems[i], problems[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Message < b.Message
	})
	return problems
}

// ImageProgram is a program that a profile runs and leaves to the system
// image (environment.providedByImage).
type ImageProgram struct {
	// Path is absolute: "/opt/kubernetes/bin/kubelet".
	Path string
	// Option is the option of a unit or script that runs it.
	Option string
}

// ImagePrograms lists the programs that the profile's units and scripts
// run and that only the image provides (image, environment.providedByImage):
// no file of the profile and none of the provided paths (its assets'
// files, packages', the base system's). A bare name is the path PATH
// finds it at. nodegen switch checks that each is on the system before it
// changes anything. The list is sorted by path, each path once, with the
// first option that runs it.
func ImagePrograms(files []File, provided, image []string) []ImageProgram {
	have := providedSet(files, provided)
	inImage := providedSet(nil, image)
	found := map[string]string{}
	runs(files, func(r run) {
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
			found[exe] = r.file.Option
		}
	})
	out := make([]ImageProgram, 0, len(found))
	for p, o := range found {
		out = append(out, ImageProgram{Path: p, Option: o})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// isUnitOrDropin reports whether a target below systemd/system/ is a unit
// file or a drop-in.
func isUnitOrDropin(target string) bool {
	rel := strings.TrimPrefix(target, unitDir)
	dir, name := path.Split(rel)
	dir = strings.TrimSuffix(dir, "/")
	switch {
	case dir == "":
		return IsUnitName(name)
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

// ScriptExecutables returns the absolute executables a shell script runs:
// its interpreter and every absolute word in command position. The list
// is shared (one per text and process): nothing may modify it.
func ScriptExecutables(text []byte) []string { return scriptExecs.GetBytes(text) }

// scriptExecutables reads the absolute executables of a shell script (see
// ScriptExecutables).
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
