package options

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/lib"
)

// SystemdOption is the type systemdOption, NixOS's systemd unitOption: the
// value of one key of a unit section, a string (without a line break,
// which would end the key's line in the unit file, but for a continuation:
// a newline right after a backslash, as NixOS allows in a multi-line
// ExecStart, and a final newline, which ends the value, as a heredoc's
// does), number or bool, or a list of them. Another line break is
// thus a type error at the definition that has it, not an error of the
// library's unit writer. When some definition is a list, the definitions concatenate (a
// single value counts as a one-element list), so modules can add
// ExecStartPre commands to a service; otherwise they must all be equal.
type SystemdOption struct{}

// Description returns "systemd option".
func (SystemdOption) Description() string     { return "systemd option" }
func (SystemdOption) descriptionClass() class { return classNoun }

// check accepts a primitive or a list; the elements of a list may not be
// evaluated yet, and Merge checks them.
func (SystemdOption) check(v cty.Value) bool {
	return isList(v) || systemdPrimitive(v)
}

func systemdPrimitive(v cty.Value) bool {
	ty := v.Type()
	if v.IsNull() {
		return false
	}
	if ty == cty.String {
		return !v.IsKnown() || lib.ContinuedLines(v.AsString())
	}
	return ty == cty.Number || ty == cty.Bool
}

// Merge concatenates when a definition is a list, else requires equality.
func (t SystemdOption) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	vals, unknown, diags := checkedValues(loc, t, defs)
	if unknown || diags.HasErrors() || len(vals) == 0 {
		return cty.DynamicVal, diags
	}
	anyList := false
	for _, d := range vals {
		if isList(d.Value) {
			anyList = true
		}
	}
	if !anyList {
		return mergeEqual(loc, t, vals)
	}
	return concatAtoms(loc, t, vals, systemdPrimitive)
}

// concatAtoms concatenates definitions of which some are lists, a single
// value counting as a one-element list; an element that atom rejects is a
// type error of t at its definition.
func concatAtoms(loc Path, t Type, vals []Def, atom func(cty.Value) bool) (cty.Value, hcl.Diagnostics) {
	var out []cty.Value
	var diags hcl.Diagnostics
	for _, d := range vals {
		if !isList(d.Value) {
			out = append(out, d.Value)
			continue
		}
		for _, e := range ctyelems.Elems(d.Value) {
			if e.IsKnown() && !atom(e) {
				diags = append(diags, typeError(loc, t, Def{Value: e, Range: d.Range}))
				continue
			}
			out = append(out, e)
		}
	}
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	if len(out) == 0 {
		return cty.EmptyTupleVal, diags
	}
	return ctyelems.TupleVal(out), diags
}
