package eval

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval/internal/declare"
	"github.com/nodegen/nodegen/internal/ctyelems"
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
	// parts are the definitions as merging decided them, for Explain.
	parts []property.Part
}

// addFreeform records the definition d of path p (below the instance's
// root), which no option of the freeform instance declares.
func (inst *instance) addFreeform(p options.Path, d defn) {
	d.Value = declare.NestIn(d.Value, p)
	inst.free.defs = append(inst.free.defs, d)
	inst.free.status = unforced
}

// hasFreeform reports whether the instance is of a freeform submodule,
// where undeclared names are keys of the value.
func (inst *instance) hasFreeform() bool {
	return inst.st != nil && inst.st.Freeform != nil
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
		return cty.DynamicVal, append(diags, inst.ev.cycleDiag(f, "the undeclared names of "+inst.loc.String(), *inst.st.FreeformAt))
	}
	if len(f.defs) == 0 {
		f.value, f.diags, f.status = cty.EmptyObjectVal, nil, done
		return f.value, diags
	}
	f.status = forcing
	inst.ev.push(frame{state: f, what: "the undeclared names of " + inst.loc.String(), ref: *inst.st.FreeformAt})
	slices.SortStableFunc(f.defs, seqCompare)
	defs := make([]options.Def, len(f.defs))
	for i, d := range f.defs {
		defs[i] = d.Def
	}
	merged, d := (&options.Merger{Budget: mergeBudget{inst.ev}}).MergeDefinitions(inst.loc, inst.ev.typeOf(inst.st, inst.st.Freeform), defs)
	inst.ev.pop()
	f.parts = merged.Defs
	v := merged.Value
	if !merged.Defined {
		v = cty.EmptyObjectVal
	}
	if !d.HasErrors() {
		var dd hcl.Diagnostics
		v, dd = property.Shallow(v)
		d = append(d, dd...)
	}
	if !d.HasErrors() && !isObject(v) {
		d = append(d, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Freeform type is no attribute set",
			Detail:   fmt.Sprintf("The freeform type of %q gives %s; it must be an attribute set type, such as attrsOf(anything).", inst.loc.String(), options.ShowValue(v)),
			Subject:  inst.st.FreeformAt,
		})
	}
	if d.HasErrors() {
		v = cty.DynamicVal
	}
	f.value, f.diags, f.status = v, d, done
	return v, append(diags, d...)
}

func isObject(v cty.Value) bool {
	return v.IsKnown() && !v.IsNull() && (v.Type().IsObjectType() || v.Type().IsMapType())
}

// freeformAt is the part of the undeclared names' value at namespace n:
// an object, empty when nothing undeclared is defined there.
func (inst *instance) freeformAt(n *declare.Node) (cty.Value, hcl.Diagnostics) {
	v, diags := inst.freeformValue()
	for _, seg := range n.Path {
		if diags.HasErrors() || !isObject(v) {
			break
		}
		var ok bool
		v, ok = freeAttr(v, seg)
		if !ok {
			return cty.EmptyObjectVal, diags
		}
		var d hcl.Diagnostics
		v, d = property.Shallow(v)
		diags = append(diags, d...)
	}
	if diags.HasErrors() || !isObject(v) {
		return cty.EmptyObjectVal, diags
	}
	return v, diags
}

// attrOf is the attribute name of an object or map.
func freeAttr(v cty.Value, name string) (cty.Value, bool) {
	if v.Type().IsObjectType() {
		if !ctyelems.HasAttr(v.Type(), name) {
			return cty.NilVal, false
		}
		return v.GetAttr(name), true
	}
	if !v.HasIndex(cty.StringVal(name)).True() {
		return cty.NilVal, false
	}
	return v.Index(cty.StringVal(name)), true
}

// freeformAttr reads the undeclared name below namespace n of a freeform
// instance; ok is false when it is not defined either.
func (inst *instance) freeformAttr(n *declare.Node, name string) (cty.Value, bool, hcl.Diagnostics) {
	v, diags := inst.freeformAt(n)
	if diags.HasErrors() {
		return cty.DynamicVal, true, diags
	}
	e, ok := freeAttr(v, name)
	if !ok {
		return cty.DynamicVal, false, diags
	}
	return e, true, diags
}

// freeformAttrs lists the undeclared names below namespace n of a
// freeform instance with their values (names that are namespaces there
// are the namespaces' own).
func (inst *instance) freeformAttrs(n *declare.Node) (map[string]cty.Value, hcl.Diagnostics) {
	v, diags := inst.freeformAt(n)
	out := map[string]cty.Value{}
	for k, e := range ctyelems.Attrs(v) {
		if n.Children[k] == nil {
			out[k] = e
		}
	}
	return out, diags
}
