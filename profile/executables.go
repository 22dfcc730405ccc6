package profile

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// execKeys are the unit settings whose first word is an executable.
var execKeys = map[string]bool{
	"ExecStart": true, "ExecStartPre": true, "ExecStartPost": true, "ExecReload": true,
	"ExecStop": true, "ExecStopPost": true, "ExecCondition": true,
}

// scriptDir is where the core library writes the scripts of units.
const scriptDir = "nodegen/scripts/"

// CheckExecutables lists the absolute executables that the profile's units
// run (their Exec* settings) and its scripts call (in command position)
// that nothing provides: neither a file of the profile, nor an asset, nor
// one of the provided paths (packages' executables, the image's). Each
// missing executable is a warning naming the option of the unit or script
// and what to set.
func CheckExecutables(entries []Entry, assets []Asset, provided []string) []string {
	have := map[string]bool{}
	for _, p := range provided {
		have[p] = true
	}
	for _, e := range entries {
		have["/etc/"+e.Target] = true
	}
	for _, a := range assets {
		for _, f := range a.Files {
			have[f.Path] = true
		}
	}
	var warnings []string
	seen := map[string]bool{}
	report := func(e Entry, where, exe string) {
		key := e.Option + "\x00" + exe
		if have[exe] || seen[key] {
			return
		}
		seen[key] = true
		warnings = append(warnings, fmt.Sprintf("%s: %s runs %s, which no asset, package or image provides; declare it in environment.assets or environment.packages, or list it in environment.providedByImage",
			orUnknown(e.Option), where, exe))
	}
	for _, e := range entries {
		if e.Mode == TypeSymlink {
			continue
		}
		switch {
		case strings.HasPrefix(e.Target, unitDir[len("etc/"):]) && isUnitOrDropin(e.Target):
			for _, x := range unitExecs.GetBytes(e.Content) {
				report(e, x.key, x.exe)
			}
		case strings.HasPrefix(e.Target, scriptDir):
			for _, exe := range scriptExecs.GetBytes(e.Content) {
				report(e, "/etc/"+e.Target, exe)
			}
		}
	}
	sort.Strings(warnings)
	return warnings
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
// settings, with their keys, parts of text.
func unitExecutables(text string) []unitExec {
	var out []unitExec
	for line := range strings.Lines(text) {
		key, value, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "=")
		if !ok || !execKeys[strings.TrimSpace(key)] {
			continue
		}
		value = strings.TrimLeft(strings.TrimSpace(value), "@-:+!")
		exe, _, _ := strings.Cut(value, " ")
		if strings.HasPrefix(exe, "/") && !strings.ContainsAny(exe, "$%") {
			out = append(out, unitExec{strings.TrimSpace(key), exe})
		}
	}
	return out
}

// shellKeywords and separators put the next word in command position.
var shellKeywords = map[string]bool{
	"then": true, "do": true, "else": true, "elif": true, "if": true, "while": true, "until": true,
	"exec": true, "!": true, "{": true, "(": true, "time": true, "command": true, "nohup": true,
}

// scriptExecutables returns the absolute executables a shell script runs:
// its interpreter and every absolute word in command position.
func scriptExecutables(text string) []string {
	var out []string
	lines := strings.Split(text, "\n")
	if len(lines) > 0 && strings.HasPrefix(lines[0], "#!") {
		interp, _, _ := strings.Cut(strings.TrimSpace(lines[0][2:]), " ")
		if strings.HasPrefix(interp, "/") {
			out = append(out, interp)
		}
		lines = lines[1:]
	}
	for _, line := range lines {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") {
			continue
		}
		// Separators become words of their own.
		for _, sep := range []string{"&&", "||", ";", "|", "(", ")", "`", "$("} {
			line = strings.ReplaceAll(line, sep, " ; ")
		}
		command := true
		for _, w := range strings.Fields(line) {
			switch {
			case w == ";":
				command = true
			case command && shellKeywords[w]:
			case command && strings.Contains(w, "=") && !strings.HasPrefix(w, "/") && !strings.HasPrefix(w, "-"):
				// An assignment before the command.
			case command:
				if strings.HasPrefix(w, "/") && !strings.ContainsAny(w, "$\"'*?[") {
					out = append(out, w)
				}
				command = false
			}
		}
	}
	return out
}
