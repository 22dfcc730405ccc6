package unitcheck

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/options"
)

var (
	providedPath = options.Path{"systemd", "provided"}
	hostNamePath = options.Path{"networking", "hostName"}
	fqdnPath     = options.Path{"networking", "fqdn"}
)

// FromEvaluation completes a profile's files with what the evaluation
// says about its units: what each provides (systemd.provided, from the
// units' provides options) and the host's names (networking.hostName and
// networking.fqdn). An evaluation without those options (--bare) has
// none; an error while evaluating what the units provide is returned.
func FromEvaluation(ev *eval.Evaluator, files []File) (Profile, hcl.Diagnostics) {
	p := Profile{Files: files, Provides: map[string]Provides{}}
	var diags hcl.Diagnostics
	if ev.IsDeclared(providedPath) {
		v, d := ev.Get(providedPath)
		diags = append(diags, d...)
		if !d.HasErrors() && v.IsKnown() && !v.IsNull() && v.CanIterateElements() {
			for k, u := range ctyelems.Attrs(v) {
				p.Provides[k] = Provides{Files: stringList(u, "files"), URLs: stringList(u, "urls")}
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

// stringList returns the known strings of a list attribute.
func stringList(v cty.Value, name string) []string {
	if !v.IsKnown() || v.IsNull() || !v.Type().IsObjectType() || !v.Type().HasAttribute(name) {
		return nil
	}
	l := v.GetAttr(name)
	if !l.IsKnown() || l.IsNull() || !l.CanIterateElements() {
		return nil
	}
	var out []string
	for _, s := range ctyelems.Elems(l) {
		if s.IsKnown() && !s.IsNull() && s.Type() == cty.String {
			out = append(out, s.AsString())
		}
	}
	return out
}
