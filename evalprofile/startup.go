package evalprofile

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/profile"
	"github.com/nodegen/nodegen/profilecheck"
)

// checkWarnings applies to the files of p the rules of package
// profilecheck whose problems are warnings: the executables check
// (profilecheck.Executables, against provided) and, when the evaluation
// has no error (diags), the startup check (profilecheck.Startup, with
// what the evaluation says about the units: startupFacts). Each problem
// is a warning of p, as the manifest keeps it (Problem.String), and a
// warning diagnostic located at the definitions of the option that made
// its file, as eval, build and switch print it (problemDiag). It returns
// those diagnostics, and the errors of evaluating the facts.
func checkWarnings(ev *eval.Evaluator, p *profile.Profile, files []profilecheck.File, provided []string, diags hcl.Diagnostics) hcl.Diagnostics {
	problems := profilecheck.Executables(files, provided)
	var out hcl.Diagnostics
	if !diags.HasErrors() {
		facts, d := startupFacts(ev)
		out = append(out, d...)
		problems = append(problems, profilecheck.Startup(files, facts)...)
	}
	for _, problem := range problems {
		w := problem.String()
		p.Warnings = append(p.Warnings, w)
		d := problemDiag(ev, problem, hcl.DiagWarning)
		d.Extra = ProfileWarning(w)
		out = append(out, d)
	}
	return out
}

var (
	providedPath = options.Path{"systemd", "provided"}
	hostNamePath = options.Path{"networking", "hostName"}
	fqdnPath     = options.Path{"networking", "fqdn"}
)

// startupFacts are what the evaluation says about the units of a profile:
// what each provides (systemd.provided, from the units' provides options)
// and the host's names (networking.hostName and networking.fqdn). An
// evaluation without those options (--bare) has none; an error while
// evaluating what the units provide is returned.
func startupFacts(ev *eval.Evaluator) (profilecheck.Facts, hcl.Diagnostics) {
	facts := profilecheck.Facts{Provides: map[string]profilecheck.Provides{}}
	var diags hcl.Diagnostics
	if ev.IsDeclared(providedPath) {
		v, d := ev.Get(providedPath)
		diags = append(diags, d...)
		if !d.HasErrors() && v.IsKnown() && !v.IsNull() && v.CanIterateElements() {
			for k, u := range ctyelems.Attrs(v) {
				facts.Provides[k] = profilecheck.Provides{Files: attrStrings(u, "files"), URLs: attrStrings(u, "urls")}
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
			facts.HostNames = append(facts.HostNames, v.AsString())
		}
	}
	return facts, diags
}

// attrStrings returns the known strings of the list attribute name of
// the object v.
func attrStrings(v cty.Value, name string) []string {
	if !v.IsKnown() || v.IsNull() || !v.Type().IsObjectType() || !ctyelems.HasAttr(v.Type(), name) {
		return nil
	}
	return stringList(v.GetAttr(name))
}

// assetFiles are the paths of the files the assets install.
func assetFiles(assets []profile.Asset) []string {
	var out []string
	for _, a := range assets {
		for _, f := range a.Files {
			out = append(out, f.Path)
		}
	}
	return out
}

// imagePrograms are the programs a profile leaves to the image, as its
// manifest records them.
func imagePrograms(ps []profilecheck.ImageProgram) []profile.ImageProgram {
	out := make([]profile.ImageProgram, len(ps))
	for i, p := range ps {
		out[i] = profile.ImageProgram{Path: p.Path, Option: profile.OrUnnamed(p.Option)}
	}
	return out
}
