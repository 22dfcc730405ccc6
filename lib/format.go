package lib

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/nodegen/nodegen/internal/ctyelems"
)

// The kinds of file format, NixOS's pkgs.formats: a format "NAME" "KIND"
// block names one with its parameters.
const (
	FormatJSON                 = "json"
	FormatYAML                 = "yaml"
	FormatTOML                 = "toml"
	FormatINI                  = "ini"
	FormatINIWithGlobalSection = "iniWithGlobalSection"
	FormatKeyValue             = "keyValue"
)

// FormatKinds lists the kinds of format, sorted.
var FormatKinds = []string{FormatINI, FormatINIWithGlobalSection, FormatJSON, FormatKeyValue, FormatTOML, FormatYAML}

// Format is a file format with its parameters, as NixOS's
// `pkgs.formats.keyValue { ... }`: the options package makes its type (what
// a value of the format is, and how definitions merge), and Encode writes
// a value as a file.
type Format struct {
	// Kind is one of FormatKinds.
	Kind string
	// params are the parameters as given, an object.
	params cty.Value
	// kv is how keyValue and the INI formats write keys.
	kv keyValueFormat
}

// NewFormat checks a format's parameters (an object; null for none) and
// returns the format. keyValue, ini and iniWithGlobalSection take
// keyvalueencode's options: separator, listsAsDuplicateKeys,
// listSeparator, true, false; listsAsDuplicateKeys and listSeparator
// exclude each other, as NixOS's listsAsDuplicateKeys and listToValue do.
// json, yaml and toml take none.
func NewFormat(kind string, params cty.Value) (Format, error) {
	if params.IsNull() {
		params = cty.EmptyObjectVal
	}
	f := Format{Kind: kind, params: params}
	switch kind {
	case FormatJSON, FormatYAML, FormatTOML:
		if !params.Type().IsObjectType() || params.LengthInt() > 0 {
			return f, fmt.Errorf("the %s format takes no parameters", kind)
		}
		return f, nil
	case FormatKeyValue, FormatINI, FormatINIWithGlobalSection:
	default:
		return f, fmt.Errorf("unknown format %q (expected one of %s)", kind, strings.Join(FormatKinds, ", "))
	}
	kv, err := keyValueFormat{separator: "=", listSeparator: " ", yes: "true", no: "false", ini: kind != FormatKeyValue}.withOptions(params, []string{"kind"})
	if err != nil {
		return f, err
	}
	if kv.duplicateKeys && hasAttr(params, "listSeparator") {
		return f, fmt.Errorf("listsAsDuplicateKeys and listSeparator exclude each other: a list is either its key repeated or one line")
	}
	f.kv = kv
	return f, nil
}

func hasAttr(v cty.Value, name string) bool {
	return v.Type().IsObjectType() && ctyelems.HasAttr(v.Type(), name)
}

// Lists reports whether a key of a keyValue or INI format may hold a list:
// when listsAsDuplicateKeys is true or listSeparator is given.
func (f Format) Lists() bool { return f.kv.listsSet }

// DuplicateKeys reports whether a list is written as its key repeated.
func (f Format) DuplicateKeys() bool { return f.kv.duplicateKeys }

// Value is the format as a value, what format.NAME evaluates to: an
// object of its parameters and its kind, which formatencode takes.
func (f Format) Value() cty.Value {
	attrs := map[string]cty.Value{"kind": cty.StringVal(f.Kind)}
	for it := f.params.ElementIterator(); it.Next(); {
		k, v := it.Element()
		if k.AsString() != "kind" {
			attrs[k.AsString()] = v
		}
	}
	return ctyelems.ObjectVal(attrs)
}

// FormatOf reads a format from its value (see Value).
func FormatOf(v cty.Value) (Format, error) {
	v = ctyelems.Unmarked(v)
	if v.IsNull() || !v.Type().IsObjectType() || !ctyelems.HasAttr(v.Type(), "kind") {
		return Format{}, fmt.Errorf("a format is an object with a kind, such as format.NAME where a format \"NAME\" \"KIND\" block declares it; this is %s", v.Type().FriendlyName())
	}
	kind := v.GetAttr("kind")
	if kind.IsNull() || kind.Type() != cty.String {
		return Format{}, fmt.Errorf("the kind of a format is a string")
	}
	params := map[string]cty.Value{}
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if k.AsString() != "kind" {
			params[k.AsString()] = e
		}
	}
	return NewFormat(kind.AsString(), ctyelems.ObjectVal(params))
}

