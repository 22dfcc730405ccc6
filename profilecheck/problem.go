package profilecheck

import (
	"fmt"
	"slices"
	"strings"
)

// File is a file of a built profile, as the rules see it.
type File struct {
	// Path is below /etc: "sysusers.d/00-nodegen.conf".
	Path string
	// Content is a regular file's content.
	Content []byte
	// Link is a symlink's target, "" for a regular file.
	Link string
	// Option is the option that made the file
	// (environment.etc."sysusers.d/00-nodegen.conf", or the one its
	// origin names: users.users).
	Option string
	// Checks are the checks of the file by the programs that read it.
	Checks []ProgramCheck
}

// Problem is what a rule finds wrong with a file of a profile.
type Problem struct {
	// Option is the option that made the file (File.Option): where the
	// user fixes it.
	Option string
	// Path is the file's path below /etc.
	Path string
	// Line is the file's line the problem is on, 0 for the whole file.
	Line int
	// Summary is a short fixed phrase: "Invalid sysusers.d line".
	Summary string
	// Message says what is wrong, in the words of the program that would
	// refuse it: "systemd-sysusers: "nologin" is not a valid login shell...".
	Message string
	// Output is, for a program check that failed, what the program
	// printed and the check, indented; "" otherwise.
	Output string
}

// Where is the file, and its line when there is one:
// "/etc/sysusers.d/app.conf:3".
func (p Problem) Where() string {
	if p.Line > 0 {
		return fmt.Sprintf("/etc/%s:%d", p.Path, p.Line)
	}
	return "/etc/" + p.Path
}

// Reason is the message and the option it comes from (when it is known),
// and the output after it: what both eval and switch print after the
// file.
func (p Problem) Reason() string {
	s := p.Message
	if p.Option != "" {
		s += " (from " + p.Option + ")"
	}
	if p.Output != "" {
		s += ":\n" + p.Output
	}
	return s
}

// String is the problem as eval and switch print it:
// "/etc/FILE:LINE: MESSAGE (from OPTION)", and the output of a program
// below.
func (p Problem) String() string { return p.Where() + ": " + p.Reason() }

// Owners tells which users and groups exist on the target system, or are
// created by the profile's sysusers.d files.
type Owners interface {
	KnownUser(name string) bool
	KnownGroup(name string) bool
}

// Files applies every rule that needs no program to the files of a
// profile: unit names, sysusers.d and tmpfiles.d lines. owners is the
// target system's (see Owners); nil where it is not known (eval, build),
// which leaves out the rule that the owners of tmpfiles.d lines exist.
// The problems come by file, in the order of files, then by line.
func Files(files []File, owners Owners) []Problem {
	var out []Problem
	for _, f := range files {
		out = append(out, UnitNames(f)...)
		if f.Link != "" {
			continue
		}
		switch {
		case isConf(f.Path, "sysusers.d/"):
			out = append(out, Sysusers(f)...)
		case isConf(f.Path, "tmpfiles.d/"):
			out = append(out, Tmpfiles(f, owners)...)
		}
	}
	return out
}

// isConf tells whether path is a configuration file that systemd reads
// from the directory dir below /etc ("sysusers.d/"): NAME.conf directly in
// it.
func isConf(path, dir string) bool {
	name, ok := strings.CutPrefix(path, dir)
	return ok && strings.HasSuffix(name, ".conf") && !strings.Contains(name, "/")
}

// IsSysusers tells whether path (below /etc) is a sysusers.d file that
// systemd-sysusers reads.
func IsSysusers(path string) bool { return isConf(path, "sysusers.d/") }

// IsTmpfiles tells whether path (below /etc) is a tmpfiles.d file that
// systemd-tmpfiles reads.
func IsTmpfiles(path string) bool { return isConf(path, "tmpfiles.d/") }

// byLine sorts problems by line, stably.
func byLine(ps []Problem) []Problem {
	slices.SortStableFunc(ps, func(a, b Problem) int { return a.Line - b.Line })
	return ps
}
