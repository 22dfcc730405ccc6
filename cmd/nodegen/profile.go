package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/profile"
)

type ctyValue = cty.Value

// writeProfile checks the configuration and writes its system profile to
// dir, atomically: on any error the previous profile stays as it was.
func writeProfile(ev *eval.Evaluator, dir string, st *runStats, stdout, stderr io.Writer) int {
	p, ok := buildProfile(ev, st, stderr)
	defer st.mark("write")
	if !ok {
		return exitError
	}
	if err := profile.Write(dir, p); err != nil {
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

// buildProfile evaluates the profile and prints its warnings and errors;
// ok is false when there were errors.
func buildProfile(ev *eval.Evaluator, st *runStats, stderr io.Writer) (p profile.Profile, ok bool) {
	p, diags := profile.Build(ev)
	st.mark("evaluate")
	for _, w := range p.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	if diags.HasErrors() {
		printDiags(stderr, ev.Files(), diags)
		return p, false
	}
	return p, true
}
