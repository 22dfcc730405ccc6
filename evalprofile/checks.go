package evalprofile

import (
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/profile"
	"github.com/nodegen/nodegen/profilecheck"
	"github.com/nodegen/nodegen/property"
)

// RunChecks runs the checks of the entries of an evaluation (ev) by the
// programs that read them (profilecheck.Programs). A check that fails is
// an error located at the definitions of the option the file comes from,
// the user's first; one that cannot run (its program missing, or root
// needed) is a note in profilecheck.Auto, an error in
// profilecheck.Required.
func RunChecks(ev *eval.Evaluator, entries []profile.Entry, mode profilecheck.Mode) (notes []string, diags hcl.Diagnostics) {
	problems, missing := profilecheck.Programs(checkedFiles(entries), mode)
	for _, n := range missing {
		notes = append(notes, n.String()+"; --checks=required makes this an error")
	}
	for _, p := range problems {
		diags = append(diags, problemDiag(ev, p))
	}
	return notes, diags
}

// checkFiles applies the rules of package profilecheck that need no
// program to the entries of an evaluation: the same rules nodegen switch
// applies before anything changes, but for the owners of tmpfiles.d
// lines, which only the target system knows. Each problem is an error
// located at the definitions of the option its file comes from.
func checkFiles(ev *eval.Evaluator, entries []profile.Entry) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, p := range profilecheck.Files(checkedFiles(entries), nil) {
		diags = append(diags, problemDiag(ev, p))
	}
	return diags
}

// checkedFiles are the entries as the rules of package profilecheck see
// them.
func checkedFiles(entries []profile.Entry) []profilecheck.File {
	files := make([]profilecheck.File, 0, len(entries))
	for _, e := range entries {
		f := profilecheck.File{Path: e.Target, Content: e.Content, Option: e.Option, Checks: e.Checks}
		if e.Mode == profile.TypeSymlink {
			f.Link = e.Link
		}
		files = append(files, f)
	}
	return files
}

// problemDiag is a problem of the profile as an error at the definitions
// of the option its file comes from (see checkDiag), with the message
// nodegen switch prints.
func problemDiag(ev *eval.Evaluator, p profilecheck.Problem) *hcl.Diagnostic {
	detail := p.String()
	if p.Output == "" {
		detail += "."
	}
	return checkDiag(ev, p.Option, p.Path, p.Summary, detail)
}

// checkDiag is an error about the checks of e, at the definitions of the
// option it comes from that won, the user's first (those after the first
// are named in the detail). When that option is a namespace rather than
// an option (services.chrony), it is at the user's definitions of the
// options in it, else at the definition of the file's text.
func checkDiag(ev *eval.Evaluator, option, target, summary, detail string) *hcl.Diagnostic {
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
	user, lib := wonDefinitions(ev, option)
	if len(user)+len(lib) == 0 {
		if p, err := options.ParsePath(option); err == nil {
			user = userDefinitionsIn(ev, p, 3)
		}
	}
	if len(user)+len(lib) == 0 {
		user, lib = wonDefinitions(ev, etcPath.Child(target).Child("text").String())
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
		d.Detail += "\n" + option + " is also defined at " + strings.Join(others, ", ") + "."
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
