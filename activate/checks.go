package activate

import (
	"fmt"
	"strings"

	"github.com/nodegen/nodegen/profile"
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
// manifest is m, by the programs that read them (profile.ProgramCheck),
// before anything changes. Each must run and pass; with dryRun, one whose
// program is not installed yet (the switch would install it) is only
// logged.
func (s *System) runChecks(dir string, m profile.Manifest, dryRun bool) error {
	var problems []string
	for _, e := range m.Entries {
		if len(e.Checks) == 0 {
			continue
		}
		data, err := profile.ReadEntry(dir, e)
		if err != nil {
			return err
		}
		shown := "/" + e.Path
		for _, c := range e.Checks {
			if why := c.Missing(); why != "" {
				if dryRun {
					s.logf("the check of %s (from %s) cannot run yet: %s", shown, e.Option, why)
					continue
				}
				problems = append(problems, fmt.Sprintf("%s (from %s): the check cannot run: %s", shown, e.Option, why))
				continue
			}
			out, err := c.Run(strings.TrimPrefix(e.Path, "etc/"), data)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s (from %s): %s:\n  %s", shown, e.Option, err,
					strings.ReplaceAll(strings.TrimRight(string(out), "\n"), "\n", "\n  ")))
			}
		}
	}
	if len(problems) > 0 {
		return &CheckError{problems}
	}
	return nil
}
