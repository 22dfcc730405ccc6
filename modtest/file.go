package modtest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/nodegen/nodegen/internal/parsediag"
	"github.com/nodegen/nodegen/options"
)

// File is a parsed test file.
type File struct {
	// Path is the file's name as diagnostics show it: relative to the
	// working directory when the file is below it, else absolute.
	Path string
	HCL  *hcl.File
	Runs []*Run
	// Machines and Configurations are the file's machine and
	// configuration blocks, which its machine runs boot.
	Machines       []*Machine
	Configurations []*Configuration
	// Diags are the file's own errors: syntax errors, unknown top-level
	// items, runs named twice. A file with errors runs nothing.
	Diags hcl.Diagnostics
}

// Run is one run block.
type Run struct {
	Name  string
	Block *hclsyntax.Block
	// Body is the module the run evaluates: its imports, disabled_modules
	// and config blocks.
	Body    *hclsyntax.Body
	Asserts []*Assert
	// ExpectError, when set, is the substring the evaluation's error must
	// contain; ExpectRange is where it is written.
	ExpectError string
	ExpectRange hcl.Range
	// Machines, when not nil, makes the run a machine run: the machine
	// blocks it boots, and MachinesRange where they are named. Steps are
	// what it does with them, in order.
	Machines      []string
	MachinesRange hcl.Range
	Steps         []*Step
	badMachines   bool
	// Diags are errors in the run block itself; a run with errors fails
	// without being evaluated.
	Diags hcl.Diagnostics
}

// Assert is one assert block of a run.
type Assert struct {
	Block        *hclsyntax.Block
	Condition    hclsyntax.Expression
	ErrorMessage hclsyntax.Expression
}

// ParseFile reads and decodes a test file.
func ParseFile(name string) *File {
	src, err := os.ReadFile(name)
	if err != nil {
		return &File{Path: displayPath(name), Diags: hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot read test file",
			Detail:   fmt.Sprintf("%s: %s.", displayPath(name), cleanError(err)),
		}}}
	}
	return Parse(src, displayPath(name))
}

// Parse decodes the source of a test file; filename names it in
// diagnostics and is the file its imports are relative to.
func Parse(src []byte, filename string) *File {
	f := &File{Path: filename}
	file, diags := parsediag.Parse(src, filename)
	f.HCL = file
	if diags.HasErrors() {
		f.Diags = diags
		return f
	}
	body := file.Body.(*hclsyntax.Body)
	for _, name := range sortedAttrNames(body.Attributes) {
		a := body.Attributes[name]
		f.Diags = append(f.Diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsupported argument",
			Detail:   fmt.Sprintf("A test file holds run, machine and configuration blocks only, not the argument %q.", a.Name),
			Subject:  a.NameRange.Ptr(),
		})
	}
	seen := map[string]map[string]hcl.Range{"run": {}, "machine": {}, "configuration": {}}
	for _, b := range body.Blocks {
		names, known := seen[b.Type]
		if !known {
			f.Diags = append(f.Diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported block type",
				Detail:   fmt.Sprintf("A test file holds run, machine and configuration blocks only, not a %q block. Put modules to test in their own files and import them from a run.", b.Type),
				Subject:  b.TypeRange.Ptr(),
			})
			continue
		}
		if len(b.Labels) != 1 {
			f.Diags = append(f.Diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid " + b.Type + " block",
				Detail:   fmt.Sprintf(`A %s block has one label, its name: %s "NAME" { ... }.`, b.Type, b.Type),
				Subject:  b.DefRange().Ptr(),
			})
			continue
		}
		if prev, ok := names[b.Labels[0]]; ok {
			f.Diags = append(f.Diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate " + b.Type + " block",
				Detail:   fmt.Sprintf("A %s named %q is already declared at %s. %s names must be unique within a file.", b.Type, b.Labels[0], options.ShowPos(prev), strings.ToUpper(b.Type[:1])+b.Type[1:]),
				Subject:  b.LabelRanges[0].Ptr(),
			})
			continue
		}
		names[b.Labels[0]] = b.LabelRanges[0]
		switch b.Type {
		case "run":
			f.Runs = append(f.Runs, decodeRun(b))
		case "machine":
			m, d := decodeMachine(b)
			f.Diags = append(f.Diags, d...)
			f.Machines = append(f.Machines, m)
		case "configuration":
			c, d := decodeConfiguration(b)
			f.Diags = append(f.Diags, d...)
			f.Configurations = append(f.Configurations, c)
		}
	}
	f.checkMachineRefs()
	return f
}

