package eval_test

import (
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/nodegen/nodegen/internal/suitereport"
)

// The packages of the layering eval/doc.go states.
const (
	evalPkg    = "github.com/nodegen/nodegen/eval"
	declarePkg = "github.com/nodegen/nodegen/eval/internal/declare"
	syntaxPkg  = "github.com/nodegen/nodegen/eval/internal/syntax"
)

// TestDeclaringDoesNotEvaluate checks the layering eval/doc.go states by
// the import graph: declaring (package declare, phase 3) depends on
// nothing of eval, whose runtime (the Evaluator, its instances, scopes,
// thunks and the state of options) it so cannot name, even as the type of
// a value passed around: it reads expressions through the narrow
// evaluator declare.Consts alone, so that the declared tree is a function
// of the loaded modules, shared by a fleet's hosts as a value. The parsed
// modules both read (package syntax) depend on neither. (While eval
// imports declare, Go's rule against import cycles keeps the first too;
// the test states the direction, which that rule does not.)
func TestDeclaringDoesNotEvaluate(t *testing.T) {
	suitereport.Program(t, "eval layering", "go", "the Go toolchain")
	deps := loadDeps(t, evalPkg, declarePkg, syntaxPkg)

	for _, c := range []struct {
		pkg     string
		notOn   []string
		because string
	}{
		{declarePkg, []string{evalPkg}, "declaring would reach the runtime"},
		{syntaxPkg, []string{evalPkg, declarePkg}, "the parsed modules would depend on what reads them"},
	} {
		for _, bad := range c.notOn {
			if slices.Contains(deps[c.pkg], bad) {
				t.Errorf("%s depends on %s: %s", c.pkg, bad, c.because)
			}
		}
	}

	// The check finds what it looks for: eval, which declares through
	// package declare, depends on it and on syntax.
	for _, want := range []string{declarePkg, syntaxPkg} {
		if !slices.Contains(deps[evalPkg], want) {
			t.Errorf("the check finds no dependency of eval on %s", want)
		}
	}
}

// loadDeps returns, for each of the packages named by their paths, the
// paths of every package it depends on, directly or not (tests left
// out, as go list -deps does).
func loadDeps(t *testing.T, paths ...string) map[string][]string {
	t.Helper()
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedImports | packages.NeedDeps}
	pkgs, err := packages.Load(cfg, paths...)
	if err != nil {
		t.Fatalf("loading %v: %v", paths, err)
	}
	out := map[string][]string{}
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			t.Fatalf("loading %s: %v", p.PkgPath, p.Errors)
		}
		seen := map[string]bool{}
		var walk func(p *packages.Package)
		walk = func(p *packages.Package) {
			for path, imp := range p.Imports {
				if !seen[path] {
					seen[path] = true
					walk(imp)
				}
			}
		}
		walk(p)
		var list []string
		for path := range seen {
			list = append(list, path)
		}
		slices.Sort(list)
		out[p.PkgPath] = list
	}
	return out
}
