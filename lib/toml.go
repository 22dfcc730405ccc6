package lib

import (
	"bytes"

	"github.com/pelletier/go-toml/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// TOMLEncodeFunc is tomlencode(v): v, an object or map, as a TOML document,
// written with pelletier/go-toml/v2.
//
// Keys are sorted. Within a table the plain keys come first, then the
// tables: an object or map inside v is a [table], and a list of objects an
// [[array of tables]]; objects inside other lists are inline tables. A
// whole number is a TOML integer (it is an error if it does not fit in 64
// bits), any other number a float. TOML has no null: an attribute whose
// value is null is left out, and null anywhere else is an error.
var TOMLEncodeFunc = native(&function.Spec{
	Description: "Encodes the given object as a TOML document, with sorted keys.",
	Params: []function.Parameter{
		{Name: "value", Type: cty.DynamicPseudoType, AllowDynamicType: true},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return encodeWith(args[0], encodeTOML)
	},
})

// encodeTOML writes v as a TOML document.
func encodeTOML(v cty.Value) (string, error) {
	ty := v.Type()
	if !ty.IsObjectType() && !ty.IsMapType() {
		return "", encodeErrorf(nil, "a TOML document is an object or a map, not %s", ty.FriendlyName())
	}
	doc, err := tomlValue(v, nil)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(doc); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// tomlValue converts v, found at path inside the encoded value, to the Go
// value that go-toml writes as v: map[string]any, []any, int64, float64,
// string or bool.
func tomlValue(v cty.Value, path cty.Path) (any, error) {
	if v.IsNull() {
		return nil, encodeErrorf(path, "TOML has no null")
	}
	ty := v.Type()
	switch {
	case ty == cty.Bool:
		return v.True(), nil
	case ty == cty.Number:
		bf := v.AsBigFloat()
		if bf.IsInt() {
			i, ok := wholeInt64(bf)
			if !ok {
				return nil, encodeErrorf(path, "%s is too large for a TOML integer", formatNumber(bf))
			}
			return i, nil
		}
		return number64(bf), nil
	case ty == cty.String:
		return v.AsString(), nil
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		list := make([]any, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			te, err := tomlValue(e, append(path, cty.IndexStep{Key: k}))
			if err != nil {
				return nil, err
			}
			list = append(list, te)
		}
		return list, nil
	case ty.IsMapType() || ty.IsObjectType():
		table := make(map[string]any, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if e.IsNull() {
				continue
			}
			te, err := tomlValue(e, append(path, cty.GetAttrStep{Name: k.AsString()}))
			if err != nil {
				return nil, err
			}
			table[k.AsString()] = te
		}
		return table, nil
	}
	return nil, notEncodable(v, path)
}
