package profilecheck

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/nodegen/nodegen/internal/wordrule"
)

// unitTypes are the types of units systemd has, sorted.
var unitTypes = []string{"automount", "device", "mount", "path", "scope", "service", "slice", "socket", "swap", "target", "timer"}

// UnitTypes are the types of units, sorted: "automount", "device", ...
func UnitTypes() []string { return slices.Clone(unitTypes) }

// IsUnitName tells whether name is NAME.TYPE for a unit type systemd has.
func IsUnitName(name string) bool {
	ext := path.Ext(name)
	return slices.Contains(unitTypes, strings.TrimPrefix(ext, ".")) && len(name) > len(ext) && !strings.Contains(name, "/")
}

// wantsSuffixes are the directories whose entries a unit pulls in.
var wantsSuffixes = []string{".wants", ".requires", ".upholds"}

// UnitNames checks the unit names in the path of a file below
// systemd/system/ (see UnitPathProblem): systemctl is given them.
func UnitNames(f File) []Problem {
	if p := UnitPathProblem(f.Path); p != "" {
		return []Problem{{Option: f.Option, Path: f.Path, Summary: "Invalid unit name", Message: p}}
	}
	return nil
}

// UnitPathProblem checks the unit names in a target below
// systemd/system/: a unit file (NAME.TYPE), a .wants, .requires or
// .upholds link to one, or a drop-in directory of one, by systemd's rule
// (wordrule.UnitNameProblem). It returns the problem, or "" when there is
// none; other files there are left alone.
func UnitPathProblem(target string) string {
	rest, ok := strings.CutPrefix(target, "systemd/system/")
	if !ok {
		return ""
	}
	dir, file := path.Split(rest)
	dir = strings.TrimSuffix(dir, "/")
	var names []string
	switch {
	case dir == "" && IsUnitName(file):
		names = []string{file}
	case strings.Contains(dir, "/"):
	case strings.HasSuffix(dir, ".d") && IsUnitName(strings.TrimSuffix(dir, ".d")):
		names = []string{strings.TrimSuffix(dir, ".d")}
	default:
		for _, w := range wantsSuffixes {
			if u, ok := strings.CutSuffix(dir, w); ok {
				names = []string{u, file}
			}
		}
	}
	for _, n := range names {
		if p := wordrule.UnitNameProblem(n); p != "" {
			return fmt.Sprintf("%q is no unit name systemd accepts: %s", n, p)
		}
	}
	return ""
}
