package evalprofile

import (
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/profile"
	"github.com/nodegen/nodegen/profilecheck"
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
		diags = append(diags, problemDiag(ev, p, hcl.DiagError))
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
		diags = append(diags, problemDiag(ev, p, hcl.DiagError))
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

// ProfileWarning is the Extra of a warning diagnostic of Build that
// locates one of the profile's warnings (profile.Profile.Warnings): that
// warning, as the profile holds it.
type ProfileWarning string

// LocatedWarning returns the warning diagnostic of diags (Build's) that
// locates w, a warning of the profile that a check found, at the
// definition it is to be fixed at (its Extra is ProfileWarning(w)), or
// nil for a warning Build did not locate (an assertion's warning).
func LocatedWarning(w string, diags hcl.Diagnostics) *hcl.Diagnostic {
	for _, d := range diags {
		if pw, ok := d.Extra.(ProfileWarning); ok && d.Severity == hcl.DiagWarning && string(pw) == w {
			return d
		}
	}
	return nil
}

// problemDiag is a problem of the profile as a diagnostic of severity
// sev (an error, or a warning for the executables and startup checks) at
// the definitions of the option its file comes from (see locate), with
// the message nodegen switch prints.
func problemDiag(ev *eval.Evaluator, p profilecheck.Problem, sev hcl.DiagnosticSeverity) *hcl.Diagnostic {
	d := &hcl.Diagnostic{Severity: sev, Summary: p.Summary, Detail: p.String()}
	if p.Output == "" {
		d.Detail += "."
	}
	defs := locate(ev, p)
	if len(defs) == 0 {
		return d
	}
	d.Subject = defs[0].Range.Ptr()
	if len(defs) > 1 {
		var others []string
		for _, def := range defs[1:] {
			others = append(others, options.ShowPos(def.Range))
		}
		d.Detail += "\n" + p.Option + " is also defined at " + strings.Join(others, ", ") + "."
	}
	return d
}

// locate finds where a problem is to be fixed, by one query of the
// definitions of an option (eval.Definitions): those of the option the
// file comes from that won, the user's first; only the user's, when
// there are any. A problem on a line of a file that the user wrote as
// environment.etc."NAME".text is at that text, one about the whole file
// at the entry; one whose option names a namespace (services.chrony) at
// the user's definitions of the options in it. When the option has no
// definition (an origin that names no option), it is the definition of
// the entry, or of the file's text.
func locate(ev *eval.Evaluator, p profilecheck.Problem) []eval.Definition {
	entry := etcPath.Child(p.Path)
	var defs []eval.Definition
	if op, err := options.ParsePath(p.Option); err == nil && !slices.Equal(op, entry) {
		defs = ev.Definitions(op)
	}
	if len(defs) == 0 && p.Line > 0 {
		defs = ev.Definitions(entry.Child("text"))
	}
	if len(defs) == 0 {
		defs = ev.Definitions(entry)
	}
	if len(defs) == 0 {
		defs = ev.Definitions(entry.Child("text"))
	}
	var user []eval.Definition
	for _, d := range defs {
		if d.Origin == eval.UserFile {
			user = append(user, d)
		}
	}
	if len(user) > 0 {
		return user
	}
	return defs
}
