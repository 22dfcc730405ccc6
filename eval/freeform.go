package eval

import (
	"fmt"
	"slices"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// freeform is what an instance of a freeform submodule knows about the
// names that no option declares: their definitions and, once read, their
// merged value (an object), as NixOS merges unmatched definitions with
// _module.freeformType.
type freeform struct {
	defs   []defn
	status status
	value  cty.Value
	diags  hcl.Diagnostics
}

// freeformType reads the freeform type of one submodule body into st.
func (ev *Evaluator) freeformType(st *subType, body *submoduleSyntax) hcl.Diagnostics {
	if body.freeform == nil {
		return nil
	}
	if st.freeformAt != nil {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "freeform is declared twice",
			Detail:   fmt.Sprintf("This submodule is also freeform at %s; declare the type of its undeclared names in one place.", options.ShowPos(*st.freeformAt)),
			Subject:  body.freeform.Expr.Range().Ptr(),
		}}
	}
	t, diags := ev.parseType(body.mod, body.freeform.Expr)
	if diags.HasErrors() {
		return diags
	}
	st.freeform, st.freeformAt = t, body.freeform.Expr.Range().Ptr()
	return diags
}

// addFreeform records the definition d of name, which no option of the
// freeform instance declares.
func (inst *instance) addFreeform(name string, d defn) {
	d.Value = cty.ObjectVal(map[string]cty.Value{name: d.Value})
	inst.free.defs = append(inst.free.defs, d)
	inst.free.status = unforced
}

// freeformValue is the merged value of the undeclared names of a freeform
// instance: an object, empty when there are none.
func (inst *instance) freeformValue() (cty.Value, hcl.Diagnostics) {
	diags := inst.drainTo(nil)
	f := &inst.free
	switch f.status {
	case done:
		return f.value, append(diags, f.diags...)
	case forcing:
		return cty.DynamicVal, append(diags, inst.ev.cycleDiag(f, "the undeclared names of "+inst.loc.String(), *inst.st.freeformAt))
	}
	if len(f.defs) == 0 {
		f.value, f.diags, f.status = cty.EmptyObjectVal, nil, done
		return f.value, diags
	}
	f.status = forcing
	inst.ev.push(frame{state: f, what: "the undeclared names of " + inst.loc.String(), ref: *inst.st.freeformAt})
	slices.SortStableFunc(f.defs, seqCompare)
	defs := make([]options.Def, len(f.defs))
	for i, d := range f.defs {
		defs[i] = d.Def
	}
	merged, d := options.MergeDefinitions(inst.loc, inst.st.freeform, defs)
	inst.ev.pop()
	v := merged.Value
	if !merged.Defined {
		v = cty.EmptyObjectVal
	}
	if !d.HasErrors() {
		var dd hcl.Diagnostics
		v, dd = property.Shallow(v)
		d = append(d, dd...)
	}
	if !d.HasErrors() && (!v.IsKnown() || v.IsNull() || !(v.Type().IsObjectType() || v.Type().IsMapType())) {
		d = append(d, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "freeform type is no attribute set",
			Detail:   fmt.Sprintf("The freeform type of %q gives %s; it must be an attribute set type, such as attrsOf(anything).", inst.loc.String(), options.ShowValue(v)),
			Subject:  inst.st.freeformAt,
		})
	}
	if d.HasErrors() {
		v = cty.DynamicVal
	}
	f.value, f.diags, f.status = v, d, done
	return v, append(diags, d...)
}

// isFreeformRoot reports whether n is the root of a freeform instance,
// where undeclared names are keys of the value.
func (inst *instance) isFreeformRoot(n *declNode) bool {
	return n == inst.root && inst.st != nil && inst.st.freeform != nil
}

// freeformAttr reads the undeclared name of a freeform instance; ok is
// false when it is not defined either.
func (inst *instance) freeformAttr(name string) (cty.Value, bool, hcl.Diagnostics) {
	v, diags := inst.freeformValue()
	if diags.HasErrors() || !v.Type().IsObjectType() && !v.Type().IsMapType() {
		return cty.DynamicVal, diags.HasErrors(), diags
	}
	if v.Type().IsObjectType() {
		if !v.Type().HasAttribute(name) {
			return cty.DynamicVal, false, diags
		}
		return v.GetAttr(name), true, diags
	}
	if !v.HasIndex(cty.StringVal(name)).True() {
		return cty.DynamicVal, false, diags
	}
	return v.Index(cty.StringVal(name)), true, diags
}

// freeformKeys lists the undeclared names of a freeform instance, sorted.
func (inst *instance) freeformKeys() ([]string, hcl.Diagnostics) {
	v, diags := inst.freeformValue()
	if diags.HasErrors() {
		return nil, diags
	}
	var keys []string
	for it := v.ElementIterator(); it.Next(); {
		k, _ := it.Element()
		keys = append(keys, k.AsString())
	}
	sort.Strings(keys)
	return keys, diags
}
