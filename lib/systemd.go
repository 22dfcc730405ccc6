package lib

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/property"
)

// SystemdUnitFunc renders a systemd unit file from an object of sections; it
// is the HCL function systemdunit. See RenderUnit for the rules.
//
//	text = systemdunit({
//	  Unit    = { Description = "x", After = ["network.target"] }
//	  Service = { ExecStart = "/bin/x", Environment = { A = "1" } }
//	  Install = { WantedBy = ["multi-user.target"] }
//	})
var SystemdUnitFunc = native(&function.Spec{
	Description: "Renders a systemd unit file from an object of sections, each an object of keys.",
	Params: []function.Parameter{{
		Name:             "sections",
		Description:      "An object of sections (Unit, Service, Install, ...), each an object of keys.",
		Type:             cty.DynamicPseudoType,
		AllowDynamicType: true,
	}},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		s, err := RenderUnit(args[0])
		if err != nil {
			return cty.UnknownVal(cty.String), function.NewArgError(0, err)
		}
		return cty.StringVal(s), nil
	},
})

// unitTypeSections are the sections specific to a unit type, in the order
// they are written after [Unit].
var unitTypeSections = []string{"Service", "Socket", "Timer", "Path", "Mount", "Automount", "Swap", "Slice", "Scope"}

// unitSpaceJoined are the keys whose list values NixOS joins with spaces on
// one line; the values of every other list key are written one per line,
// the key repeated.
var unitSpaceJoined = map[string]bool{
	"After": true, "Before": true, "Wants": true, "Requires": true,
	"WantedBy": true, "RequiredBy": true, "BindsTo": true, "PartOf": true,
	"Conflicts": true, "Documentation": true, "Requisite": true,
	"Upholds": true, "OnFailure": true,
}

// RenderUnit renders a systemd unit file from sections, an object (or map)
// whose attributes are sections, each an object (or map) of keys.
//
// Sections are written in a canonical order: Unit, then the type's section
// (Service, Socket, Timer, Path, Mount, Automount, Swap, Slice, Scope), then
// Install, then any others sorted by name; a section without keys is
// omitted, and sections are separated by a blank line. Keys are sorted
// within a section, and each value is written as follows:
//
//   - null is omitted;
//   - a string is written verbatim (so specifiers such as %i keep working);
//     it must not contain a NUL byte, nor a newline but for a continuation
//     (right after a backslash) or a final one, which ends the value and is
//     not written; nor end with a backslash (before that final newline),
//     which systemd would read as a line continuation;
//   - a bool is written true or false, a whole number as an integer, any
//     other number in decimal;
//   - a list (tuple, set) of the keys that NixOS joins with spaces (After,
//     Before, Wants, Requires, WantedBy, RequiredBy, BindsTo, PartOf,
//     Conflicts, Documentation, Requisite, Upholds, OnFailure) is written on
//     one line, space-separated; any other list repeats the key once per
//     element; an empty list writes nothing, and null elements are skipped;
//   - Environment given as an object (or map) writes one line per variable,
//     sorted by name, each assignment quoted the way systemd unquotes it:
//     Environment="A=1", with \ and " escaped, control characters as C
//     escapes and % doubled (systemd expands specifiers there; the
//     variables are data, not unit syntax). Variables whose value is null
//     are omitted. Environment given as a string or a list is unit syntax,
//     written verbatim as any other key.
//
// Thunks and namespace references inside sections are forced first. The
// result ends in a newline, unless no section has a key, when it is empty.
func RenderUnit(sections cty.Value) (string, error) {
	v, diags := property.Deep(sections)
	if diags.HasErrors() {
		return "", diags
	}
	v = ctyelems.Unmarked(v)
	if !ctyelems.WhollyKnown(v) {
		return "", errors.New("unit sections must be known")
	}
	if v.IsNull() {
		return "", errors.New("unit sections must not be null")
	}
	secs, err := unitAttrs(v, unitWhere{})
	if err != nil {
		return "", err
	}

	names := make([]string, 0, len(secs))
	for name := range secs {
		names = append(names, name)
	}
	rank := func(name string) int {
		if name == "Unit" {
			return 0
		}
		for i, s := range unitTypeSections {
			if name == s {
				return 1 + i
			}
		}
		if name == "Install" {
			return 1 + len(unitTypeSections)
		}
		return 2 + len(unitTypeSections)
	}
	sort.Slice(names, func(i, j int) bool {
		ri, rj := rank(names[i]), rank(names[j])
		if ri != rj {
			return ri < rj
		}
		return names[i] < names[j]
	})

	var out strings.Builder
	for _, name := range names {
		if err := unitCheckSectionName(name); err != nil {
			return "", err
		}
		sec := secs[name]
		if sec.IsNull() {
			continue
		}
		keys, err := unitAttrs(sec, unitWhere{section: name})
		if err != nil {
			return "", err
		}
		body, err := unitRenderSection(name, keys)
		if err != nil {
			return "", err
		}
		if body == "" {
			continue
		}
		if out.Len() > 0 {
			out.WriteByte('\n')
		}
		out.WriteString("[" + name + "]\n")
		out.WriteString(body)
	}
	return out.String(), nil
}

