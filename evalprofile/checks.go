package evalprofile

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/profile"
	"github.com/nodegen/nodegen/property"
)

// RunChecks runs the checks of the entries of an evaluation (ev) by the
// programs that read them. A check that fails is an error located at the
// definitions of the option the file comes from, the user's first; one
// that cannot run (its program missing, or root needed) is a note in
// ChecksAuto, an error in ChecksRequired.
func RunChecks(ev *eval.Evaluator, entries []profile.Entry, mode profile.CheckMode) (notes []string, diags hcl.Diagnostics) {
	if mode == profile.ChecksOff {
		return nil, nil
	}
	for _, e := range entries {
		for _, c := range e.Checks {
			shown := "/etc/" + e.Target
			if why := c.Missing(); why != "" {
				if mode == profile.ChecksAuto {
					notes = append(notes, fmt.Sprintf("the check of %s (from %s) did not run: %s; --checks=required makes this an error", shown, e.Option, why))
					continue
				}
				diags = append(diags, checkDiag(ev, e, "Check cannot run",
					fmt.Sprintf("The check of %s, from %s, cannot run here: %s (--checks=required).", shown, e.Option, why)))
				continue
			}
			out, err := c.Run(e.Target, e.Content)
			if err == nil {
				continue
			}
			diags = append(diags, checkDiag(ev, e, "Check of a generated file failed",
				fmt.Sprintf("%s, from %s, is refused by the program that reads it (%s):\n\n%s\nThe check:\n%s",
					shown, e.Option, err, indentText(string(out)), strings.TrimSuffix(indentText(c.Script), "\n"))))
		}
	}
	return notes, diags
}

// checkDiag is an error about the checks of e, at the definitions of the
// option it comes from that won, the user's first (those after the first
// are named in the detail). When that option is a namespace rather than
// an option (services.chrony), it is at the user's definitions of the
// options in it, else at the definition of the file's text.
func checkDiag(ev *eval.Evaluator, e profile.Entry, summary, detail string) *hcl.Diagnostic {
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
	user, lib := wonDefinitions(ev, e.Option)
	if len(user)+len(lib) == 0 {
		if p, err := options.ParsePath(e.Option); err == nil {
			user = userDefinitionsIn(ev, p, 3)
		}
	}
	if len(user)+len(lib) == 0 {
		user, lib = wonDefinitions(ev, etcPath.Child(e.Target).Child("text").String())
	}
	ranges := append(user, lib...)
	if len(ranges) == 0 {
		return d
	}
	d.Subject = ranges[0].Ptr()
	if len(user) > 0 {
		ranges = user
	}
	if len(ranges) > 1 {
		var others []string
		for _, r := range ranges[1:] {
			others = append(others, options.ShowPos(r))
		}
		d.Detail += "\n" + e.Option + " is also defined at " + strings.Join(others, ", ") + "."
	}
	return d
}

// wonDefinitions returns where the definitions of the option at path that
// won are: those in the user's files, and those in the library.
func wonDefinitions(ev *eval.Evaluator, path string) (user, lib []hcl.Range) {
	p, err := options.ParsePath(path)
	if err != nil {
		return nil, nil
	}
	x, ds := ev.Explain(p)
	if ds.HasErrors() {
		return nil, nil
	}
	for _, def := range x.Definitions {
		switch {
		case def.State != property.Won:
		case strings.HasPrefix(def.Range.Filename, eval.LibraryPrefix):
			lib = append(lib, def.Range)
		default:
			user = append(user, def.Range)
		}
	}
	return user, lib
}

// userDefinitionsIn returns where the user's winning definitions of the
// options in the namespace p are, depth levels of namespaces down, in
// order of their paths.
func userDefinitionsIn(ev *eval.Evaluator, p options.Path, depth int) []hcl.Range {
	v, diags := ev.Get(p)
	if diags.HasErrors() || depth == 0 || !v.IsKnown() || v.IsNull() || !v.Type().IsObjectType() {
		return nil
	}
	var user []hcl.Range
	for _, n := range sortedAttrs(v) {
		if ev.IsDeclared(p.Child(n)) {
			u, _ := wonDefinitions(ev, p.Child(n).String())
			user = append(user, u...)
			continue
		}
		user = append(user, userDefinitionsIn(ev, p.Child(n), depth-1)...)
	}
	return user
}

// indentText indents each line of s by two spaces, for a detail.
func indentText(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return "  (no output)\n"
	}
	return "  " + strings.ReplaceAll(s, "\n", "\n  ") + "\n"
}
