package eval

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval/internal/declare"
	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/property"
)

// scope is what an expression can see: the instance whose options `config`
// reads, the module (for locals and file()), and bound variables (for
// iteration variables, `value` in apply).
type scope struct {
	inst   *instance
	mod    *syntax.Module
	locals *localSet
	vars   *syntax.Binding
	anon   map[*hclsyntax.AnonSymbolExpr]cty.Value
	// call is set in the body of a module's function: the call being
	// evaluated, which the errors in the body name (see noteCall).
	site *callSite
}

// with returns a child scope with the variable name bound to v, in one
// allocation.
func (sc *scope) with(name string, v cty.Value) *scope {
	n := &struct {
		sc scope
		b  syntax.Binding
	}{sc: *sc}
	n.b = syntax.Binding{Name: name, Value: v, Outer: sc.vars}
	n.sc.vars = &n.b
	return &n.sc
}

// with2 returns a child scope with two variables bound, the second over
// the first if they have the same name, in one allocation.
func (sc *scope) with2(name1 string, v1 cty.Value, name2 string, v2 cty.Value) *scope {
	n := &struct {
		sc    scope
		first syntax.Binding
		last  syntax.Binding
	}{sc: *sc}
	n.first = syntax.Binding{Name: name1, Value: v1, Outer: sc.vars}
	n.last = syntax.Binding{Name: name2, Value: v2, Outer: &n.first}
	n.sc.vars = &n.last
	return &n.sc
}

func (sc *scope) withAnon(sym *hclsyntax.AnonSymbolExpr, v cty.Value) *scope {
	n := *sc
	n.anon = make(map[*hclsyntax.AnonSymbolExpr]cty.Value, len(sc.anon)+1)
	for k, v := range sc.anon {
		n.anon[k] = v
	}
	n.anon[sym] = v
	return &n
}

// localSet is the locals of one module (or one submodule body in one
// instance).
type localSet struct {
	attrs  map[string]*hclsyntax.Attribute
	thunks map[string]*thunk
	sc     *scope
	parent *localSet
}

func newLocalSet(attrs []*hclsyntax.Attribute, sc *scope, parent *localSet) *localSet {
	// Most submodule bodies have no locals: their sets have no maps.
	ls := &localSet{sc: sc, parent: parent}
	if len(attrs) > 0 {
		ls.attrs = make(map[string]*hclsyntax.Attribute, len(attrs))
	}
	for _, a := range attrs {
		// A name declared twice is an error (checkLocals); until it is
		// reported, the first declaration is the local, as everywhere
		// else that reads locals (configFree).
		if _, dup := ls.attrs[a.Name]; !dup {
			ls.attrs[a.Name] = a
		}
	}
	sc.locals = ls
	return ls
}

func (ls *localSet) get(name string) (*thunk, bool) {
	for s := ls; s != nil; s = s.parent {
		if t, ok := s.thunks[name]; ok {
			return t, true
		}
		if a, ok := s.attrs[name]; ok {
			t := s.sc.inst.ev.arena.newThunk(a.Expr, s.sc, "local."+name)
			if s.thunks == nil {
				s.thunks = map[string]*thunk{}
			}
			s.thunks[name] = t
			return t, true
		}
	}
	return nil, false
}

func (ls *localSet) names() []string {
	seen := map[string]bool{}
	var out []string
	for s := ls; s != nil; s = s.parent {
		for n := range s.attrs {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// topScope is the scope of a top-level module's expressions.
func (ev *Evaluator) topScope(m *syntax.Module) *scope {
	if ls, ok := ev.modLocals[m]; ok {
		return ls.sc
	}
	sc := &scope{inst: ev.top, mod: m}
	ev.modLocals[m] = newLocalSet(m.Locals, sc, nil)
	return sc
}

// bodyScope is the scope of a submodule body's expressions in inst.
func (inst *instance) bodyScope(body *syntax.Submodule) *scope {
	if ls, ok := inst.bodyLocals[body]; ok {
		return ls.sc
	}
	sc := &scope{inst: inst, mod: body.Mod}
	parent := inst.ev.topScope(body.Mod).locals
	inst.bodyLocals[body] = newLocalSet(body.Locals, sc, parent)
	return sc
}

// declScope is the scope of an option declaration's default and apply,
// with the iterators of the dynamic blocks that made it.
func (inst *instance) declScope(o *declare.Option) *scope {
	sc := inst.ev.topScope(o.Mod)
	if o.Body != nil && inst.st != nil {
		sc = inst.bodyScope(o.Body)
	}
	if o.Vars != nil {
		withVars := *sc
		withVars.vars = o.Vars
		sc = &withVars
	}
	return sc
}

// lookupForced returns the value of the variable name forced shallowly
// (a parameter holds its argument as a thunk); cty.NilVal if it is not
// bound or its value fails.
func lookupForced(b *syntax.Binding, name string) cty.Value {
	v := b.Lookup(name)
	if v == cty.NilVal {
		return v
	}
	fv, diags := property.Shallow(v)
	if diags.HasErrors() {
		return cty.NilVal
	}
	return fv
}
