package eval

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/nodegen/nodegen/eval/internal/declare"
	"github.com/nodegen/nodegen/eval/internal/syntax"
)

// This file is what the evaluation gives declaring and takes of it.

// declaringConsts is the narrow evaluator declaring reads expressions
// with (declare.Consts): the expressions of a module read while its
// options are declared, over its locals in its load scope (see
// loadScope), and the limits of the evaluation.
type declaringConsts struct{ ev *Evaluator }

// DeclValue is the value of expr in module m's load scope, with the
// iterators vars binds.
func (c declaringConsts) DeclValue(m *syntax.Module, vars *syntax.Binding, expr hclsyntax.Expression) (cty.Value, hcl.Diagnostics) {
	sc := c.ev.loadScope(m)
	if vars != nil {
		sc = &scope{inst: sc.inst, mod: sc.mod, locals: sc.locals, vars: vars}
	}
	return sc.deep(expr)
}

// CheckElements is the evaluation's checkElements.
func (c declaringConsts) CheckElements(n int, rng hcl.Range) *hcl.Diagnostic {
	return c.ev.checkElements(n, rng)
}

// submoduleType is the option tree of the named submodules merged: the
// declared value's, which holds every one its options can instantiate.
// Should one be missing, it is built for this evaluation alone, leaving
// the declared value, which evaluations share, as it is.
func (ev *Evaluator) submoduleType(names []string) *declare.SubType {
	return ev.decl.SubTypeOf(&ev.Modules, declaringConsts{ev}, names)
}

// declarationDiags are the diagnostics of declaring for this evaluation,
// in the order of its modules: the duplicate locals of each module, the
// errors of its declarations, then those of the tree decl. The
// diagnostics of decl are copied, since evaluations sharing it may change
// theirs (see withoutCommandLine).
func (ev *Evaluator) declarationDiags(decl *declare.Declared) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, m := range ev.Mods {
		diags = append(diags, checkLocals(m.Locals)...)
		for _, s := range m.Submodules {
			diags = append(diags, checkLocals(s.Locals)...)
		}
		diags = appendCopies(diags, decl.ModDiags[m])
	}
	return appendCopies(diags, decl.Diags)
}

// appendCopies appends a copy of each diagnostic of from to diags.
func appendCopies(diags, from hcl.Diagnostics) hcl.Diagnostics {
	for _, d := range from {
		c := *d
		diags = append(diags, &c)
	}
	return diags
}