// Encode writes v as a file of the format: JSON indented by two spaces
// (as NixOS's jq . does), YAML and TOML as yamlencode and tomlencode, a
// key-value file as keyvalueencode with the format's parameters, an INI
// file of sections (ini) or of globalSection and sections
// (iniWithGlobalSection), each key written as the format's parameters say.
func (f Format) Encode(v cty.Value) (string, error) {
	switch f.Kind {
	case FormatJSON:
		var compact bytes.Buffer
		if !encodeJSON(&compact, v) {
			return "", encodeErrorf(nil, "cannot encode %s as JSON", v.Type().FriendlyName())
		}
		var out bytes.Buffer
		if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
			return "", err
		}
		out.WriteByte('\n')
		return out.String(), nil
	case FormatYAML:
		return encodeYAML(v)
	case FormatTOML:
		return encodeTOML(v)
	case FormatKeyValue:
		return f.kv.encode(v)
	case FormatINI:
		return f.kv.encodeSections(cty.NilVal, v, nil)
	case FormatINIWithGlobalSection:
		return f.encodeWithGlobalSection(v)
	}
	return "", fmt.Errorf("unknown format %q", f.Kind)
}

// encodeWithGlobalSection writes an object of globalSection (the keys
// before the first section) and sections.
func (f Format) encodeWithGlobalSection(v cty.Value) (string, error) {
	if v.IsNull() || (!v.Type().IsObjectType() && !v.Type().IsMapType()) {
		return "", encodeErrorf(nil, "an INI file with a global section is an object of globalSection and sections, not %s", v.Type().FriendlyName())
	}
	global, sections := cty.EmptyObjectVal, cty.EmptyObjectVal
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		switch k.AsString() {
		case "globalSection":
			global = e
		case "sections":
			sections = e
		default:
			return "", encodeErrorf(cty.GetAttrPath(k.AsString()), "an INI file with a global section has globalSection and sections, not %q", k.AsString())
		}
	}
	return f.kv.encodeSections(global, sections, cty.GetAttrPath("sections"))
}

// encodeSections writes an INI file: the keys of global (an object, or nil
// for none), then each section of sections, found at path.
func (f keyValueFormat) encodeSections(global, sections cty.Value, path cty.Path) (string, error) {
	var b strings.Builder
	if global != cty.NilVal && !global.IsNull() {
		if !global.Type().IsObjectType() && !global.Type().IsMapType() {
			return "", encodeErrorf(cty.GetAttrPath("globalSection"), "the global section is an object, not %s", global.Type().FriendlyName())
		}
		for it := global.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if err := f.writeKey(&b, k.AsString(), e, cty.GetAttrPath("globalSection").GetAttr(k.AsString())); err != nil {
				return "", err
			}
		}
	}
	if sections.IsNull() {
		return b.String(), nil
	}
	if !sections.Type().IsObjectType() && !sections.Type().IsMapType() {
		return "", encodeErrorf(path, "the sections of an INI file are an object, not %s", sections.Type().FriendlyName())
	}
	var out []string
	for it := sections.ElementIterator(); it.Next(); {
		k, e := it.Element()
		p := append(path.Copy(), cty.GetAttrStep{Name: k.AsString()})
		if e.IsNull() {
			continue
		}
		if !e.Type().IsObjectType() && !e.Type().IsMapType() {
			return "", encodeErrorf(p, "a section of an INI file is an object of keys, not %s", e.Type().FriendlyName())
		}
		s, err := f.iniSection(k.AsString(), e, p)
		if err != nil {
			return "", err
		}
		out = append(out, s)
	}
	return joinINI(b.String(), out), nil
}

// FormatEncodeFunc is formatencode(format, value): value written as a file
// of format (format.NAME, declared by a format "NAME" "KIND" block); see
// Format.Encode.
var FormatEncodeFunc = native(&function.Spec{
	Description: "Encodes a value as a file of the given format (format.NAME), NixOS's (pkgs.formats.KIND {}).generate.",
	Params: []function.Parameter{
		{Name: "format", Type: cty.DynamicPseudoType, AllowDynamicType: true},
		{Name: "value", Type: cty.DynamicPseudoType, AllowNull: true, AllowDynamicType: true},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		if !args[0].IsWhollyKnown() {
			return cty.UnknownVal(cty.String), nil
		}
		f, err := FormatOf(args[0])
		if err != nil {
			return cty.NilVal, function.NewArgError(0, err)
		}
		if !args[1].IsWhollyKnown() {
			return cty.UnknownVal(cty.String), nil
		}
		v := ctyelems.Unmarked(args[1])
		if v.IsNull() && f.Kind != FormatJSON && f.Kind != FormatYAML {
			return cty.NilVal, function.NewArgError(1, fmt.Errorf("a %s file cannot be null", f.Kind))
		}
		s, err := f.Encode(v)
		if err != nil {
			return cty.NilVal, function.NewArgError(1, err)
		}
		return cty.StringVal(s), nil
	},
})
