package profilecheck

import (
	"fmt"
	"net"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/nodegen/nodegen/internal/unitfile"
)

// unitDir is where units live, below /etc.
const unitDir = "systemd/system/"

// Provides is what a unit makes available on its host once it runs.
type Provides struct {
	// Files are absolute paths the unit creates.
	Files []string
	// URLs are scheme://host:port where the unit answers; host 0.0.0.0 or
	// [::] is every address of the host.
	URLs []string
}

// Facts are what the evaluation says about the units of a profile, which
// their files do not: what each provides, and the host's own names.
type Facts struct {
	// Provides is by unit file name ("flannel.service").
	Provides map[string]Provides
	// HostNames are the host's own names: its host name and FQDN.
	HostNames []string
}

// unit is a unit file of the profile with its drop-ins.
type unit struct {
	name     string
	file     File // the unit file
	settings []unitfile.Setting
}

// Startup checks that the units of a profile can reach their targets
// (the startup check): each wait loop of a unit (`while ! test -f FILE`,
// `while ! curl ... URL`, `until nc -z HOST PORT`) waits for something an
// enabled unit of the same profile provides (facts.Provides), and each
// Requires=, BindsTo= and Requisite=, each unit a path, timer or socket
// unit starts, and each .wants/, .requires/ and .upholds/ link names a
// unit the profile writes or a stock Debian or Flatcar system has.
//
// What a unit provides is declared, not guessed: the library's units say
// which files they create and where they answer (systemd.*.provides, which
// package evalprofile reads from systemd.provided into facts). A wait for
// a URL on another machine (the master's apiserver, seen from a worker) is
// that machine's to provide and is not checked.
//
// Each problem is about a unit file (a dangling link: the link), by unit
// name and in the order of each unit's settings.
func Startup(fs []File, facts Facts) []Problem {
	files := map[string]File{}
	for _, f := range fs {
		files[f.Path] = f
	}
	units := loadUnits(fs)
	names := make([]string, 0, len(units))
	for n := range units {
		names = append(names, n)
	}
	sort.Strings(names)

	c := checker{
		files:    files,
		units:    units,
		provides: facts.Provides,
		enabled:  enabledUnits(fs, units),
		local:    localHosts(facts, units),
	}
	dangling := danglingLinks(fs, units)
	var problems []Problem
	for _, n := range names {
		u := units[n]
		problem := func(msg string) {
			problems = append(problems, Problem{Option: u.file.Option, Path: u.file.Path, Summary: startupSummary, Message: msg})
		}
		for _, l := range dangling[n] {
			problems = append(problems, Problem{Option: l.file.Option, Path: l.file.Path, Summary: startupSummary,
				Message: fmt.Sprintf("it links %s into %s/, but %s is neither in this profile nor a stock unit of Debian or Flatcar: the link starts nothing", n, l.dir, l.owner)})
		}
		for _, ws := range unitWaits(u, files) {
			if msg := c.unsatisfied(ws.wait); msg != "" {
				problem(fmt.Sprintf("the loop %q in %s waits for %s", ws.loop, ws.source, msg))
			}
		}
		if target, key, ok := triggers(u); ok && !exists(target, units) {
			how := fmt.Sprintf("%s=%s names a unit that is", key, target)
			if key == "" {
				how = fmt.Sprintf("it starts %s (the unit of its own name, as it sets no %s=), which is", target, map[bool]string{true: "Service", false: "Unit"}[path.Ext(n) == ".socket"])
			}
			problem(how + " neither in this profile nor a stock unit of Debian or Flatcar: it starts nothing (set its unit, or name the service as the " + strings.TrimPrefix(path.Ext(n), ".") + ")")
		}
		for _, key := range []string{"Requires", "BindsTo", "Requisite"} {
			for _, r := range unitList(u.settings, "Unit", key) {
				if !exists(r, units) {
					problem(fmt.Sprintf("%s=%s names a unit that is neither in this profile nor a stock unit of Debian or Flatcar", key, r))
				}
			}
		}
	}
	return problems
}

// startupSummary is the summary of the problems of the startup check.
const startupSummary = "Unit cannot reach its target"

// link is a .wants/, .requires/ or .upholds/ link of a unit.
type link struct {
	dir   string // "nosuch.target.wants"
	owner string // "nosuch.target"
	file  File   // the link
}

var linkSuffixes = []string{".wants", ".requires", ".upholds"}

