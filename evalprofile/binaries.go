package evalprofile

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/assetfetch"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/profile"
)

var (
	assetsPath   = options.Path{"environment", "assets"}
	mirrorsPath  = options.Path{"environment", "assetMirrors"}
	packagesPath = options.Path{"environment", "packages"}
	imagePath    = options.Path{"environment", "providedByImage"}
	basePath     = options.Path{"environment", "basePrograms"}
	proxyPath    = options.Path{"environment", "packageProxy"}
)

// packageProxy returns environment.packageProxy, "" when it is null or
// not declared (--bare).
func packageProxy(ev *eval.Evaluator) (string, hcl.Diagnostics) {
	if !ev.IsDeclared(proxyPath) {
		return "", nil
	}
	v, diags := ev.Get(proxyPath)
	if diags.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return "", diags
	}
	return v.AsString(), diags
}

// Assets returns the enabled assets of an evaluated configuration
// (environment.assets), sorted by name, each with the URL it is
// downloaded from when environment.assetMirrors rewrites its url (Mirror).
// Unlike Build, it checks nothing else: an asset without a hash has
// neither SHA256 nor SHA512, which is what `nodegen lock` looks for.
func Assets(ev *eval.Evaluator) ([]profile.Asset, hcl.Diagnostics) {
	assets, _, _, _, diags := binariesFromEvaluation(ev)
	return assets, diags
}

// binariesFromEvaluation collects the assets and packages of an evaluated
// configuration (environment.assets, environment.packages), the paths of
// executables that packages and the base system provide
// (environment.basePrograms), and those left to the image
// (environment.providedByImage). An evaluation without those options
// (--bare) has none.
func binariesFromEvaluation(ev *eval.Evaluator) (assets []profile.Asset, packages []profile.Package, provided, image []string, diags hcl.Diagnostics) {
	get := func(p options.Path) cty.Value {
		if !ev.IsDeclared(p) {
			return cty.NilVal
		}
		// Disabled entries are skipped below: their options need not be set.
		v, d := ev.GetPartial(p)
		diags = append(diags, d...)
		if d.HasErrors() || !v.IsKnown() || v.IsNull() {
			return cty.NilVal
		}
		return v
	}
	mirrors := map[string]string{}
	if v := get(mirrorsPath); v != cty.NilVal && v.Type().IsObjectType() {
		for _, prefix := range sortedAttrs(v) {
			if m, ok := optStr(v, prefix); ok {
				mirrors[prefix] = m
			}
		}
	}
	if v := get(assetsPath); v != cty.NilVal && v.Type().IsObjectType() {
		for _, name := range sortedAttrs(v) {
			a := v.GetAttr(name)
			if !enabled(a) {
				continue
			}
			if !ctyelems.HasAttr(a.Type(), "url") {
				// An enabled asset needs its url: reading it says so.
				_, d := ev.Get(assetsPath.Child(name).Child("url"))
				diags = append(diags, d...)
				continue
			}
			asset := profile.Asset{Name: name, URL: strAttr(a, "url"), Option: assetsPath.Child(name).String()}
			asset.SHA256, _ = optStr(a, "sha256")
			asset.SHA512, _ = optStr(a, "sha512")
			if m := assetfetch.Rewrite(asset.URL, mirrors); m != asset.URL {
				asset.Mirror = m
			}
			asset.Archive, _ = optStr(a, "archive")
			if exe, ok := optStr(a, "executable"); ok {
				asset.Files = append(asset.Files, profile.AssetFile{Path: exe})
			}
			if files := attr(a, "files"); files.IsKnown() && !files.IsNull() && files.Type().IsObjectType() {
				for _, dst := range sortedAttrs(files) {
					member, _ := optStr(files, dst)
					asset.Files = append(asset.Files, profile.AssetFile{Path: dst, Member: member})
				}
			}
			assets = append(assets, asset)
		}
	}
	if v := get(packagesPath); v != cty.NilVal && v.Type().IsObjectType() {
		for _, name := range sortedAttrs(v) {
			p := v.GetAttr(name)
			if !enabled(p) {
				continue
			}
			packages = append(packages, profile.Package{Name: name, Option: packagesPath.Child(name).String()})
			provided = append(provided, stringList(attr(p, "provides"))...)
		}
	}
	if v := get(basePath); v != cty.NilVal {
		provided = append(provided, stringList(v)...)
	}
	if v := get(imagePath); v != cty.NilVal {
		image = stringList(v)
	}
	return assets, packages, provided, image, diags
}

// sortedAttrs returns the attribute names of the object v, sorted.
func sortedAttrs(v cty.Value) []string {
	names := make([]string, 0, len(v.Type().AttributeTypes()))
	for n := range v.Type().AttributeTypes() {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// stringList reads a list (or tuple) of strings.
func stringList(v cty.Value) []string {
	if !v.IsKnown() || v.IsNull() || !v.CanIterateElements() {
		return nil
	}
	var out []string
	for _, e := range ctyelems.Elems(v) {
		if e.IsKnown() && !e.IsNull() && e.Type() == cty.String {
			out = append(out, e.AsString())
		}
	}
	return out
}

// enabled reports whether an asset or package is part of the profile:
// its enable option's value, or true in a library whose submodule has
// none.
func enabled(v cty.Value) bool {
	if !v.IsKnown() || v.IsNull() || !ctyelems.HasAttr(v.Type(), "enable") {
		return v.IsKnown() && !v.IsNull()
	}
	return boolAttr(v, "enable")
}
