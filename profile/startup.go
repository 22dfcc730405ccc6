package profile

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/unitcheck"
)

// checkStartup adds to p's warnings every unit of p that cannot reach its
// target (unitcheck): a wait loop for something no enabled unit of the
// profile provides, a Requires= of a unit that is nowhere. A profile whose
// evaluation failed (diags has errors) is not written and not checked.
func checkStartup(ev *eval.Evaluator, p *Profile, diags hcl.Diagnostics) hcl.Diagnostics {
	if diags.HasErrors() {
		return nil
	}
	files := make([]unitcheck.File, 0, len(p.Entries))
	for _, e := range p.Entries {
		f := unitcheck.File{Path: e.Target, Content: e.Content, Option: e.Option}
		if e.Mode == "symlink" {
			f.Link = e.Link
		}
		files = append(files, f)
	}
	up, d := unitcheck.FromEvaluation(ev, files)
	for _, problem := range unitcheck.Check(up) {
		p.Warnings = append(p.Warnings, problem.String())
	}
	return d
}
