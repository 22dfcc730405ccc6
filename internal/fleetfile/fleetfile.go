// Package fleetfile reads a fleet file: the list of the host files that
// are evaluated together, so that their modules read each other's
// configuration (hosts.NAME.config.PATH; see eval.Hosts).
//
// A fleet file is HCL with one attribute:
//
//	hosts = ["master01.hcl", "worker01.hcl", "workers/worker02.hcl"]
//
// Each path is relative to the fleet file's directory; the host's name is
// the file's base name without .hcl, as nodegen build names profiles.
package fleetfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// maxBytes bounds the size of a fleet file.
const maxBytes = 4 << 20

// Host is one host of a fleet.
type Host struct {
	// Name is the host's name: File's base name without .hcl.
	Name string
	// File is the host file's path, joined to the fleet file's directory.
	File string
}

// Load reads the fleet file at path. Errors are located diagnostics.
func Load(path string) ([]Host, hcl.Diagnostics) {
	info, err := os.Stat(path)
	if err == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("not a regular file")
	}
	if err == nil && info.Size() > maxBytes {
		err = fmt.Errorf("larger than %d bytes", maxBytes)
	}
	var src []byte
	if err == nil {
		src, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read the fleet file", Detail: fmt.Sprintf("%s: %s.", path, err)}}
	}
	return Parse(path, src)
}

// Parse reads the fleet file src, read from path.
func Parse(path string, src []byte) ([]Host, hcl.Diagnostics) {
	f, diags := hclsyntax.ParseConfig(src, path, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diags
	}
	body := f.Body.(*hclsyntax.Body)
	for _, b := range body.Blocks {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unexpected block", Detail: fmt.Sprintf("A fleet file has one attribute, hosts (a list of host files), and no %s block.", b.Type), Subject: b.DefRange().Ptr()}}
	}
	var attr *hclsyntax.Attribute
	for name, a := range body.Attributes {
		if name != "hosts" {
			return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unsupported attribute", Detail: fmt.Sprintf("A fleet file has one attribute, hosts (a list of host files), not %s.", name), Subject: a.NameRange.Ptr()}}
		}
		attr = a
	}
	if attr == nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Missing hosts", Detail: "A fleet file lists its host files: hosts = [\"master01.hcl\", \"worker01.hcl\"].", Subject: body.SrcRange.Ptr()}}
	}
	v, diags := attr.Expr.Value(nil)
	if diags.HasErrors() {
		return nil, diags
	}
	notList := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid hosts", Detail: "hosts is a list of host files, as strings: hosts = [\"master01.hcl\", \"worker01.hcl\"].", Subject: attr.Expr.Range().Ptr()}
	if !v.IsKnown() || v.IsNull() || !(v.Type().IsTupleType() || v.Type().IsListType()) {
		return nil, hcl.Diagnostics{notList}
	}
	dir := filepath.Dir(path)
	var hosts []Host
	seen := map[string]string{}
	elems := v.AsValueSlice()
	for i, e := range elems {
		rng := attr.Expr.Range()
		if t, ok := attr.Expr.(*hclsyntax.TupleConsExpr); ok && i < len(t.Exprs) {
			rng = t.Exprs[i].Range()
		}
		if e.IsNull() || !e.IsKnown() || e.Type() != cty.String || e.AsString() == "" {
			return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid host file", Detail: "Each host is the path of its host file, a string.", Subject: rng.Ptr()}}
		}
		file := e.AsString()
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		name := strings.TrimSuffix(filepath.Base(file), ".hcl")
		if name == "" || name == "." || name == ".." || strings.HasPrefix(name, ".") {
			return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid host file", Detail: fmt.Sprintf("%s: a host file needs a name that can be a directory (NAME.hcl, NAME not starting with a dot).", e.AsString()), Subject: rng.Ptr()}}
		}
		if prev, dup := seen[name]; dup {
			return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Duplicate host", Detail: fmt.Sprintf("%s and %s are both host %q: each host needs a file name of its own.", prev, e.AsString(), name), Subject: rng.Ptr()}}
		}
		seen[name] = e.AsString()
		hosts = append(hosts, Host{Name: name, File: file})
	}
	if len(hosts) == 0 {
		return nil, hcl.Diagnostics{notList}
	}
	return hosts, nil
}
