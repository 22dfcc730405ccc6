package evalprofile

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/profile"
	"github.com/nodegen/nodegen/unitcheck"
)

// checkStartup adds to p's warnings every unit of p that cannot reach its
// target (unitcheck): a wait loop for something no enabled unit of the
// profile provides, a Requires= of a unit that is nowhere. A profile whose
// evaluation failed (diags has errors) is not written and not checked.
func checkStartup(ev *eval.Evaluator, p *profile.Profile, diags hcl.Diagnostics) hcl.Diagnostics {
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
	up, d := startupProfile(ev, files)
	for _, problem := range unitcheck.Check(up) {
		p.Warnings = append(p.Warnings, problem.String())
	}
	return d
}

var (
	providedPath = options.Path{"systemd", "provided"}
	hostNamePath = options.Path{"networking", "hostName"}
	fqdnPath     = options.Path{"networking", "fqdn"}
)

// startupProfile completes a profile's files with what the evaluation
// says about its units: what each provides (systemd.provided, from the
// units' provides options) and the host's names (networking.hostName and
// networking.fqdn). An evaluation without those options (--bare) has
// none; an error while evaluating what the units provide is returned.
func startupProfile(ev *eval.Evaluator, files []unitcheck.File) (unitcheck.Profile, hcl.Diagnostics) {
	p := unitcheck.Profile{Files: files, Provides: map[string]unitcheck.Provides{}}
	var diags hcl.Diagnostics
	if ev.IsDeclared(providedPath) {
		v, d := ev.Get(providedPath)
		diags = append(diags, d...)
		if !d.HasErrors() && v.IsKnown() && !v.IsNull() && v.CanIterateElements() {
			for k, u := range ctyelems.Attrs(v) {
				p.Provides[k] = unitcheck.Provides{Files: attrStrings(u, "files"), URLs: attrStrings(u, "urls")}
			}
		}
	}
	for _, path := range []options.Path{hostNamePath, fqdnPath} {
		if !ev.IsDeclared(path) {
			continue
		}
		// A host name that does not evaluate is reported where it is
		// used (/etc/hostname); here it is only not known.
		if v, d := ev.Get(path); !d.HasErrors() && v.IsKnown() && !v.IsNull() && v.Type() == cty.String {
			p.HostNames = append(p.HostNames, v.AsString())
		}
	}
	return p, diags
}

// attrStrings returns the known strings of the list attribute name of
// the object v.
func attrStrings(v cty.Value, name string) []string {
	if !v.IsKnown() || v.IsNull() || !v.Type().IsObjectType() || !ctyelems.HasAttr(v.Type(), name) {
		return nil
	}
	return stringList(v.GetAttr(name))
}
