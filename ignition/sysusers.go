package ignition

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/coreos/ignition/v2/config/v3_4/types"

	"github.com/nodegen/nodegen/internal/wordrule"
	"github.com/nodegen/nodegen/profile"
	"github.com/nodegen/nodegen/profilecheck"
)

// nologin is the shell systemd-sysusers gives a user whose line has none.
const nologin = "/usr/sbin/nologin"

// passwd fills in passwd from the profile's sysusers.d files, read in
// order of their names as systemd-sysusers reads them, the first line for
// a name winning:
//
//   - u NAME ID GECOS HOME SHELL: a system user, with no home directory
//     created; SHELL defaults to nologin, as in sysusers, but HOME is left
//     to useradd (sysusers' default, /, would make Ignition move the home
//     of a user the image has to /); ID is a uid, or uid:group for its
//     primary group (else useradd makes a group of the user's name, as
//     sysusers does);
//   - g NAME ID: a system group;
//   - m USER GROUP: GROUP among the supplementary groups of USER, when the
//     profile declares USER (Ignition would replace the groups of a user
//     the image has).
//
// What has no Ignition equivalent is left to systemd-sysusers, which reads
// the same files at boot, with a warning. passwd returns the users and the
// groups it declared.
func (r *renderer) passwd(entries []profile.Entry) (users, groups map[string]bool) {
	users, groups = map[string]bool{}, map[string]bool{}
	userIndex := map[string]int{}
	type membership struct {
		user, group string
		at          origin
	}
	var members []membership
	pw := &r.cfg.Passwd
	for _, e := range entries {
		if path.Dir(e.Target) != "sysusers.d" || path.Ext(e.Target) != ".conf" || e.Mode == profile.TypeSymlink {
			continue
		}
		for n, line := range strings.Split(string(e.Content), "\n") {
			at := origin{target: fmt.Sprintf("%s:%d", e.Target, n+1), option: e.Option}
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			f, err := sysusersFields(line)
			if err != nil {
				r.warn(at, "%s; the line is left to systemd-sysusers", err)
				continue
			}
			if strings.Contains(strings.Join(f[1:], ""), "%") {
				r.warn(at, "specifiers (%%) are expanded by systemd-sysusers only; the line is left to it")
				continue
			}
			if what, problem := sysusersProblem(f); problem != "" {
				r.warn(at, "%s is refused: %s (systemd-sysusers refuses it too); the line is left to systemd-sysusers", what, problem)
				continue
			}
			switch f[0] {
			case "u", "u!":
				if users[f[1]] {
					continue
				}
				u := types.PasswdUser{
					Name:         f[1],
					System:       ptr(true),
					NoCreateHome: ptr(true),
					Gecos:        optional(f[3]),
					HomeDir:      optional(f[4]),
					Shell:        ptr(orDefault(f[5], nologin)),
				}
				uid, group, _ := strings.Cut(f[2], ":")
				switch id, err := strconv.Atoi(uid); {
				case uid == "-":
				case err == nil && id >= 0:
					u.UID = ptr(id)
				default:
					r.warn(at, "the uid %q (not a number) is chosen by systemd-sysusers only; Ignition lets useradd choose one", uid)
				}
				if group != "" {
					u.PrimaryGroup = ptr(group)
				}
				users[f[1]] = true
				groups[f[1]] = true
				userIndex[f[1]] = len(pw.Users)
				r.origins[fmt.Sprintf("passwd.users.%d", len(pw.Users))] = at
				pw.Users = append(pw.Users, u)
			case "g":
				if groups[f[1]] {
					continue
				}
				g := types.PasswdGroup{Name: f[1], System: ptr(true)}
				switch id, err := strconv.Atoi(f[2]); {
				case f[2] == "-":
				case err == nil && id >= 0:
					g.Gid = ptr(id)
				default:
					r.warn(at, "the gid %q (not a number) is chosen by systemd-sysusers only; Ignition lets groupadd choose one", f[2])
				}
				groups[f[1]] = true
				r.origins[fmt.Sprintf("passwd.groups.%d", len(pw.Groups))] = at
				pw.Groups = append(pw.Groups, g)
			case "m":
				members = append(members, membership{f[1], f[2], at})
			case "r":
				r.warn(at, "id ranges have no Ignition equivalent; they are left to systemd-sysusers, and useradd picks the ids of the users Ignition creates")
			default:
				r.warn(at, "%q lines have no Ignition equivalent; the line is left to systemd-sysusers", f[0])
			}
		}
	}
	for _, m := range members {
		i, ok := userIndex[m.user]
		if !ok {
			r.warn(m.at, "user %q is not declared by the profile: adding it to group %q is left to systemd-sysusers at boot (Ignition would replace the groups of a user the image has)", m.user, m.group)
			continue
		}
		if g := types.Group(m.group); !slices.Contains(pw.Users[i].Groups, g) {
			pw.Users[i].Groups = append(pw.Users[i].Groups, g)
		}
	}
	return users, groups
}

// sysusersProblem checks the fields of a u, g or m line by the rules
// the options that write them have (package lib): names are user or
// group names, a description a GECOS field, a home and a shell absolute
// paths of one word. It returns what is wrong and why, or "" for a line
// that keeps to them.
func sysusersProblem(f []string) (what, problem string) {
	name := func(s string) (string, string) {
		if s == "-" {
			return "", ""
		}
		if p := wordrule.UserNameProblem(s); p != "" {
			return fmt.Sprintf("the name %q", s), p
		}
		return "", ""
	}
	switch f[0] {
	case "u", "u!":
		if w, p := name(f[1]); p != "" {
			return w, p
		}
		if _, group, ok := strings.Cut(f[2], ":"); ok {
			if w, p := name(group); p != "" {
				return w, p
			}
		}
		if f[3] != "-" {
			if p := wordrule.GECOSProblem(f[3]); p != "" {
				return fmt.Sprintf("the description %q", f[3]), p
			}
		}
		for _, x := range []struct{ what, v string }{{"home", f[4]}, {"shell", f[5]}} {
			if x.v == "-" {
				continue
			}
			if p := wordrule.PathWordProblem(x.v); p != "" {
				return fmt.Sprintf("the %s %q", x.what, x.v), p
			}
		}
	case "g":
		return name(f[1])
	case "m":
		if w, p := name(f[1]); p != "" {
			return w, p
		}
		return name(f[2])
	}
	return "", ""
}

// sysusersFields splits a sysusers.d line into its six fields (type, name,
// id, gecos, home, shell), missing ones "-": words separated by white
// space, which double or single quotes keep together and a backslash
// escapes. It is an error when the line has fewer than two fields or more
// than six, or an unterminated quote.
func sysusersFields(line string) ([]string, error) {
	fields, ok := profilecheck.ConfWords(line)
	if !ok {
		return nil, fmt.Errorf("unterminated quote or escape in %q", line)
	}
	if len(fields) < 2 || len(fields) > 6 {
		return nil, fmt.Errorf("a sysusers.d line has 2 to 6 fields, not %d: %q", len(fields), line)
	}
	for len(fields) < 6 {
		fields = append(fields, "-")
	}
	return fields, nil
}

// optional is nil for sysusers' "-" (or nothing), else s.
func optional(s string) *string {
	if s == "-" || s == "" {
		return nil
	}
	return &s
}

func orDefault(s, def string) string {
	if s == "-" || s == "" {
		return def
	}
	return s
}