// decodeRun splits a run block into the module it evaluates and its checks.
func decodeRun(b *hclsyntax.Block) *Run {
	r := &Run{Name: b.Labels[0], Block: b}
	if _, ok := b.Body.Attributes["machines"]; ok {
		r.decodeMachineRun(b)
		return r
	}
	mod := &hclsyntax.Body{
		Attributes: hclsyntax.Attributes{},
		SrcRange:   b.Body.SrcRange,
		EndRange:   b.Body.EndRange,
	}
	for _, name := range sortedAttrNames(b.Body.Attributes) {
		a := b.Body.Attributes[name]
		switch a.Name {
		case "imports", "disabled_modules":
			mod.Attributes[a.Name] = a
		case "expect_error":
			v, diags := a.Expr.Value(nil)
			if diags.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type() != cty.String || v.AsString() == "" {
				r.Diags = append(r.Diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid expect_error",
					Detail:   "expect_error is a non-empty literal string: a part of the error message the evaluation must fail with.",
					Subject:  a.Expr.Range().Ptr(),
				})
				continue
			}
			r.ExpectError = v.AsString()
			r.ExpectRange = a.Expr.Range()
		default:
			r.Diags = append(r.Diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported argument",
				Detail:   fmt.Sprintf("A run block takes the arguments imports, disabled_modules and expect_error (or machines, in a machine run), not %q. Definitions go in config blocks.", a.Name),
				Subject:  a.NameRange.Ptr(),
			})
		}
	}
	for _, nb := range b.Body.Blocks {
		switch nb.Type {
		case "config":
			mod.Blocks = append(mod.Blocks, nb)
		case "assert":
			r.Diags = append(r.Diags, r.decodeAssert(nb)...)
		default:
			r.Diags = append(r.Diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported block type",
				Detail:   fmt.Sprintf("A run block holds config and assert blocks (step blocks in a run that sets machines), not a %q block.", nb.Type),
				Subject:  nb.TypeRange.Ptr(),
			})
		}
	}
	if r.ExpectError != "" && len(r.Asserts) > 0 {
		r.Diags = append(r.Diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Conflicting run checks",
			Detail:   "A run that sets expect_error expects evaluation to fail, so it has no result for assert blocks to check. Put the asserts in a run of their own.",
			Subject:  r.ExpectRange.Ptr(),
		})
	}
	r.Body = mod
	return r
}

func (r *Run) decodeAssert(b *hclsyntax.Block) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if len(b.Labels) > 0 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid assert block",
			Detail:   "An assert block has no labels.",
			Subject:  b.LabelRanges[0].Ptr(),
		})
	}
	for _, nb := range b.Body.Blocks {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsupported block type",
			Detail:   fmt.Sprintf("An assert block takes the arguments condition and error_message, not a %q block.", nb.Type),
			Subject:  nb.TypeRange.Ptr(),
		})
	}
	a := &Assert{Block: b}
	sawMessage := false
	for _, name := range sortedAttrNames(b.Body.Attributes) {
		attr := b.Body.Attributes[name]
		switch attr.Name {
		case "condition":
			a.Condition = attr.Expr
		case "error_message":
			a.ErrorMessage = attr.Expr
		default:
			hint := ""
			if attr.Name == "message" {
				sawMessage = true
				hint = ` (a module's assert says message; a test's assert says error_message, as in terraform test)`
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported argument",
				Detail:   fmt.Sprintf("An assert block takes the arguments condition and error_message, not %q%s.", attr.Name, hint),
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	for _, req := range []struct {
		name string
		expr hclsyntax.Expression
	}{{"condition", a.Condition}, {"error_message", a.ErrorMessage}} {
		if req.expr == nil && !(req.name == "error_message" && sawMessage) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Missing required argument",
				Detail:   fmt.Sprintf("An assert block needs the argument %q.", req.name),
				Subject:  b.DefRange().Ptr(),
			})
		}
	}
	if !diags.HasErrors() {
		r.Asserts = append(r.Asserts, a)
	}
	return diags
}

func sortedAttrNames(attrs hclsyntax.Attributes) []string {
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, n)
	}
	// Source order, so diagnostics come in the order of the file.
	sort.Slice(names, func(i, j int) bool {
		return attrs[names[i]].SrcRange.Start.Byte < attrs[names[j]].SrcRange.Start.Byte
	})
	return names
}

// displayPath shows a path relative to the working directory when it is
// below it, else absolute, as the evaluator names host files.
func displayPath(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(abs)
}

func cleanError(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}
