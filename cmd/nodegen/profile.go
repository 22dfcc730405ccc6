package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/evalprofile"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/profile"
	"github.com/nodegen/nodegen/profilecheck"
)

type ctyValue = cty.Value

// writeProfile checks the configuration and writes its system profile to
// dir with w, the write begun there before the evaluation (profile.Begin),
// atomically: on any error the previous profile stays as it was.
func writeProfile(ev *eval.Evaluator, dir string, w *profile.Pending, st *runStats, checks profilecheck.Mode, stdout, stderr io.Writer) int {
	p, diags := evalprofile.BuildFor(ev, w)
	ok := reportProfile(ev, p, diags, st, stderr) && reportChecks(ev, p, checks, stderr)
	defer st.mark("write")
	if !ok {
		w.Abort()
		return exitError
	}
	if err := w.Commit(p); err != nil {
		fmt.Fprintf(stderr, "nodegen eval: %s\n", err)
		return exitError
	}
	files, links, units := 0, 0, 0
	for _, e := range p.Entries {
		if e.Mode == "symlink" {
			links++
			continue
		}
		files++
		if strings.HasPrefix(e.Target, "systemd/system/") && !strings.Contains(strings.TrimPrefix(e.Target, "systemd/system/"), "/") {
			units++
		}
	}
	fmt.Fprintf(stdout, "wrote %s: %d files (%d units), %d symlinks, %d warnings\n", dir, files, units, links, len(p.Warnings))
	return exitOK
}

// buildProfile evaluates the profile, runs the checks of its files by the
// programs that read them, and prints its warnings and errors; ok is false
// when there were errors.
func buildProfile(ev *eval.Evaluator, st *runStats, checks profilecheck.Mode, stderr io.Writer) (p profile.Profile, ok bool) {
	p, diags := evalprofile.Build(ev)
	return p, reportProfile(ev, p, diags, st, stderr) && reportChecks(ev, p, checks, stderr)
}

// reportChecks runs the checks of p's files by the programs that read
// them (evalprofile.RunChecks) and prints the notes and errors; it returns
// false when a check failed.
func reportChecks(ev *eval.Evaluator, p profile.Profile, mode profilecheck.Mode, stderr io.Writer) bool {
	notes, diags := evalprofile.RunChecks(ev, p.Entries, mode)
	for _, n := range notes {
		fmt.Fprintf(stderr, "note: %s\n", n)
	}
	if diags.HasErrors() {
		printDiags(stderr, ev.Files(), diags)
		return false
	}
	return true
}

// reportProfile marks the end of the evaluation of p and prints its
// warnings and errors; it returns false when there were errors.
func reportProfile(ev *eval.Evaluator, p profile.Profile, diags hcl.Diagnostics, st *runStats, stderr io.Writer) bool {
	st.mark("evaluate")
	for _, w := range profileWarnings(p, diags) {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	if diags.HasErrors() {
		printDiags(stderr, ev.Files(), diags)
		return false
	}
	return true
}

// profileWarnings are p's warnings as eval, build and switch print them:
// one that a check of the profile found (the executables and startup
// checks of package profilecheck) after the position of the definition it
// is to be fixed at, as evalprofile.Build located it (a warning
// diagnostic whose detail is the warning): "FILE:LINE:COL: WARNING"; the
// others (the assertions' warnings) as they are.
func profileWarnings(p profile.Profile, diags hcl.Diagnostics) []string {
	out := make([]string, 0, len(p.Warnings))
	for _, w := range p.Warnings {
		if d := evalprofile.LocatedWarning(w, diags); d != nil && d.Subject != nil {
			w = options.ShowPos(*d.Subject) + ": " + w
		}
		out = append(out, w)
	}
	return out
}
