package activate

import (
	"strings"

	"github.com/nodegen/nodegen/profile"
	"github.com/nodegen/nodegen/profilecheck"
)

// CheckError is a check stage in which the programs that read the
// profile's files refused some of them (environment.etc.NAME.checks), or
// could not run; nothing was changed.
type CheckError struct {
	// Problems say, for each file, what went wrong: the file, its option,
	// and the program's output.
	Problems []string
}

func (e *CheckError) Error() string {
	return "the programs that read them refuse files of the profile; nothing was changed:\n" + strings.Join(e.Problems, "\n")
}

// runChecks runs the checks of the files of the profile in dir, whose
// manifest is m, by the programs that read them (profilecheck.Programs),
// before anything changes. Each must run and pass; with dryRun, one whose
// program is not installed yet (the switch would install it) is only
// logged.
func (s *System) runChecks(dir string, m profile.Manifest, dryRun bool) error {
	var files []profilecheck.File
	for _, e := range m.Entries {
		if len(e.Checks) == 0 {
			continue
		}
		data, err := profile.ReadEntry(dir, e)
		if err != nil {
			return err
		}
		files = append(files, profilecheck.File{Path: strings.TrimPrefix(e.Path, "etc/"), Content: data, Option: e.Option, Checks: e.Checks})
	}
	mode := profilecheck.Required
	if dryRun {
		mode = profilecheck.Auto
	}
	found, notes := profilecheck.Programs(files, mode)
	for _, n := range notes {
		s.logf("%s (before the switch installs the programs of the profile)", n)
	}
	if len(found) == 0 {
		return nil
	}
	problems := make([]string, len(found))
	for i, p := range found {
		problems[i] = p.String()
	}
	return &CheckError{problems}
}
