package activate

import (
	"fmt"
	"os/exec"
	"strings"

	"github.com/nodegen/nodegen/profile"
	"github.com/nodegen/nodegen/profilecheck"
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
// fail on: modes parseMode refuses, the problems of the profile's files
// by the rules of package profilecheck (unit names systemd refuses,
// sysusers.d and tmpfiles.d lines, tmpfiles.d owners that neither the
// system nor the profile's sysusers.d has; the same rules nodegen eval
// applies, but for the owners, which only the target knows), and the
// tools the profile's files need.
func (s *System) checkProfile(p *Plan, m profile.Manifest, dir string) {
	var sysusers, tmpfiles bool
	var files []profilecheck.File
	for _, e := range m.Entries {
		if e.Type == profile.TypeFile {
			if _, err := parseMode(normMode(e.Mode)); err != nil {
				p.invalid(s, e.Path, 0, "mode %q (from %s) is not an octal mode of at most four digits", e.Mode, e.Option)
			}
		}
		rel, ok := strings.CutPrefix(e.Path, "etc/")
		if !ok {
			continue
		}
		f := profilecheck.File{Path: rel, Option: e.Option, Link: e.Target}
		if e.Type == profile.TypeFile {
			f.Link = ""
			if profilecheck.IsSysusers(rel) || profilecheck.IsTmpfiles(rel) {
				sysusers = sysusers || profilecheck.IsSysusers(rel)
				tmpfiles = tmpfiles || profilecheck.IsTmpfiles(rel)
				data, err := profile.ReadEntry(dir, e)
				if err != nil {
					continue
				}
				f.Content = data
			}
		}
		files = append(files, f)
	}
	for _, pr := range profilecheck.Files(files, p.owners) {
		where := s.show("etc/" + pr.Path)
		if pr.Line > 0 {
			where = fmt.Sprintf("%s:%d", where, pr.Line)
		}
		p.Invalid = append(p.Invalid, Conflict{Path: where, Reason: pr.Reason()})
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
