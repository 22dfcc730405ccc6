package syntax

import (
	"github.com/zclconf/go-cty/cty"
)

// Binding is a variable bound in a scope, and the bindings of the scopes
// around it: a for expression's variables are bound for each element, so
// binding one shares the outer ones rather than copying them. The
// iterators of the dynamic blocks that made a declaration are bindings
// too (OptionDecl.Vars).
type Binding struct {
	Name  string
	Value cty.Value
	Outer *Binding
}

// Lookup returns the value of the variable name, as bound innermost;
// cty.NilVal if it is not bound.
func (b *Binding) Lookup(name string) cty.Value {
	for ; b != nil; b = b.Outer {
		if b.Name == name {
			return b.Value
		}
	}
	return cty.NilVal
}

// Values are the variables of a binding and those around it, the
// innermost of each name, for hcl.EvalContext.
func (b *Binding) Values() map[string]cty.Value {
	if b == nil {
		return nil
	}
	out := map[string]cty.Value{}
	for ; b != nil; b = b.Outer {
		if _, ok := out[b.Name]; !ok {
			out[b.Name] = b.Value
		}
	}
	return out
}
