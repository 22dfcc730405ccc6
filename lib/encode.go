package lib

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"sync"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"go.yaml.in/yaml/v3"

	"github.com/nodegen/nodegen/internal/ctyelems"
)

// The encoders share these rules, so that a value looks the same in every
// format the library writes:
//
//   - Keys of objects and maps are written in lexicographic order, and the
//     output of a value is always the same.
//   - A whole number is written as an integer (42, never 42.0 or 4.2e1);
//     any other number as a decimal fraction with the fewest digits that
//     identify its float64 value (0.1, not 0.1000000000000000055511).
//   - Lists, sets and tuples are sequences; maps and objects are mappings.
//   - Only plain values can be encoded: a thunk, a namespace or a
//     definition property (mkIf & co.) inside the value is an error.

// YAMLEncodeFunc is yamlencode(v): v as a YAML document, written with
// go.yaml.in/yaml/v3 and two-space indentation. Mapping keys are sorted;
// strings that a YAML 1.1 or 1.2 reader would take for something else
// ("true", "yes", "off", "42", "1e3", "0x1F", "null", "", ...) are
// double-quoted; strings with a newline are literal blocks; null is null.
var YAMLEncodeFunc = native(&function.Spec{
	Description: "Encodes the given value as a YAML document, with sorted keys.",
	Params: []function.Parameter{
		{Name: "value", Type: cty.DynamicPseudoType, AllowNull: true, AllowDynamicType: true},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return encodeWith(args[0], encodeYAML)
	},
})

// encodeWith calls an encoder on a function's argument: on its deeply
// unmarked value if it is wholly known, else the result is unknown.
func encodeWith(v cty.Value, enc func(cty.Value) (string, error)) (cty.Value, error) {
	if !ctyelems.WhollyKnown(v) {
		return cty.UnknownVal(cty.String), nil
	}
	v = ctyelems.Unmarked(v)
	s, err := enc(v)
	if err != nil {
		return cty.NilVal, function.NewArgError(0, err)
	}
	return cty.StringVal(s), nil
}

// encodeYAML writes v as a YAML document.
func encodeYAML(v cty.Value) (string, error) {
	n, err := yamlNode(v, nil)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// yamlNode converts v, found at path inside the encoded value, to a YAML
// node.
func yamlNode(v cty.Value, path cty.Path) (*yaml.Node, error) {
	scalar := func(tag, s string) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: s}
	}
	if v.IsNull() {
		return scalar("!!null", "null"), nil
	}
	ty := v.Type()
	switch {
	case ty == cty.Bool:
		return scalar("!!bool", strconv.FormatBool(v.True())), nil
	case ty == cty.Number:
		// Untagged, so that a whole number too large for an int64 is
		// not written with an explicit !!int.
		bf := v.AsBigFloat()
		switch {
		case bf.IsInf() && bf.Sign() > 0:
			return scalar("", ".inf"), nil
		case bf.IsInf():
			return scalar("", "-.inf"), nil
		}
		return scalar("", formatNumber(bf)), nil
	case ty == cty.String:
		n := scalar("!!str", v.AsString())
		if yamlNeedsQuotes(n.Value) {
			n.Style = yaml.DoubleQuotedStyle
		}
		return n, nil
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			en, err := yamlNode(e, append(path, cty.IndexStep{Key: k}))
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, en)
		}
		return n, nil
	case ty.IsMapType() || ty.IsObjectType():
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for k, e := range ctyelems.Attrs(v) { // in key order
			en, err := yamlNode(e, append(path, cty.GetAttrStep{Name: k}))
			if err != nil {
				return nil, err
			}
			kn, _ := yamlNode(cty.StringVal(k), nil)
			n.Content = append(n.Content, kn, en)
		}
		return n, nil
	}
	return nil, notEncodable(v, path)
}

// yamlOldNonString matches the plain scalars that YAML 1.1 readers take for
// booleans, numbers or null, and that yaml.v3 (a YAML 1.2 writer) would
// otherwise leave unquoted. It errs on the side of quoting: "1.2.3" is
// quoted too, which is harmless. It is compiled when first used, not at
// every start of the command (2 M instructions, which a command that
// writes no YAML need not spend).
var yamlOldNonString = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:[yYnN]|[yY]es|YES|[nN]o|NO|[oO]n|ON|[oO]ff|OFF|[tT]rue|TRUE|[fF]alse|FALSE|~|[nN]ull|NULL|[-+]?\.?[0-9][0-9a-fA-FxXoObB_.:eE+-]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|<<|=)$`)
})

// yamlNeedsQuotes reports whether s must be written quoted to be read back
// as a string by any YAML reader. yaml.v3 quotes what YAML 1.2 resolves to
// another type; this adds YAML 1.1's booleans and number forms, and the
// empty string.
func yamlNeedsQuotes(s string) bool {
	return s == "" || yamlOldNonString().MatchString(s)
}

// formatNumber writes a finite number: a whole number as an integer with
// all its digits, any other as the shortest decimal fraction that
// identifies its float64 value.
func formatNumber(bf *big.Float) string {
	if bf.IsInt() {
		i, _ := bf.Int(nil)
		return i.String()
	}
	f, _ := bf.Float64()
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// wholeInt64 returns a number as an int64 if it is whole and fits.
func wholeInt64(bf *big.Float) (int64, bool) {
	if !bf.IsInt() {
		return 0, false
	}
	i, acc := bf.Int64()
	return i, acc == big.Exact
}

// number64 returns a number that is not whole as a float64 (±Inf for the
// infinities).
func number64(bf *big.Float) float64 {
	if bf.IsInf() {
		return math.Inf(bf.Sign())
	}
	f, _ := bf.Float64()
	return f
}

// notEncodable is the error for a value of a type no encoder writes.
func notEncodable(v cty.Value, path cty.Path) error {
	return encodeErrorf(path, "cannot encode a value of type %s", v.Type().FriendlyName())
}

// encodeErrorf makes an encoder's error about the value at path inside the
// encoded value. The message names the path, if it is not the whole value.
func encodeErrorf(path cty.Path, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if len(path) > 0 {
		msg = "at " + pathString(path) + ": " + msg
	}
	return path.NewErrorf("%s", msg)
}

// pathString writes a path inside a value the way an HCL expression would
// reach it: .name for an attribute with an identifier's name, ["key"] for
// any other key, [0] for an index.
func pathString(path cty.Path) string {
	var b bytes.Buffer
	for _, step := range path {
		switch s := step.(type) {
		case cty.GetAttrStep:
			if hclsyntax.ValidIdentifier(s.Name) {
				b.WriteString("." + s.Name)
			} else {
				fmt.Fprintf(&b, "[%q]", s.Name)
			}
		case cty.IndexStep:
			switch {
			case s.Key.Type() == cty.Number:
				b.WriteString("[" + s.Key.AsBigFloat().Text('f', -1) + "]")
			case s.Key.Type() == cty.String:
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			default:
				b.WriteString("[...]")
			}
		}
	}
	out := b.String()
	if len(out) > 0 && out[0] == '.' {
		out = out[1:]
	}
	return out
}