// installLinks calls f for each .wants/, .requires/ and .upholds/ link of
// the profile: the unit that pulls (owner) and the unit pulled in.
func installLinks(fs []File, f func(f File, owner, dir, name string)) {
	for _, file := range fs {
		rel, ok := strings.CutPrefix(file.Path, unitDir)
		if !ok || file.Link == "" {
			continue
		}
		dir, name := path.Split(rel)
		dir = strings.TrimSuffix(dir, "/")
		for _, suffix := range linkSuffixes {
			if owner, ok := strings.CutSuffix(dir, suffix); ok && !strings.Contains(owner, "/") {
				f(file, owner, dir, name)
			}
		}
	}
}

// danglingLinks returns, by unit, the links that put it in the .wants/
// (.requires/, .upholds/) directory of a unit that is nowhere: a wantedBy
// with a typo.
func danglingLinks(fs []File, units map[string]*unit) map[string][]link {
	out := map[string][]link{}
	installLinks(fs, func(f File, owner, dir, name string) {
		if !exists(owner, units) {
			out[name] = append(out[name], link{dir: dir, owner: owner, file: f})
		}
	})
	return out
}

// loadUnits reads the unit files of the profile, each with its drop-ins
// (in name order) after it. A unit with drop-ins only is not a unit of the
// profile: it is the system's.
func loadUnits(fs []File) map[string]*unit {
	units := map[string]*unit{}
	sorted := append([]File(nil), fs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	dropins := map[string][]unitfile.Setting{}
	for _, f := range sorted {
		rel, ok := strings.CutPrefix(f.Path, unitDir)
		if !ok || f.Link != "" {
			continue
		}
		dir, name := path.Split(rel)
		switch {
		case dir == "" && IsUnitName(name):
			units[name] = &unit{name: name, file: f, settings: unitSettings.GetBytes(f.Content)}
		case strings.HasSuffix(dir, ".d/") && strings.HasSuffix(name, ".conf") && !strings.Contains(strings.TrimSuffix(dir, "/"), "/"):
			owner := strings.TrimSuffix(dir, ".d/")
			dropins[owner] = append(dropins[owner], unitSettings.GetBytes(f.Content)...)
		}
	}
	for n, s := range dropins {
		if u, ok := units[n]; ok {
			u.settings = append(u.settings, s...)
		}
	}
	return units
}

// exists reports whether a unit name is in the profile or stock, itself or
// as an instance of a template that is.
func exists(name string, units map[string]*unit) bool {
	if strings.Contains(name, "%") {
		return true // a specifier: resolved by systemd
	}
	for _, n := range []string{name, templateOf(name)} {
		if n == "" {
			continue
		}
		if _, ok := units[n]; ok || stockUnits[n] {
			return true
		}
	}
	return false
}

// enabledUnits returns the units of the profile that something starts:
// pulled in (a .wants/, .requires/ or .upholds/ link, Wants=, Requires=,
// BindsTo=, Requisite=, Upholds=) or triggered (by a path, timer or socket
// unit) by a stock unit that is not the profile's (multi-user.target),
// directly or through other enabled units.
func enabledUnits(fs []File, units map[string]*unit) map[string]bool {
	edges := map[string][]string{}
	installLinks(fs, func(_ File, owner, _, name string) {
		edges[owner] = append(edges[owner], name)
	})
	for n, u := range units {
		for _, key := range []string{"Wants", "Requires", "BindsTo", "Requisite", "Upholds"} {
			edges[n] = append(edges[n], unitList(u.settings, "Unit", key)...)
		}
		if target, _, ok := triggers(u); ok {
			edges[n] = append(edges[n], target)
		}
	}
	enabled := map[string]bool{}
	var queue []string
	for from, tos := range edges {
		if _, ok := units[from]; !ok && exists(from, units) {
			queue = append(queue, tos...)
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if enabled[n] {
			continue
		}
		enabled[n] = true
		queue = append(queue, edges[n]...)
	}
	return enabled
}

// triggers returns the unit a path, timer or socket unit starts: its
// Unit= (Service= for a socket), or the service of its own name (a
// template of it for a socket with Accept=yes); key names the setting,
// "" for the default.
func triggers(u *unit) (target, key string, ok bool) {
	ext := path.Ext(u.name)
	stem := strings.TrimSuffix(u.name, ext)
	section, key := map[string]string{".path": "Path", ".timer": "Timer", ".socket": "Socket"}[ext], "Unit"
	if section == "" {
		return "", "", false
	}
	if ext == ".socket" {
		key = "Service"
	}
	if v, set := lastValue(u.settings, section, key); set && v != "" {
		return v, key, true
	}
	if accept, _ := lastValue(u.settings, "Socket", "Accept"); ext == ".socket" && (accept == "yes" || accept == "true" || accept == "1" || accept == "on") {
		return stem + "@.service", "", true
	}
	return stem + ".service", "", true
}

// localHosts returns the names and addresses that are this host: the
// loopback, its names, and every host a unit of the profile answers at.
func localHosts(p Facts, units map[string]*unit) map[string]bool {
	local := setOf("localhost")
	for _, h := range p.HostNames {
		if h != "" {
			local[strings.ToLower(h)] = true
		}
	}
	for n, pr := range p.Provides {
		if _, ok := units[n]; !ok {
			continue
		}
		for _, s := range pr.URLs {
			if w, ok := urlWait(s); ok && !wildcard(w.host) {
				local[strings.ToLower(w.host)] = true
			}
		}
	}
	return local
}

func isLocal(host string, local map[string]bool) bool {
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return true
	}
	return local[strings.ToLower(host)]
}

func wildcard(host string) bool {
	ip := net.ParseIP(host)
	return host == "" || ip != nil && ip.IsUnspecified()
}

// checker holds what the waits of a profile are checked against.
type checker struct {
	files    map[string]File // by path below /etc
	units    map[string]*unit
	provides map[string]Provides
	enabled  map[string]bool
	local    map[string]bool
}

// unsatisfied returns "" when an enabled unit provides what w waits for
// (or another machine does), and else what is missing.
func (c *checker) unsatisfied(w wait) string {
	if rel, ok := strings.CutPrefix(w.file, "/etc/"); ok && w.kind == waitFile {
		// The profile's own files are there before any unit starts.
		if _, ok := c.files[rel]; ok {
			return ""
		}
	}
	if w.kind != waitFile && !isLocal(w.host, c.local) {
		return "" // another machine's
	}
	var idle []string
	names := make([]string, 0, len(c.provides))
	for n := range c.provides {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if _, ok := c.units[n]; !ok || !providesFor(c.provides[n], w, c.local) {
			continue
		}
		if c.enabled[n] {
			return ""
		}
		idle = append(idle, n)
	}
	var msg string
	switch w.kind {
	case waitFile:
		msg = fmt.Sprintf("%s, which no enabled unit of this profile creates", w.file)
	case waitURL:
		msg = fmt.Sprintf("%s, on this host, where no enabled unit of this profile answers", w.url)
	default:
		msg = fmt.Sprintf("port %s of this host, where no enabled unit of this profile listens", net.JoinHostPort(w.host, w.port))
	}
	if len(idle) > 0 {
		return msg + fmt.Sprintf(" (%s would, but nothing starts it)", strings.Join(idle, ", "))
	}
	if w.kind == waitFile {
		return msg + " (a unit declares the files it creates in its provides.files)"
	}
	return msg + " (a unit declares where it answers in its provides.urls)"
}

// providesFor reports whether pr provides what w waits for.
func providesFor(pr Provides, w wait, local map[string]bool) bool {
	if w.kind == waitFile {
		for _, f := range pr.Files {
			if path.Clean(f) == w.file {
				return true
			}
		}
		return false
	}
	for _, s := range pr.URLs {
		p, ok := urlWait(s)
		if !ok || p.port != w.port || w.kind == waitURL && p.scheme != w.scheme {
			continue
		}
		if strings.EqualFold(p.host, w.host) || wildcard(p.host) && isLocal(w.host, local) {
			return true
		}
	}
	return false
}

// sourcedWait is a wait loop and where it is: a script of the profile or a
// unit's command line.
type sourcedWait struct {
	wait
	source string
}

// startKeys are the commands that run before a unit is up.
var startKeys = []string{"ExecCondition", "ExecStartPre", "ExecStart", "ExecStartPost"}

// unitWaits returns the wait loops a unit runs while it starts: in a
// `sh -c` command line, or in a script of the profile that a command runs.
func unitWaits(u *unit, files map[string]File) []sourcedWait {
	var out []sourcedWait
	for _, s := range u.settings {
		if s.Section != "Service" || !slices.Contains(startKeys, s.Key) || s.Value == "" {
			continue
		}
		line := strings.TrimLeft(s.Value, "-@:+!|")
		for _, words := range lineCommands.Get(line) {
			if len(words) == 0 {
				continue
			}
			if rel, ok := strings.CutPrefix(words[0], "/etc/"); ok {
				if f, ok := files[rel]; ok && f.Link == "" {
					src := words[0]
					if f.Option != "" {
						src += " (" + f.Option + ")"
					}
					for _, w := range scriptWaits.GetBytes(f.Content) {
						out = append(out, sourcedWait{w, src})
					}
				}
				continue
			}
			switch path.Base(words[0]) {
			case "sh", "bash", "dash":
				for i := 1; i+1 < len(words); i++ {
					if words[i] == "-c" {
						for _, w := range scriptWaits.Get(words[i+1]) {
							out = append(out, sourcedWait{w, s.Key + "= of " + u.name})
						}
						break
					}
				}
			}
		}
	}
	return out
}
