package evalprofile

import (
	"fmt"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/internal/regularfile"
	"github.com/nodegen/nodegen/lib"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/profile"
	"github.com/nodegen/nodegen/profilecheck"
)

var etcPath = options.Path{"environment", "etc"}

// Build evaluates what a host's profile needs: its environment.etc files
// (FromEvaluation), its binaries (environment.assets and
// environment.packages), then the assertions and warnings, and checks that
// every executable its units and scripts run is provided (the executables
// check, profilecheck.Executables) and that every unit can reach its
// target (the startup check, profilecheck.Startup, when the evaluation
// has no error). What they find is a warning of the profile (kept in its
// manifest) and a warning diagnostic located at the definitions of the
// option that made the file (see checkWarnings). Options that none of
// this needs are not evaluated.
func Build(ev *eval.Evaluator) (profile.Profile, hcl.Diagnostics) {
	return BuildFor(ev, nil)
}

// BuildFor is Build for a write begun beforehand (see Begin): as soon as
// the entries are evaluated without error, it gives them to w, which
// builds their tree while the checks that follow run. w may be nil.
//
// An evaluation that left unused library modules out (eval.Config.Reads)
// and meets an error is built again with every module (eval's Whole), so
// that its diagnostics are those of the whole library.
func BuildFor(ev *eval.Evaluator, w *profile.Pending) (profile.Profile, hcl.Diagnostics) {
	p, diags := buildFor(ev, w)
	if diags.HasErrors() {
		if whole := ev.Whole(); whole != ev {
			return buildFor(whole, nil)
		}
	}
	return p, diags
}

// Reads are the options Build reads, besides the assertions and
// warnings: the eval.Config.Reads of an evaluation made to build a
// profile, which may then leave out the library modules nothing reads.
func Reads() []options.Path {
	return []options.Path{etcPath, assetsPath, mirrorsPath, packagesPath, imagePath, basePath, proxyPath, providedPath, hostNamePath, fqdnPath}
}

// buildFor is BuildFor for one evaluation.
func buildFor(ev *eval.Evaluator, w *profile.Pending) (profile.Profile, hcl.Diagnostics) {
	entries, diags := FromEvaluation(ev)
	if w != nil && !diags.HasErrors() {
		w.Entries(entries)
	}
	assets, packages, provided, image, d := binariesFromEvaluation(ev)
	diags = append(diags, d...)
	proxy, d := packageProxy(ev)
	diags = append(diags, d...)
	warns, d := ev.Assertions()
	diags = append(diags, d...)
	files := checkedFiles(entries)
	provided = slices.Concat(assetFiles(assets), provided)
	p := profile.Profile{Entries: entries, Assets: assets, Packages: packages, PackageProxy: proxy,
		ImagePrograms: imagePrograms(profilecheck.ImagePrograms(files, provided, image))}
	for _, w := range warns {
		p.Warnings = append(p.Warnings, w.Message)
	}
	diags = append(diags, checkWarnings(ev, &p, files, slices.Concat(provided, image), diags)...)
	// The queries above reach the same failed definitions, each reporting
	// them: report each once.
	return p, eval.Dedupe(diags)
}

// FromEvaluation collects the entries of an evaluated configuration: every
// enabled environment.etc file, checked by the rules of package
// profilecheck that need no program (checkFiles). A `source` that is not a symlink's target
// is read: relative to the module that defines it, or from the host when
// absolute. An evaluation without environment.etc (--bare) has no entries.
func FromEvaluation(ev *eval.Evaluator) ([]profile.Entry, hcl.Diagnostics) {
	if !ev.IsDeclared(etcPath) {
		return nil, nil
	}
	etc, diags := ev.Get(etcPath)
	if diags.HasErrors() {
		return nil, diags
	}
	if !etc.IsKnown() || etc.IsNull() || !etc.Type().IsObjectType() {
		return nil, diags
	}
	var entries []profile.Entry
	for _, name := range sortedAttrs(etc) {
		f := etc.GetAttr(name)
		if !boolAttr(f, "enable") {
			continue
		}
		opt := etcPath.Child(name)
		e := profile.Entry{
			Target: strAttr(f, "target"),
			Mode:   strAttr(f, "mode"),
			User:   strAttr(f, "user"),
			Group:  strAttr(f, "group"),
			Option: opt.String(),
		}
		if origin, ok := optStr(f, "origin"); ok {
			e.Option = origin
		}
		e.Checks = programChecks(f)
		text, hasText := optStr(f, "text")
		source, hasSource := optStr(f, "source")
		switch {
		case e.Mode == "symlink":
			e.Link = source
		case hasText:
			e.Content = []byte(text)
		case hasSource && path.IsAbs(source):
			b, err := readHostSource(source, ev.Limits().FileBytes)
			if err != nil {
				diags = append(diags, sourceDiag(ev, opt, fmt.Errorf("%s: %w", source, lib.FileLimitCause(err))))
				continue
			}
			e.Content = b
		case hasSource:
			rng, ok := sourceDefinition(ev, opt)
			if !ok {
				// The source did not evaluate: reading it says why.
				_, d := ev.Get(opt.Child("source"))
				if !d.HasErrors() {
					d = append(d, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read the source of " + opt.String(),
						Detail: fmt.Sprintf("%s is relative, and no module defines it to read it beside.", source)})
				}
				diags = append(diags, d...)
				continue
			}
			b, err := ev.ReadModuleFile(rng, source)
			if err != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Cannot read the source of " + opt.String(),
					Detail:   err.Error() + ".",
					Subject:  rng.Ptr(),
				})
				continue
			}
			e.Content = b
		}
		entries = append(entries, e)
	}
	return entries, append(diags, checkFiles(ev, entries)...)
}

