package options

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/lib"
)

// This file holds the types of file formats (lib.Format), NixOS's
// (pkgs.formats.KIND { ... }).type, for settings options and freeform
// submodules.

// FormatType is the type of the values of a format, merged as NixOS merges
// them:
//
//   - json and yaml: FormatValue, any value; toml: the same without null;
//   - keyValue: attrsOf(FormatAtom), an object of keys;
//   - ini: attrsOf(IniSection), an object of sections of keys;
//   - iniWithGlobalSection: IniWithGlobalSection, an object of
//     globalSection (keys) and sections.
func FormatType(f lib.Format) Type {
	switch f.Kind {
	case lib.FormatJSON:
		return FormatValue{Name: "JSON value", Null: true}
	case lib.FormatYAML:
		return FormatValue{Name: "YAML 1.1 value", Null: true}
	case lib.FormatTOML:
		return FormatValue{Name: "TOML value"}
	case lib.FormatKeyValue:
		return AttrsOf{Elem: FormatAtom{Name: "atom", Lists: f.Lists(), DuplicateKeys: f.DuplicateKeys()}}
	case lib.FormatINI:
		return AttrsOf{Elem: IniSection{Atom: FormatAtom{Name: "INI atom", Lists: f.Lists(), DuplicateKeys: f.DuplicateKeys()}}}
	case lib.FormatINIWithGlobalSection:
		return IniWithGlobalSection{Section: IniSection{Atom: FormatAtom{Name: "INI atom", Lists: f.Lists(), DuplicateKeys: f.DuplicateKeys()}}}
	}
	panic("options: a format without a type: " + f.Kind)
}

// FormatValue is the type of a value of a structured format (NixOS's
// valueType of pkgs.formats.json, yaml and toml): null (when Null), a
// bool, a number, a string, a list of values or an attribute set of
// values. Attribute sets merge key by key and lists concatenate, at every
// depth; other values must be equal, and definitions of different kinds
// conflict.
type FormatValue struct {
	// Name is the description: "JSON value".
	Name string
	// Null is whether null is a value (not in TOML).
	Null bool
}

// Description returns the format's name for its values.
func (t FormatValue) Description() string   { return t.Name }
func (FormatValue) descriptionClass() class { return classConjunction }
func (t FormatValue) check(v cty.Value) bool {
	if v.IsNull() {
		return t.Null
	}
	ty := v.Type()
	return ty == cty.Bool || ty == cty.Number || ty == cty.String || isList(v) || isAttrSet(v)
}

// Merge merges attribute sets key by key and concatenates lists, each
// element and attribute with this type again; other values must be equal.
func (t FormatValue) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	ok, diags := checkAll(loc, t, defs)
	if !ok {
		return cty.DynamicVal, diags
	}
	var kinds []string
	for _, d := range defs {
		if !d.Value.IsKnown() {
			return cty.DynamicVal, nil
		}
		if k := kindOf(d.Value); !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	switch {
	case len(kinds) > 1 && slices.Contains(kinds, "null"):
		return cty.DynamicVal, hcl.Diagnostics{conflictError(loc, t, defs, "some of them are null and others are not")}
	case len(kinds) > 1:
		return cty.DynamicVal, hcl.Diagnostics{conflictError(loc, t, defs,
			"they are values of different kinds ("+strings.Join(kinds, ", ")+")")}
	case kinds[0] == "attribute set":
		return mergeByKey(loc, t, t, defs)
	case kinds[0] == "list":
		return ListOf{Elem: t}.Merge(loc, defs)
	case kinds[0] == "null":
		return cty.NullVal(cty.DynamicPseudoType), nil
	}
	return mergeEqual(loc, t, defs)
}

// FormatAtom is the type of one key of a keyValue or INI format: null, a
// bool, a number or a string, and when Lists a list of them. When some
// definition is a list, the definitions concatenate (a single value counts
// as a one-element list), as NixOS's coercion of atoms to lists does;
// otherwise null merges with null only, and other values must be equal.
type FormatAtom struct {
	// Name is "atom" or "INI atom".
	Name string
	// Lists is whether a list of atoms is a value too.
	Lists bool
	// DuplicateKeys is whether a list is written as its key repeated (for
	// the description only).
	DuplicateKeys bool
}

