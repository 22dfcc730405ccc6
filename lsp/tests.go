package lsp

import (
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/modtest"
)

// isTestFile tells whether a file is a test file (run blocks, for
// `nodegen test`) rather than a module.
func isTestFile(name string) bool { return strings.HasSuffix(name, modtest.Suffix) }

// parseTest decodes a test file's buffer; its diagnostics are the file's
// own and its runs'.
func parseTest(d *document) (*modtest.File, hcl.Diagnostics) {
	f := modtest.Parse(d.text.src, d.name)
	diags := f.Diags
	for _, r := range f.Runs {
		diags = append(diags, r.Diags...)
	}
	return f, diags
}

// checkTestChanged publishes the errors of an edited test file as
// `nodegen test` finds them before it runs anything.
func (s *Server) checkTestChanged(d *document) {
	f, diags := parseTest(d)
	located := s.located(map[string]*hcl.File{d.name: f.HCL}, diags, &d.uri)
	s.publish(d.uri, d.version, forURI(located, d.uri))
}

// checkTestSaved runs a saved test file's runs, as `nodegen test` does
// (through the editor's buffers), and publishes why each failed: a failed
// assert at the assert, an evaluation error where it is, in every file.
// Machine runs are not run (they boot machines), but the hosts of the
// file's machine and configuration blocks are evaluated, so that an
// error in one shows at once.
func (s *Server) checkTestSaved(d *document) {
	f, diags := parseTest(d)
	files := map[string]*hcl.File{d.name: f.HCL}
	if !f.Diags.HasErrors() {
		rn := &modtest.Runner{Library: s.opts.Library, FS: s.fsys}
		for _, r := range append(hostRuns(f), f.Runs...) {
			res := rn.Run(f, r)
			for name, file := range res.Files {
				files[name] = file
			}
			diags = append(diags, res.Diags...)
		}
	}
	s.publishRecorded(append(s.record(d.name, s.located(files, diags, &d.uri)), d.uri))
}

// hostRuns are option-tree runs that evaluate the hosts of f's machine
// and configuration blocks, with no assert: each fails with the errors
// its evaluation finds, as the machine run booting it would.
func hostRuns(f *modtest.File) []*modtest.Run {
	var runs []*modtest.Run
	for _, m := range f.Machines {
		runs = append(runs, &modtest.Run{Name: "machine " + m.Name, Block: m.Block, Body: m.Body})
	}
	for _, c := range f.Configurations {
		runs = append(runs, &modtest.Run{Name: "configuration " + c.Name, Block: c.Block, Body: c.Body})
	}
	return runs
}