// unitAttrs returns the attributes of an object or the elements of a map.
func unitAttrs(v cty.Value, what unitWhere) (map[string]cty.Value, error) {
	ty := v.Type()
	if !ty.IsObjectType() && !ty.IsMapType() {
		return nil, fmt.Errorf("%s must be an object, not %s", what, ty.FriendlyName())
	}
	m := make(map[string]cty.Value, v.LengthInt())
	for k, e := range ctyelems.Attrs(v) {
		m[k] = e
	}
	return m, nil
}

// unitRenderSection renders the key lines of one section, keys sorted.
func unitRenderSection(section string, keys map[string]cty.Value) (string, error) {
	names := make([]string, 0, len(keys))
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, key := range names {
		if err := unitRenderKey(&b, section, key, keys[key]); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// unitRenderKey writes the lines of one key.
func unitRenderKey(b *strings.Builder, section, key string, v cty.Value) error {
	where := unitWhere{section: section, key: key}
	if err := unitCheckKey(key); err != nil {
		return fmt.Errorf("section %s: %w", section, err)
	}
	if v.IsNull() {
		return nil
	}
	ty := v.Type()
	switch {
	case key == "Environment" && (ty.IsObjectType() || ty.IsMapType()):
		vars, _ := unitAttrs(v, where)
		names := make([]string, 0, len(vars))
		for n := range vars {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if vars[n].IsNull() {
				continue
			}
			if n == "" || strings.ContainsAny(n, "=\x00") {
				return fmt.Errorf("%s: bad variable name %q", where, n)
			}
			s, err := unitScalar(vars[n], unitWhere{section: section, key: key, variable: n}, true)
			if err != nil {
				return err
			}
			// The variables are data: a % is doubled, so that systemd,
			// which expands specifiers in Environment=, reads it back.
			unitLine(b, key, unitQuote(strings.ReplaceAll(n+"="+s, "%", "%%")))
		}
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		var elems []string
		for _, e := range ctyelems.Elems(v) {
			if e.IsNull() {
				continue
			}
			s, err := unitScalar(e, where, false)
			if err != nil {
				return err
			}
			elems = append(elems, s)
		}
		if len(elems) == 0 {
			return nil
		}
		if unitSpaceJoined[key] {
			unitLine(b, key, strings.Join(elems, " "))
			return nil
		}
		for _, s := range elems {
			unitLine(b, key, s)
		}
	default:
		s, err := unitScalar(v, where, false)
		if err != nil {
			return err
		}
		unitLine(b, key, s)
	}
	return nil
}

// unitLine writes the line key=value.
func unitLine(b *strings.Builder, key, value string) {
	b.WriteString(key)
	b.WriteByte('=')
	b.WriteString(value)
	b.WriteByte('\n')
}

// unitWhere is where in a unit's sections a value is, as its errors name
// it: "unit sections", "section Service", "ExecStart in section Service"
// or "Environment in section Service, variable PATH". It is made into
// text only for an error.
type unitWhere struct {
	section, key, variable string
}

func (w unitWhere) String() string {
	switch {
	case w.section == "":
		return "unit sections"
	case w.key == "":
		return "section " + w.section
	case w.variable == "":
		return w.key + " in section " + w.section
	}
	return w.key + " in section " + w.section + ", variable " + w.variable
}

// unitScalar renders a string, number or bool. Unless quoted (the value is
// going to be quoted and escaped), it rejects what would break the line.
func unitScalar(v cty.Value, where unitWhere, quoted bool) (string, error) {
	var s string
	switch v.Type() {
	case cty.String:
		s = v.AsString()
	case cty.Bool:
		if v.True() {
			s = "true"
		} else {
			s = "false"
		}
	case cty.Number:
		bf := v.AsBigFloat()
		if bf.IsInt() {
			s = bf.Text('f', 0)
		} else {
			sv, err := convert.Convert(v, cty.String)
			if err != nil {
				return "", fmt.Errorf("%s: %w", where, err)
			}
			s = sv.AsString()
		}
	default:
		if v.Type().IsObjectType() || v.Type().IsMapType() {
			return "", fmt.Errorf("%s: an object is allowed only as the value of Environment", where)
		}
		return "", fmt.Errorf("%s: must be a string, number, bool or a list of them, not %s", where, v.Type().FriendlyName())
	}
	if strings.ContainsRune(s, 0) {
		return "", fmt.Errorf("%s: value contains a NUL byte", where)
	}
	if !utf8.ValidString(s) {
		return "", fmt.Errorf("%s: value is not valid UTF-8", where)
	}
	if !quoted {
		// A final newline ends the value, as it ends the key's line: a
		// heredoc ends in one.
		s = strings.TrimSuffix(s, "\n")
		if !ContinuedLines(s) {
			return "", fmt.Errorf("%s: value %q contains a line break that is not a continuation (a backslash right before the newline)", where, s)
		}
		if strings.HasSuffix(s, `\`) {
			return "", fmt.Errorf("%s: value %q ends with a backslash, which systemd reads as a line continuation", where, s)
		}
	}
	return s, nil
}

// ContinuedLines reports whether every line break in s continues the
// setting, as systemd reads a multi-line one: a newline right after a
// backslash ("/bin/foo \\\n  --bar", NixOS's multi-line ExecStart). A
// final newline ends the value (a heredoc ends in one; NixOS accepts the
// same indented string) and need not follow a backslash. A carriage
// return is never allowed.
func ContinuedLines(s string) bool {
	if strings.ContainsRune(s, '\r') {
		return false
	}
	s = strings.TrimSuffix(s, "\n")
	for i := strings.IndexByte(s, '\n'); i >= 0; {
		if i == 0 || s[i-1] != '\\' {
			return false
		}
		j := strings.IndexByte(s[i+1:], '\n')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return true
}

// unitQuote quotes s in double quotes the way systemd unquotes assignments
// (EXTRACT_UNQUOTE|EXTRACT_CUNESCAPE): backslash and double quote escaped,
// control characters as C escapes.
func unitQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// unitCheckSectionName rejects section names that cannot be written as
// [Name].
func unitCheckSectionName(name string) error {
	if name == "" {
		return errors.New("unit section name must not be empty")
	}
	for _, r := range name {
		if r == '[' || r == ']' || unicode.IsControl(r) {
			return fmt.Errorf("bad unit section name %q", name)
		}
	}
	return nil
}

// unitCheckKey rejects key names that cannot be written before "=".
func unitCheckKey(key string) error {
	if key == "" {
		return errors.New("key must not be empty")
	}
	if key[0] == '#' || key[0] == ';' || key[0] == '[' {
		return fmt.Errorf("bad key %q", key)
	}
	for _, r := range key {
		if r == '=' || unicode.IsSpace(r) || unicode.IsControl(r) {
			return fmt.Errorf("bad key %q", key)
		}
	}
	return nil
}