// hostFS is the host's file system, from which absolute sources are read.
var hostFS = os.DirFS("/")

// readHostSource reads an absolute source from the host: a regular file
// of at most max bytes (regularfile.Read), never a device, FIFO or socket,
// nor a file of /proc or /sys whose contents the kernel makes up as it is
// read.
func readHostSource(abs string, max int64) ([]byte, error) {
	name := strings.TrimPrefix(path.Clean(abs), "/")
	if name == "" {
		name = "."
	}
	return regularfile.Read(hostFS, name, max)
}

func sourceDiag(ev *eval.Evaluator, opt options.Path, err error) *hcl.Diagnostic {
	d := &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Cannot read the source of " + opt.String(),
		Detail:   fmt.Sprintf("%s.", err),
	}
	if rng, ok := sourceDefinition(ev, opt); ok {
		d.Subject = rng.Ptr()
	}
	return d
}

// sourceDefinition is where the source of the environment.etc entry opt
// is defined: the last definition that won (the one whose module a
// relative source is read beside), the user's when there is one.
func sourceDefinition(ev *eval.Evaluator, opt options.Path) (hcl.Range, bool) {
	defs := ev.Definitions(opt.Child("source"))
	if len(defs) == 0 {
		return hcl.Range{}, false
	}
	last := defs[len(defs)-1]
	for _, d := range defs {
		if d.Origin == eval.UserFile {
			last = d
		}
	}
	return last.Range, true
}

// programChecks reads the checks of an environment.etc entry.
func programChecks(f cty.Value) []profilecheck.ProgramCheck {
	l := attr(f, "checks")
	if !l.IsKnown() || l.IsNull() || !l.CanIterateElements() {
		return nil
	}
	var checks []profilecheck.ProgramCheck
	for it := l.ElementIterator(); it.Next(); {
		_, c := it.Element()
		pc := profilecheck.ProgramCheck{Script: strAttr(c, "script"), Root: boolAttr(c, "root")}
		if ps := attr(c, "programs"); ps.IsKnown() && !ps.IsNull() && ps.CanIterateElements() {
			for pit := ps.ElementIterator(); pit.Next(); {
				if _, p := pit.Element(); p.IsKnown() && !p.IsNull() && p.Type() == cty.String {
					pc.Programs = append(pc.Programs, p.AsString())
				}
			}
		}
		checks = append(checks, pc)
	}
	return checks
}

// attr is v's attribute name, or a null when v is not a known object with
// it: a library of a user's own may declare a submodule with fewer
// options than the built-in one, and a profile is then built from what
// it has.
func attr(v cty.Value, name string) cty.Value {
	if !v.IsKnown() || v.IsNull() || !ctyelems.HasAttr(v.Type(), name) {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	return v.GetAttr(name)
}

func boolAttr(v cty.Value, name string) bool {
	a := attr(v, name)
	return a.IsKnown() && !a.IsNull() && a.Type() == cty.Bool && a.True()
}

func strAttr(v cty.Value, name string) string {
	s, _ := optStr(v, name)
	return s
}

func optStr(v cty.Value, name string) (string, bool) {
	a := attr(v, name)
	if !a.IsKnown() || a.IsNull() || a.Type() != cty.String {
		return "", false
	}
	return a.AsString(), true
}
