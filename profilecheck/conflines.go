package profilecheck

import (
	"bufio"
	"bytes"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nodegen/nodegen/internal/wordrule"
)

// lineProblem is a problem on one line of a configuration file.
type lineProblem struct {
	line int
	msg  string
}

// problems ties the line problems of f to it and its option.
func problems(f File, summary string, ps []lineProblem) []Problem {
	out := make([]Problem, 0, len(ps))
	for _, p := range ps {
		out = append(out, Problem{Option: f.Option, Path: f.Path, Line: p.line, Summary: summary, Message: p.msg})
	}
	return byLine(out)
}

// ConfLines calls f with the fields of each line of a sysusers.d or
// tmpfiles.d file that is not empty or a comment, split as systemd's
// extract_many_words with EXTRACT_UNQUOTE does; a line whose quotes do not
// close is a problem.
func ConfLines(data []byte, f func(n int, fields []string)) []lineProblem {
	var out []lineProblem
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields, ok := ConfWords(line)
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

// Sysusers checks a sysusers.d file by systemd-sysusers' rules
// (parse_line in systemd's sysusers.c): each problem is one that makes it
// refuse the file. Fields with % specifiers are left to it.
func Sysusers(f File) []Problem {
	return problems(f, "Invalid sysusers.d line", sysusersLines(f.Content))
}

// sysusersLines is Sysusers' rule, by line.
func sysusersLines(data []byte) []lineProblem {
	var out []lineProblem
	quotes := ConfLines(data, func(n int, f []string) {
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
	return byLines(append(out, quotes...))
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

// Tmpfiles checks a tmpfiles.d file's lines: each needs a type and a
// path, and its quotes must close. With the target system's owners (not
// nil), it checks their users and groups too: one that neither the system
// has nor the profile's sysusers.d creates makes systemd-tmpfiles fail
// after the files changed.
func Tmpfiles(f File, o Owners) []Problem {
	return problems(f, "Invalid tmpfiles.d line", tmpfilesLines(f.Content, o))
}

// tmpfilesLines is Tmpfiles' rule, by line.
func tmpfilesLines(data []byte, o Owners) []lineProblem {
	var out []lineProblem
	quotes := ConfLines(data, func(n int, f []string) {
		if len(f) < 2 {
			out = append(out, lineProblem{n, "systemd-tmpfiles: a line needs a type and a path"})
			return
		}
		if o == nil {
			return
		}
		user, group := strings.TrimPrefix(field(f, 3), ":"), strings.TrimPrefix(field(f, 4), ":")
		if !unset(user) && !strings.Contains(user, "%") && !o.KnownUser(user) {
			out = append(out, lineProblem{n, fmt.Sprintf("systemd-tmpfiles: user %q (of %s) is not a user of the system, and no sysusers.d file of the profile creates it", user, f[1])})
		}
		if !unset(group) && !strings.Contains(group, "%") && !o.KnownGroup(group) {
			out = append(out, lineProblem{n, fmt.Sprintf("systemd-tmpfiles: group %q (of %s) is not a group of the system, and no sysusers.d file of the profile creates it", group, f[1])})
		}
	})
	return byLines(append(out, quotes...))
}

// byLines sorts line problems by line, stably.
func byLines(ps []lineProblem) []lineProblem {
	slices.SortStableFunc(ps, func(a, b lineProblem) int { return a.line - b.line })
	return ps
}

// SysusersCreates lists the users and groups a sysusers.d file creates:
// "u NAME" (and its group of the same name, unless the line names an
// existing one as UID:GROUP), "g NAME".
func SysusersCreates(data []byte) (users, groups []string) {
	ConfLines(data, func(_ int, f []string) {
		if len(f) < 2 {
			return
		}
		name := f[1]
		switch f[0] {
		case "u":
			users = append(users, name)
			if !strings.Contains(field(f, 2), ":") {
				groups = append(groups, name)
			}
		case "g":
			groups = append(groups, name)
		}
	})
	return users, groups
}
