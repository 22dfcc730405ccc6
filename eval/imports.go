package eval

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// This file evaluates a module's imports and disabled_modules when they are
// not a constant list, as NixOS's `imports = map (n: ./exporters/${n}.nix)
// names`: an expression over constants and the module's own locals, with
// the functions and the limits of any expression. Imports are resolved
// while the modules are collected, before any option exists, so neither
// may read config, root or options (in NixOS, imports that depend on
// config are an infinite recursion).

// linkStrings evaluates a computed imports or disabled_modules attribute
// of module m (see syntax.Module.Computed) to its list of paths.
func (ev *Evaluator) linkStrings(m *syntax.Module, attr *hclsyntax.Attribute) ([]string, hcl.Diagnostics) {
	if d := configFree(m, attr.Name, attr.Expr, nil, nil, map[string]bool{}, nil, whenCollected); d != nil {
		return nil, hcl.Diagnostics{d}
	}
	v, diags := ev.loadScope(m).deep(attr.Expr)
	if diags.HasErrors() {
		return nil, diags
	}
	strs, d := stringList(attr, v)
	return strs, append(diags, d...)
}

// loadScope is the scope of module m's expressions that are read while
// the modules are collected and their options declared (computed imports,
// dynamic blocks): the module's locals, as thunks of their own, since the
// evaluation's instances do not exist yet.
func (ev *Evaluator) loadScope(m *syntax.Module) *scope {
	if sc, ok := ev.loadScopes[m]; ok {
		return sc
	}
	sc := &scope{inst: &instance{ev: ev}, mod: m}
	newLocalSet(m.Locals, sc, nil)
	ev.loadScopes[m] = sc
	return sc
}

// When configFree's expressions are read, for its messages.
const (
	whenCollected = "the modules are collected before any option exists"
	whenDeclared  = "the options are declared before any of them has a value"
)

// configFree checks that expr, part of module m's attribute what (through
// the locals in via), reads neither config, root, options, name nor hosts,
// directly or through the module's locals; the diagnostic points at the
// first such reference, and says that the attribute is read when
// (whenCollected, whenDeclared). Variables bound in vars (a dynamic
// block's iterators, which may be called options) are not the module's.
// free, when not nil, holds the locals of m found to read none of those,
// for the calls that check several expressions of one module: a table in a
// local that many dynamic blocks read is walked once, not once a block.
func configFree(m *syntax.Module, what string, expr hclsyntax.Expression, vars *syntax.Binding, via []string, seen, free map[string]bool, when string) *hcl.Diagnostic {
	for _, tr := range hclsyntax.Variables(expr) {
		root := tr.RootName()
		if vars.Lookup(root) != cty.NilVal {
			continue
		}
		switch root {
		case "config", "root", "options", "name", "hosts":
			through := ""
			if len(via) > 0 {
				through = fmt.Sprintf(" (through %s)", strings.Join(via, ", "))
			}
			reads := root
			if root == "name" {
				reads = "name, the name of a submodule instance,"
			}
			return &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  what + " cannot depend on " + root,
				Detail:   fmt.Sprintf("%s reads %s here%s, but %s: %s may use constants, functions and the module's locals that do not read config, root or options.", what, reads, through, when, what),
				Subject:  tr.SourceRange().Ptr(),
			}
		case "local":
			if len(tr) < 2 {
				continue
			}
			a, ok := tr[1].(hcl.TraverseAttr)
			if !ok || seen[a.Name] || free[a.Name] {
				continue
			}
			seen[a.Name] = true
			for _, l := range m.Locals {
				if l.Name == a.Name {
					if d := configFree(m, what, l.Expr, nil, append(via, "local."+a.Name), seen, free, when); d != nil {
						return d
					}
					if free != nil {
						free[a.Name] = true
					}
					break
				}
			}
		}
	}
	return nil
}
