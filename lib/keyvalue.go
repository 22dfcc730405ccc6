package lib

import (
	"fmt"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/nodegen/nodegen/internal/ctyelems"
)

// KeyValueEncodeFunc is keyvalueencode(value, options): value, an object of
// keys, as a key-value file such as sshd_config, one "KEY<separator>VALUE"
// line per key, keys sorted; NixOS's pkgs.formats.keyValue.
//
// options is an object whose attributes are all optional:
//
//   - separator: what goes between key and value ("=");
//   - listsAsDuplicateKeys: whether a list writes the key once per element
//     (false);
//   - listSeparator: when lists are not duplicate keys, what joins their
//     elements on one line (" ");
//   - true, false: how booleans are written ("true", "false").
//
// A value is a string as it is, a whole number as an integer; null, and a
// null element of a list, is left out. A value that is an object, a list
// inside a list, a key or a value holding a newline, and an empty key or one
// holding the separator are errors.
var KeyValueEncodeFunc = native(&function.Spec{
	Description: "Encodes an object of keys as a key-value file (KEY<separator>VALUE lines, sorted), NixOS's pkgs.formats.keyValue.",
	Params: []function.Parameter{
		{Name: "value", Type: cty.DynamicPseudoType, AllowDynamicType: true},
		{Name: "options", Type: cty.DynamicPseudoType, AllowDynamicType: true},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		if !ctyelems.WhollyKnown(args[1]) {
			return cty.UnknownVal(cty.String), nil
		}
		opts, err := keyValueOptions(args[1])
		if err != nil {
			return cty.NilVal, function.NewArgError(1, err)
		}
		return encodeWith(args[0], opts.encode)
	},
})

// keyValueFormat is how keyvalueencode writes a file, and the keys of an
// INI file.
type keyValueFormat struct {
	separator     string
	duplicateKeys bool
	listSeparator string
	yes, no       string
	// listsSet is whether listsAsDuplicateKeys or listSeparator was given:
	// a format's type then accepts lists.
	listsSet bool
	// ini is whether the keys are an INI file's: stricter keys, and
	// messages that say INI.
	ini bool
}

// keyValueOptions reads the options argument of keyvalueencode, and the
// parameters of a keyValue or INI format (with the given defaults).
func keyValueOptions(v cty.Value) (keyValueFormat, error) {
	return keyValueFormat{separator: "=", listSeparator: " ", yes: "true", no: "false"}.withOptions(v, nil)
}

// withOptions reads options (an object) into f; ignore lists the names
// that are no option but may be there (a format value's kind).
func (f keyValueFormat) withOptions(v cty.Value, ignore []string) (keyValueFormat, error) {
	v = ctyelems.Unmarked(v)
	if v.IsNull() || (!v.Type().IsObjectType() && !v.Type().IsMapType()) {
		return f, fmt.Errorf("the options are an object, not %s", v.Type().FriendlyName())
	}
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		name := k.AsString()
		switch name {
		case "listsAsDuplicateKeys":
			if e.Type() != cty.Bool || e.IsNull() {
				return f, fmt.Errorf("option %q is a bool", name)
			}
			f.duplicateKeys = e.True()
			f.listsSet = f.listsSet || e.True()
			continue
		case "separator", "listSeparator", "true", "false":
		default:
			if slices.Contains(ignore, name) {
				continue
			}
			return f, fmt.Errorf("unknown option %q (expected separator, listsAsDuplicateKeys, listSeparator, true, false)", name)
		}
		if e.Type() != cty.String || e.IsNull() {
			return f, fmt.Errorf("option %q is a string", name)
		}
		s := e.AsString()
		if strings.ContainsAny(s, "\n\r") {
			return f, fmt.Errorf("option %q cannot hold a newline", name)
		}
		switch name {
		case "separator":
			if s == "" {
				return f, fmt.Errorf("the separator cannot be empty")
			}
			f.separator = s
		case "listSeparator":
			f.listSeparator = s
			f.listsSet = true
		case "true":
			f.yes = s
		case "false":
			f.no = s
		}
	}
	return f, nil
}

// encode writes v as a key-value file.
func (f keyValueFormat) encode(v cty.Value) (string, error) {
	ty := v.Type()
	if !ty.IsObjectType() && !ty.IsMapType() {
		return "", encodeErrorf(nil, "a key-value file is an object or a map, not %s", ty.FriendlyName())
	}
	var b strings.Builder
	for it := v.ElementIterator(); it.Next(); { // in key order
		k, e := it.Element()
		if err := f.writeKey(&b, k.AsString(), e, cty.GetAttrPath(k.AsString())); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// badKey reports whether key cannot be written: empty, padded, holding a
// newline or the separator; in an INI file also "=" or a leading "[", ";"
// or "#".
func (f keyValueFormat) badKey(key string) bool {
	if key == "" || strings.TrimSpace(key) != key || strings.ContainsAny(key, "\n\r") || strings.Contains(key, f.separator) {
		return true
	}
	return f.ini && (strings.Contains(key, "=") || key[0] == '[' || key[0] == ';' || key[0] == '#')
}

// writeKey writes the lines of one key: none if v is null, one for a
// scalar; for a list, one per element (duplicate keys) or one line of the
// elements joined.
func (f keyValueFormat) writeKey(b *strings.Builder, key string, v cty.Value, path cty.Path) error {
	if v.IsNull() {
		return nil
	}
	if f.badKey(key) {
		if f.ini {
			return encodeErrorf(path, "%q cannot be an INI key", key)
		}
		return encodeErrorf(path, "%q cannot be a key", key)
	}
	ty := v.Type()
	if !ty.IsListType() && !ty.IsSetType() && !ty.IsTupleType() {
		s, err := f.scalar(v, path)
		if err != nil {
			return err
		}
		b.WriteString(key + f.separator + s + "\n")
		return nil
	}
	var elems []string
	for et := v.ElementIterator(); et.Next(); {
		i, x := et.Element()
		if x.IsNull() {
			continue
		}
		s, err := f.scalar(x, path.Index(i))
		if err != nil {
			return err
		}
		elems = append(elems, s)
	}
	switch {
	case f.duplicateKeys:
		for _, s := range elems {
			b.WriteString(key + f.separator + s + "\n")
		}
	case len(elems) > 0:
		b.WriteString(key + f.separator + strings.Join(elems, f.listSeparator) + "\n")
	}
	return nil
}

// scalar writes one value: a string, a number or a bool.
func (f keyValueFormat) scalar(v cty.Value, path cty.Path) (string, error) {
	what, sections := "a value", "(a key-value file has no sections)"
	if f.ini {
		what, sections = "an INI value", "(INI has no nested sections)"
	}
	switch ty := v.Type(); {
	case ty == cty.Bool:
		if v.True() {
			return f.yes, nil
		}
		return f.no, nil
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
			return "", encodeErrorf(path, "%s cannot contain a newline", what)
		}
		return s, nil
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		return "", encodeErrorf(path, "%s cannot be a list inside a list", what)
	case ty.IsObjectType() || ty.IsMapType():
		return "", encodeErrorf(path, "%s cannot be an object %s", what, sections)
	}
	return "", notEncodable(v, path)
}