// Description returns NixOS's: "atom (null, bool, int, float or string)",
// with " or a list of them for duplicate keys" when lists are values.
func (t FormatAtom) Description() string {
	d := t.Name + " (null, bool, int, float or string)"
	switch {
	case t.DuplicateKeys:
		d += " or a list of them for duplicate keys"
	case t.Lists:
		d += " or a list of them"
	}
	return d
}

func (FormatAtom) descriptionClass() class { return classConjunction }
func (t FormatAtom) check(v cty.Value) bool {
	return formatScalar(v) || (t.Lists && isList(v))
}

// formatScalar reports whether v is a single atom of a keyValue or INI
// format.
func formatScalar(v cty.Value) bool {
	ty := v.Type()
	return v.IsNull() || ty == cty.Bool || ty == cty.Number || ty == cty.String
}

// Merge concatenates when a definition is a list, else requires equal
// values (null only with null).
func (t FormatAtom) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	vals, unknown, diags := checkedValues(loc, t, defs)
	if unknown || diags.HasErrors() || len(vals) == 0 {
		return cty.DynamicVal, diags
	}
	anyList, nulls := false, 0
	for _, d := range vals {
		anyList = anyList || isList(d.Value)
		if d.Value.IsNull() {
			nulls++
		}
	}
	switch {
	case !anyList && nulls == len(vals):
		return cty.NullVal(cty.DynamicPseudoType), diags
	case !anyList && nulls > 0:
		return cty.DynamicVal, append(diags, conflictError(loc, t, vals, "some of them are null and others are not"))
	case !anyList:
		return mergeEqual(loc, t, vals)
	}
	v, d := concatAtoms(loc, t, vals, formatScalar)
	return v, append(diags, d...)
}

// IniSection is the type of a section of an INI file: an attribute set of
// atoms, merged key by key.
type IniSection struct{ Atom FormatAtom }

// Description returns NixOS's: "section of an INI file (attrs of ATOM)".
func (t IniSection) Description() string {
	return "section of an INI file (attrs of " + t.Atom.Description() + ")"
}
func (IniSection) descriptionClass() class { return classComposite }
func (IniSection) check(v cty.Value) bool  { return isAttrSet(v) }

// Merge merges the keys, each with the atom's merge.
func (t IniSection) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	return mergeByKey(loc, t, t.Atom, defs)
}

// IniWithGlobalSection is the type of an INI file with a global section,
// NixOS's iniWithGlobalSection: an attribute set of two parts,
// globalSection (the keys before the first section) and sections (an
// attribute set of sections), both empty when not defined.
type IniWithGlobalSection struct{ Section IniSection }

// Description returns "INI file with a global section (globalSection and
// sections)".
func (IniWithGlobalSection) Description() string {
	return "INI file with a global section (globalSection and sections)"
}
func (IniWithGlobalSection) descriptionClass() class { return classNoun }
func (IniWithGlobalSection) check(v cty.Value) bool  { return isAttrSet(v) }

// Merge merges each part with its type; any other name is an error at
// its definition.
func (t IniWithGlobalSection) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	groups, unknown, diags := attrsByKey(loc, t, defs)
	out := map[string]cty.Value{"globalSection": cty.EmptyObjectVal, "sections": cty.EmptyObjectVal}
	for _, g := range groups {
		k := g.key
		var part Type
		switch k {
		case "globalSection":
			part = t.Section
		case "sections":
			part = AttrsOf{Elem: t.Section}
		default:
			diags = append(diags, errorAt(CodeType, loc.Child(k), g.defs[0].Range,
				fmt.Sprintf("Option \"%s\" does not exist", loc.Child(k).String()),
				fmt.Sprintf("The option \"%s\" is an INI file with a global section, which has two parts: globalSection, the keys before the first section, and sections, an attribute set of sections. %q is neither.", loc.String(), k)))
			continue
		}
		r, ds := MergeDefinitions(loc.Child(k), part, g.defs)
		diags = append(diags, ds...)
		if r.Defined {
			out[k] = r.Value
		}
	}
	return unknownOr(ctyelems.ObjectVal(out), diags, unknown), diags
}
