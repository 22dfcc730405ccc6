package lib

import (
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// INIEncodeFunc is iniencode(v): v, an object or map, as an INI file.
//
// Each attribute of v whose value is an object or map is a section:
// "[name]", then one "key=value" line for each of its attributes. The other
// attributes of v come first, before any section, in the same form. Keys
// and sections are sorted, and a blank line separates the sections. A value
// is a string as it is, a number (a whole number as an integer), or a bool
// as true or false; a list, set or tuple of those is the key repeated once
// for each element. An attribute whose value is null is left out, and so is
// a null element of a list.
//
// It is an error if a section holds an object (INI has no nested
// sections), if a list holds a list or an object, or if a key, a section
// name or a value could not be read back: a newline anywhere, "=" in a key,
// "]" in a section name, or an empty or padded key.
var INIEncodeFunc = native(&function.Spec{
	Description: "Encodes the given object as an INI file: an object of sections, each an object of keys.",
	Params: []function.Parameter{
		{Name: "value", Type: cty.DynamicPseudoType, AllowDynamicType: true},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return encodeWith(args[0], iniencodeFormat.encodeINI)
	},
})

// iniencodeFormat is how iniencode writes keys: "key=value", booleans as
// true and false, a list as the key repeated.
var iniencodeFormat = keyValueFormat{separator: "=", duplicateKeys: true, listSeparator: " ", yes: "true", no: "false", ini: true}

// encodeINI writes v as an INI file: its attributes that are objects are
// sections, the others keys before the first section.
func (f keyValueFormat) encodeINI(v cty.Value) (string, error) {
	ty := v.Type()
	if !ty.IsObjectType() && !ty.IsMapType() {
		return "", encodeErrorf(nil, "an INI file is an object or a map, not %s", ty.FriendlyName())
	}
	var global strings.Builder
	var sections []string
	for it := v.ElementIterator(); it.Next(); { // in key order
		k, e := it.Element()
		name := k.AsString()
		path := cty.GetAttrPath(name)
		if e.IsNull() {
			continue
		}
		if ety := e.Type(); !ety.IsObjectType() && !ety.IsMapType() {
			if err := f.writeKey(&global, name, e, path); err != nil {
				return "", err
			}
			continue
		}
		s, err := f.iniSection(name, e, path)
		if err != nil {
			return "", err
		}
		sections = append(sections, s)
	}
	return joinINI(global.String(), sections), nil
}

// iniSection writes one section: its header, then its keys.
func (f keyValueFormat) iniSection(name string, v cty.Value, path cty.Path) (string, error) {
	if name == "" || strings.ContainsAny(name, "]\n\r") {
		return "", encodeErrorf(path, "%q cannot be an INI section name", name)
	}
	var sect strings.Builder
	sect.WriteString("[" + name + "]\n")
	for st := v.ElementIterator(); st.Next(); {
		sk, se := st.Element()
		if err := f.writeKey(&sect, sk.AsString(), se, path.GetAttr(sk.AsString())); err != nil {
			return "", err
		}
	}
	return sect.String(), nil
}

// joinINI puts the global keys and the sections together, a blank line
// between two parts.
func joinINI(global string, sections []string) string {
	out := global
	for _, s := range sections {
		if out != "" {
			out += "\n"
		}
		out += s
	}
	return out
}
