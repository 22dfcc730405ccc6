package activate

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nodegen/nodegen/internal/wordrule"
	"github.com/nodegen/nodegen/profile"
	"github.com/nodegen/nodegen/unitcheck"
)

// InvalidError is a check stage that found what an activation could not
// apply: a mode, a sysusers.d or tmpfiles.d line systemd would reject, an
// owner that does not exist, a unit name systemd refuses. Nothing was
// changed.
type InvalidError struct {
	Problems []Conflict
}

func (e *InvalidError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d problem(s) in the profile; nothing was changed:", len(e.Problems))
	for _, c := range e.Problems {
		fmt.Fprintf(&b, "\n  %s: %s", c.Path, c.Reason)
	}
	return b.String()
}

// invalid records a problem of the target profile; line > 0 names a line
// of the file rel.
func (p *Plan) invalid(s *System, rel string, line int, format string, args ...any) {
	where := s.show(rel)
	if line > 0 {
		where = fmt.Sprintf("%s:%d", where, line)
	}
	p.Invalid = append(p.Invalid, Conflict{Path: where, Reason: fmt.Sprintf(format, args...)})
}

// checkProfile finds, before anything changes, what the apply stages would
// fail on: modes parseMode refuses, sysusers.d lines systemd-sysusers
// rejects, tmpfiles.d owners that neither the system nor the profile's
// sysusers.d has, unit names systemd refuses, and the tools the profile's
// files need.
func (s *System) checkProfile(p *Plan, m profile.Manifest, dir string) {
	var sysusers, tmpfiles bool
	for _, e := range m.Entries {
		if e.Type == profile.TypeFile {
			if _, err := parseMode(normMode(e.Mode)); err != nil {
				p.invalid(s, e.Path, 0, "mode %q (from %s) is not an octal mode of at most four digits", e.Mode, e.Option)
			}
		}
		if rel, ok := strings.CutPrefix(e.Path, "etc/systemd/system/"); ok {
			// The names of units, of their drop-in and .wants
			// directories: what systemctl is given.
			for _, part := range strings.Split(rel, "/") {
				for _, suffix := range []string{".d", ".wants", ".requires", ".upholds"} {
					part = strings.TrimSuffix(part, suffix)
				}
				if !slices.Contains(unitcheck.UnitTypes(), strings.TrimPrefix(path.Ext(part), ".")) {
					continue
				}
				if why := wordrule.UnitNameProblem(part); why != "" {
					p.invalid(s, e.Path, 0, "%q (from %s) is not a unit name systemd accepts: %s", part, e.Option, why)
				}
			}
		}
		switch {
		case isConf(e, "etc/sysusers.d/"):
			sysusers = true
			if data, err := profile.ReadEntry(dir, e); err == nil {
				for _, pr := range sysusersProblems(data) {
					p.invalid(s, e.Path, pr.line, "%s (from %s)", pr.msg, e.Option)
				}
			}
		case isConf(e, "etc/tmpfiles.d/"):
			tmpfiles = true
			if data, err := profile.ReadEntry(dir, e); err == nil {
				for _, pr := range tmpfilesProblems(data, p.owners) {
					p.invalid(s, e.Path, pr.line, "%s (from %s)", pr.msg, e.Option)
				}
			}
		}
	}
	for _, t := range []struct {
		has  bool
		dir  string
		tool string
	}{{sysusers, "/etc/sysusers.d", "systemd-sysusers"}, {tmpfiles, "/etc/tmpfiles.d", "systemd-tmpfiles"}} {
		if _, err := exec.LookPath(t.tool); t.has && err != nil {
			p.invalid(s, strings.TrimPrefix(t.dir, "/"), 0, "the profile has %s files, but %s is not installed", t.dir, t.tool)
		}
	}
}

// lineProblem is a problem on one line of a configuration file.
type lineProblem struct {
	line int
	msg  string
}

// confLines calls f with the fields of each line of a sysusers.d or
// tmpfiles.d file that is not empty or a comment, split as systemd's
// extract_many_words with EXTRACT_UNQUOTE does; a line whose quotes do not
// close is a problem.
func confLines(data []byte, f func(n int, fields []string)) []lineProblem {
	var out []lineProblem
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields, ok := profile.ConfWords(line)
		if !ok {
			out = append(out, lineProblem{n, "a quote is not closed"})
			continue
		}
		f(n, fields)
	}
	return out
}

// unset reports whether a field is absent: empty or "-".
func unset(f string) bool { return f == "" || f == "-" }

// field returns fields[i], or "" past the end.
func field(fields []string, i int) string {
	if i < len(fields) {
		return fields[i]
	}
	return ""
}

