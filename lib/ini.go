package lib

import (
	"strconv"
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
		return encodeWith(args[0], encodeINI)
	},
})

// encodeINI writes v as an INI file.
func encodeINI(v cty.Value) (string, error) {
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
			if err := iniKey(&global, name, e, path); err != nil {
				return "", err
			}
			continue
		}
		if name == "" || strings.ContainsAny(name, "]\n\r") {
			return "", encodeErrorf(path, "%q cannot be an INI section name", name)
		}
		var sect strings.Builder
		sect.WriteString("[" + name + "]\n")
		for st := e.ElementIterator(); st.Next(); {
			sk, se := st.Element()
			if err := iniKey(&sect, sk.AsString(), se, path.GetAttr(sk.AsString())); err != nil {
				return "", err
			}
		}
		sections = append(sections, sect.String())
	}
	out := global.String()
	for _, s := range sections {
		if out != "" {
			out += "\n"
		}
		out += s
	}
	return out, nil
}

// iniKey writes the lines of one key: none if v is null, one for a scalar,
// one for each element of a list.
func iniKey(b *strings.Builder, key string, v cty.Value, path cty.Path) error {
	if v.IsNull() {
		return nil
	}
	if key == "" || strings.TrimSpace(key) != key || strings.ContainsAny(key, "=\n\r") || key[0] == '[' || key[0] == ';' || key[0] == '#' {
		return encodeErrorf(path, "%q cannot be an INI key", key)
	}
	ty := v.Type()
	if !ty.IsListType() && !ty.IsSetType() && !ty.IsTupleType() {
		s, err := iniValue(v, path)
		if err != nil {
			return err
		}
		b.WriteString(key + "=" + s + "\n")
		return nil
	}
	for it := v.ElementIterator(); it.Next(); {
		i, e := it.Element()
		if e.IsNull() {
			continue
		}
		s, err := iniValue(e, path.Index(i))
		if err != nil {
			return err
		}
		b.WriteString(key + "=" + s + "\n")
	}
	return nil
}

// iniValue writes a scalar value.
func iniValue(v cty.Value, path cty.Path) (string, error) {
	switch ty := v.Type(); {
	case ty == cty.Bool:
		return strconv.FormatBool(v.True()), nil
	case ty == cty.Number:
		bf := v.AsBigFloat()
		if bf.IsInf() {
			if bf.Sign() > 0 {
				return "inf", nil
			}
			return "-inf", nil
		}
		return formatNumber(bf), nil
	case ty == cty.String:
		s := v.AsString()
		if strings.ContainsAny(s, "\n\r") {
			return "", encodeErrorf(path, "an INI value cannot contain a newline")
		}
		return s, nil
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		return "", encodeErrorf(path, "an INI value cannot be a list inside a list")
	case ty.IsObjectType() || ty.IsMapType():
		return "", encodeErrorf(path, "an INI value cannot be an object (INI has no nested sections)")
	}
	return "", notEncodable(v, path)
}
