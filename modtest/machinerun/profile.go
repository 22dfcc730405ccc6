//go:build linux

package machinerun

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/evalprofile"
	"github.com/nodegen/nodegen/modtest"
	"github.com/nodegen/nodegen/profile"
	"github.com/nodegen/nodegen/profilecheck"
)

// built is the profile of a machine block or of a configuration block:
// its directory on the host, or why it could not be built.
type built struct {
	// Dir holds the profile; "" when Diags has errors.
	Dir   string
	Diags hcl.Diagnostics
	Files map[string]*hcl.File
	// Notes are what the checks of the files said without failing
	// (a check whose program this host lacks).
	Notes []string
}

// networkModule is what the driver adds to every machine's
// configuration, as a provider's network and DHCP would give it: its host
// name, at the priority of mkDefault, every machine of the run by name in
// /etc/hosts (networking.hosts), and the run's package proxy
// (environment.packageProxy, mkDefault), as a provider's mirror.
func networkModule(self string, addrs map[string]string) string {
	var b strings.Builder
	b.WriteString("config \"networking\" {\n")
	fmt.Fprintf(&b, "  hostName = mkDefault(%q)\n", self)
	b.WriteString("  hosts = {\n")
	names := make([]string, 0, len(addrs))
	for n := range addrs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "    %q = [%q]\n", addrs[n], n)
	}
	b.WriteString("  }\n}\n")
	fmt.Fprintf(&b, "config \"environment\" {\n  packageProxy = mkDefault(%q)\n}\n", "http://"+packageProxy)
	return b.String()
}

// buildProfile evaluates body (a machine or configuration block of f)
// with the library and the driver's network module for the machine self,
// and writes its profile into dir, running the checks of its files.
func buildProfile(lib fs.FS, checks profilecheck.Mode, f *modtest.File, body *hclsyntax.Body, self string, addrs map[string]string, dir string) *built {
	out := &built{Files: map[string]*hcl.File{f.Path: f.HCL}}
	netName := fmt.Sprintf("%s (machine %s: the driver's network)", f.Path, self)
	netFile, diags := hclsyntax.ParseConfig([]byte(networkModule(self, addrs)), netName, hcl.InitialPos)
	if diags.HasErrors() {
		out.Diags = diags
		return out
	}
	out.Files[netName] = netFile
	ev, diags := eval.New(eval.Config{
		Library: lib,
		Inline: []eval.InlineModule{
			{Path: f.Path, File: f.HCL, Body: body},
			{Path: f.Path, File: netFile, Body: netFile.Body.(*hclsyntax.Body)},
		},
	})
	for name, file := range ev.Files() {
		out.Files[name] = file
	}
	if diags.HasErrors() {
		out.Diags = errorsOnly(diags)
		return out
	}
	p, diags := evalprofile.Build(ev)
	if diags.HasErrors() {
		out.Diags = errorsOnly(diags)
		return out
	}
	notes, diags := evalprofile.RunChecks(ev, p.Entries, checks)
	out.Notes = notes
	if diags.HasErrors() {
		out.Diags = errorsOnly(diags)
		return out
	}
	for name, file := range ev.Files() {
		out.Files[name] = file
	}
	if err := profile.Write(dir, p); err != nil {
		out.Diags = hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot write the profile",
			Detail:   fmt.Sprintf("Writing the profile of %s to %s: %s.", self, filepath.Base(dir), err),
			Subject:  body.SrcRange.Ptr(),
		}}
		return out
	}
	out.Dir = dir
	return out
}

func errorsOnly(diags hcl.Diagnostics) hcl.Diagnostics {
	var out hcl.Diagnostics
	for _, d := range eval.Dedupe(diags) {
		if d.Severity == hcl.DiagError {
			out = append(out, d)
		}
	}
	return out
}

// diagText renders diagnostics as plain lines for a step's detail.
func diagText(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(d.Error())
		b.WriteString("\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
