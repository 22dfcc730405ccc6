package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/rogpeppe/go-internal/diff"

	"github.com/nodegen/nodegen/hclfmt"
	"github.com/nodegen/nodegen/modtest"
	"github.com/nodegen/nodegen/modules"
)

// TestDocsMachineTests checks the examples of docs/testing.md without
// booting anything (TestDocs runs transcripts; a machine test's depend on
// the machine): its hcl blocks are written to one directory as TestDocs
// writes them and are formatted as nodegen fmt formats them, every test
// file parses without an error, and the host of every machine and
// configuration block evaluates with the library without one.
func TestDocsMachineTests(t *testing.T) {
	const doc = "../../docs/testing.md"
	src, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var tests []string
	for _, b := range fencedBlocks(string(src)) {
		if b.lang != "hcl" {
			continue
		}
		name := b.fileName()
		if out, diags := hclfmt.Format([]byte(b.body), name); diags.HasErrors() || string(out) != b.body {
			t.Errorf("%s:%d: the hcl block %s does not parse or is not formatted as nodegen fmt would: %v\n%s", doc, b.line, name, diags, diff.Diff("doc", []byte(b.body), "fmt", out))
		}
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.body), 0o644); err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, modtest.Suffix) {
			tests = append(tests, path)
		}
	}
	if len(tests) == 0 {
		t.Fatal("docs/testing.md has no test file")
	}
	rn := &modtest.Runner{Library: modules.FS()}
	for _, path := range tests {
		f := modtest.ParseFile(path)
		diags := f.Diags
		for _, r := range f.Runs {
			diags = append(diags, r.Diags...)
		}
		if len(f.Machines) == 0 {
			t.Errorf("%s: no machine block", path)
		}
		var hosts []*modtest.Run
		for _, m := range f.Machines {
			hosts = append(hosts, &modtest.Run{Name: m.Name, Block: m.Block, Body: m.Body})
		}
		for _, c := range f.Configurations {
			hosts = append(hosts, &modtest.Run{Name: c.Name, Block: c.Block, Body: c.Body})
		}
		for _, h := range hosts {
			diags = append(diags, rn.Run(f, h).Diags...)
		}
		for _, d := range diags {
			t.Errorf("%s: %s", filepath.Base(path), describe(d))
		}
	}
}

func describe(d *hcl.Diagnostic) string {
	if d.Subject == nil {
		return d.Summary + ": " + d.Detail
	}
	return d.Subject.String() + ": " + d.Summary + ": " + d.Detail
}