// sysusersProblems checks a sysusers.d file by systemd-sysusers' rules
// (parse_line in systemd's sysusers.c): each problem is one that makes it
// refuse the file. Fields with % specifiers are left to it.
func sysusersProblems(data []byte) []lineProblem {
	var out []lineProblem
	quotes := confLines(data, func(n int, f []string) {
		bad := func(format string, args ...any) { out = append(out, lineProblem{n, fmt.Sprintf(format, args...)}) }
		if len(f) < 2 {
			bad("systemd-sysusers: syntax error: a line needs a type and a name")
			return
		}
		if len(f) > 6 {
			bad("systemd-sysusers: trailing garbage after the shell field: %q", strings.Join(f[6:], " "))
			return
		}
		typ, name, id, gecos, home, shell := f[0], f[1], field(f, 2), field(f, 3), field(f, 4), field(f, 5)
		if len(typ) != 1 || !strings.Contains("ugmr", typ) {
			bad("systemd-sysusers: unknown line type %q (u, g, m or r)", typ)
			return
		}
		spec := func(v string) bool { return strings.Contains(v, "%") }
		if !unset(gecos) && !spec(gecos) && !validGECOS(gecos) {
			bad("systemd-sysusers: %q is not a valid GECOS field (no colons or control characters)", gecos)
		}
		if !unset(home) && !spec(home) && !validPathField(home) {
			bad("systemd-sysusers: %q is not a valid home directory (an absolute, normalized path without colons)", home)
		}
		if !unset(shell) && !spec(shell) && !validPathField(shell) {
			bad("systemd-sysusers: %q is not a valid login shell: it must be an absolute path, such as /usr/sbin/nologin", shell)
		}
		onlyName := func() {
			for _, x := range []struct{ v, what string }{{gecos, "GECOS"}, {home, "home"}, {shell, "shell"}} {
				if !unset(x.v) {
					bad("systemd-sysusers: lines of type %q take no %s field", typ, x.what)
				}
			}
		}
		switch typ {
		case "r":
			if !unset(name) {
				bad("systemd-sysusers: lines of type \"r\" take no name")
			}
			if unset(id) {
				bad("systemd-sysusers: lines of type \"r\" need an ID range in the third field")
			} else if !spec(id) && !validRange(id) {
				bad("systemd-sysusers: %q is not a valid UID range", id)
			}
			onlyName()
			return
		case "m":
			if unset(name) {
				bad("systemd-sysusers: lines of type \"m\" need a user name in the second field")
			} else if !spec(name) && !validUserName(name) {
				bad("systemd-sysusers: %q is not a valid user name", name)
			}
			if unset(id) {
				bad("systemd-sysusers: lines of type \"m\" need a group name in the third field")
			} else if !spec(id) && !validUserName(id) {
				bad("systemd-sysusers: %q is not a valid group name", id)
			}
			onlyName()
			return
		}
		if unset(name) {
			bad("systemd-sysusers: missing name")
		} else if !spec(name) && !validUserName(name) {
			bad("systemd-sysusers: %q is not a valid user or group name (a letter or _, then letters, digits, _ and -, at most 31)", name)
		}
		if typ == "g" {
			onlyName()
		}
		if unset(id) || spec(id) || path.IsAbs(id) {
			return
		}
		uid, gid, hasGID := strings.Cut(id, ":")
		if typ == "g" && hasGID {
			bad("systemd-sysusers: %q is not a valid GID", id)
			return
		}
		if !unset(uid) && !validID(uid) {
			bad("systemd-sysusers: %q is not a valid %s", uid, map[string]string{"u": "UID", "g": "GID"}[typ])
		}
		if hasGID && !validID(gid) && !validUserName(gid) {
			bad("systemd-sysusers: %q is not a valid GID or group name", gid)
		}
	})
	return byLine(append(out, quotes...))
}

// validUserName is systemd's strict valid_user_group_name (lib's rule).
func validUserName(n string) bool { return wordrule.UserNameProblem(n) == "" }

// validID is a UID or GID systemd accepts: a number, not 65535 or
// 4294967295.
func validID(s string) bool {
	v, err := strconv.ParseUint(s, 10, 32)
	return err == nil && wordrule.IDProblem(int64(v)) == ""
}

func validRange(s string) bool {
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		return validID(s)
	}
	x, err1 := strconv.ParseUint(a, 10, 32)
	y, err2 := strconv.ParseUint(b, 10, 32)
	return err1 == nil && err2 == nil && x <= y && validID(a) && validID(b)
}

func hasControl(s string) bool {
	for _, c := range s {
		if c < 0x20 || c == 0x7f {
			return true
		}
	}
	return false
}

func validGECOS(s string) bool { return wordrule.GECOSProblem(s) == "" }

// validPathField is systemd's valid_home and valid_shell: an absolute,
// normalized path without colons or control characters.
func validPathField(s string) bool {
	if !utf8.ValidString(s) || hasControl(s) || !path.IsAbs(s) || strings.Contains(s, ":") || len(s) > 4096 {
		return false
	}
	for _, part := range strings.Split(strings.TrimSuffix(s[1:], "/"), "/") {
		if part == "." || part == ".." || part == "" && s != "/" {
			return false
		}
	}
	return true
}

// tmpfilesProblems checks the owners of a tmpfiles.d file's lines: a user
// or group that neither the system has nor the profile's sysusers.d
// creates makes systemd-tmpfiles fail after the files changed.
func tmpfilesProblems(data []byte, o *owners) []lineProblem {
	var out []lineProblem
	quotes := confLines(data, func(n int, f []string) {
		if len(f) < 2 {
			out = append(out, lineProblem{n, "systemd-tmpfiles: a line needs a type and a path"})
			return
		}
		user, group := strings.TrimPrefix(field(f, 3), ":"), strings.TrimPrefix(field(f, 4), ":")
		if !unset(user) && !strings.Contains(user, "%") && !o.knownUser(user) {
			out = append(out, lineProblem{n, fmt.Sprintf("systemd-tmpfiles: user %q (of %s) is not a user of the system, and no sysusers.d file of the profile creates it", user, f[1])})
		}
		if !unset(group) && !strings.Contains(group, "%") && !o.knownGroup(group) {
			out = append(out, lineProblem{n, fmt.Sprintf("systemd-tmpfiles: group %q (of %s) is not a group of the system, and no sysusers.d file of the profile creates it", group, f[1])})
		}
	})
	return byLine(append(out, quotes...))
}

// byLine sorts problems by line, stably.
func byLine(ps []lineProblem) []lineProblem {
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].line < ps[j].line })
	return ps
}
