package options

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/internal/wordrule"
)

// This file holds the types whose values are single strings, numbers or
// booleans. They check and never convert: str rejects 42, bool rejects
// "yes", int rejects 1.5.

// mergeEqual is NixOS's mergeEqualOption: every definition must be
// accepted by t, and all must be equal; the result is their common value.
func mergeEqual(loc Path, t Type, defs []Def) (cty.Value, hcl.Diagnostics) {
	if len(defs) == 1 {
		// One definition: nothing to compare, no slice to build.
		v, ok, diags := checkedValue(loc, t, defs[0])
		if !ok {
			return cty.DynamicVal, diags
		}
		return v, diags
	}
	vals, unknown, diags := checkedValues(loc, t, defs)
	if unknown || diags.HasErrors() || len(vals) == 0 {
		return cty.DynamicVal, diags
	}
	for _, d := range vals[1:] {
		if !equalValues(vals[0].Value, d.Value) {
			return cty.DynamicVal, append(diags, conflictError(loc, t, vals, ""))
		}
	}
	return vals[0].Value, diags
}

// checkedValues checks each definition with t's shallow check and returns
// their deep-forced plain values. unknown says whether some value is not
// wholly known; those are left out.
func checkedValues(loc Path, t Type, defs []Def) (vals []Def, unknown bool, diags hcl.Diagnostics) {
	vals = make([]Def, 0, len(defs))
	for _, d := range defs {
		v, ok, ds := checkedValue(loc, t, d)
		diags = append(diags, ds...)
		switch {
		case ok:
			vals = append(vals, Def{Value: v, Range: d.Range, budget: d.budget})
		case !ds.HasErrors():
			unknown = true
		}
	}
	return vals, unknown, diags
}

// checkedValue checks one definition with t's shallow check and returns its
// deep-forced plain value; ok is false after an error, or when the value
// is not wholly known (then without one).
func checkedValue(loc Path, t Type, d Def) (v cty.Value, ok bool, diags hcl.Diagnostics) {
	if !accepts(t, d.Value) {
		return cty.DynamicVal, false, hcl.Diagnostics{typeError(loc, t, d)}
	}
	v, diags = plain(loc, t, d)
	if diags.HasErrors() || !ctyelems.WhollyKnown(v) {
		return cty.DynamicVal, false, diags
	}
	return v, true, diags
}

func isString(v cty.Value) bool { return v.Type() == cty.String && !v.IsNull() }

func isNumber(v cty.Value) bool { return v.Type() == cty.Number && !v.IsNull() }

func intIn(v cty.Value, lo, hi int64) bool {
	i, ok := ctyelems.Int64(v)
	return ok && i >= lo && i <= hi
}

// Bool is the type bool: true or false.
type Bool struct{}

// Description returns "boolean".
func (Bool) Description() string     { return "boolean" }
func (Bool) descriptionClass() class { return classNoun }
func (Bool) check(v cty.Value) bool  { return v.Type() == cty.Bool && !v.IsNull() }

// Merge requires all definitions to be equal.
func (t Bool) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	return mergeEqual(loc, t, defs)
}

// Int is the type int: a whole number (of 64 bits, as in Nix).
type Int struct{}

// Description returns "signed integer".
func (Int) Description() string     { return "signed integer" }
func (Int) descriptionClass() class { return classNoun }
func (Int) check(v cty.Value) bool {
	_, ok := ctyelems.Int64(v)
	return ok
}

// Merge requires all definitions to be equal.
func (t Int) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	return mergeEqual(loc, t, defs)
}

// Float is the type float: any number (unlike NixOS, whole numbers too).
type Float struct{}

// Description returns "floating point number".
func (Float) Description() string     { return "floating point number" }
func (Float) descriptionClass() class { return classNoun }
func (Float) check(v cty.Value) bool  { return isNumber(v) }

// Merge requires all definitions to be equal.
func (t Float) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	return mergeEqual(loc, t, defs)
}

// Number is the type number: any number. NixOS defines it as either int
// float, and describes it so.
type Number struct{}

// Description returns "signed integer or floating point number".
func (Number) Description() string     { return "signed integer or floating point number" }
func (Number) descriptionClass() class { return classConjunction }
func (Number) check(v cty.Value) bool  { return isNumber(v) }

// Merge requires all definitions to be equal.
func (t Number) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	return mergeEqual(loc, t, defs)
}

// Str is the type str: a string.
type Str struct{}

// Description returns "string".
func (Str) Description() string     { return "string" }
func (Str) descriptionClass() class { return classNoun }
func (Str) check(v cty.Value) bool  { return isString(v) }

// Merge requires all definitions to be equal.
func (t Str) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	return mergeEqual(loc, t, defs)
}

// PathType is the type path: a string that starts with "/", or, when
// Resolve is set, a path relative to the module that defines it (starting
// with "./" or "../", as a Nix path literal), which becomes the absolute
// path Resolve gives.
type PathType struct{ Resolve PathResolver }

// PathResolver resolves the relative paths of the type path.
type PathResolver interface {
	// ResolvePath returns the absolute path that rel, a path starting with
	// "./" or "../" in the definition at def, names: rel taken from the
	// directory of the module that holds def. An error is located at def.
	ResolvePath(rel string, def hcl.Range) (string, *hcl.Diagnostic)
}

// IsRelativePath reports whether s is a path relative to its module, as
// the type path reads it: "./keys/alice.pub", "../shared".
func IsRelativePath(s string) bool {
	return s == "." || s == ".." || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../")
}

// Description returns "path".
func (PathType) Description() string     { return "path" }
func (PathType) descriptionClass() class { return classNoun }
func (t PathType) check(v cty.Value) bool {
	return isString(v) && (strings.HasPrefix(v.AsString(), "/") || t.Resolve != nil && IsRelativePath(v.AsString()))
}

// Merge resolves the relative paths, then requires all definitions to be
// equal.
func (t PathType) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	if t.Resolve == nil {
		return mergeEqual(loc, t, defs)
	}
	var diags hcl.Diagnostics
	resolved := defs
	for i, d := range defs {
		if !d.Value.IsKnown() || !isString(d.Value) || !IsRelativePath(d.Value.AsString()) {
			continue
		}
		abs, diag := t.Resolve.ResolvePath(d.Value.AsString(), d.Range)
		if diag != nil {
			diags = append(diags, diag)
			continue
		}
		if &resolved[0] == &defs[0] {
			resolved = append([]Def(nil), defs...)
		}
		resolved[i].Value = cty.StringVal(abs)
	}
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	return mergeEqual(loc, t, resolved)
}

// Port is the type port: a whole number from 0 to 65535 (NixOS's
// types.port, which is ints.u16).
type Port struct{}

// Description returns "16 bit unsigned integer; between 0 and 65535 (both
// inclusive)".
func (Port) Description() string {
	return "16 bit unsigned integer; between 0 and 65535 (both inclusive)"
}
func (Port) descriptionClass() class { return classNoun }
func (Port) check(v cty.Value) bool  { return intIn(v, 0, 65535) }

// Merge requires all definitions to be equal.
func (t Port) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	return mergeEqual(loc, t, defs)
}

// IntBetween is the type intBetween(Lo, Hi): a whole number from Lo to Hi,
// both included.
type IntBetween struct{ Lo, Hi int64 }

// Description returns "integer between LO and HI (both inclusive)".
func (t IntBetween) Description() string {
	return fmt.Sprintf("integer between %d and %d (both inclusive)", t.Lo, t.Hi)
}
func (IntBetween) descriptionClass() class  { return classNoun }
func (t IntBetween) check(v cty.Value) bool { return intIn(v, t.Lo, t.Hi) }

// Merge requires all definitions to be equal.
func (t IntBetween) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	return mergeEqual(loc, t, defs)
}

// AccountID is the type accountId: a user or group ID that systemd
// takes (wordrule.IDProblem).
type AccountID struct{}

// Description returns what the values are.
func (AccountID) Description() string {
	return "user or group ID; between 0 and 4294967294 (both inclusive), not 65535"
}
func (AccountID) descriptionClass() class { return classNoun }
func (t AccountID) check(v cty.Value) bool {
	i, ok := ctyelems.Int64(v)
	return ok && wordrule.IDProblem(i) == ""
}
func (t AccountID) problem(v cty.Value) string {
	if i, ok := ctyelems.Int64(v); ok {
		return wordrule.IDProblem(i)
	}
	return ""
}

// Merge requires all definitions to be equal.
func (t AccountID) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	return mergeEqual(loc, t, defs)
}

// Unsigned is the type ints.unsigned: a whole number >= 0.
type Unsigned struct{}

// Description returns "unsigned integer, meaning >=0".
func (Unsigned) Description() string     { return "unsigned integer, meaning >=0" }
func (Unsigned) descriptionClass() class { return classClause }
func (Unsigned) check(v cty.Value) bool {
	i, ok := ctyelems.Int64(v)
	return ok && i >= 0
}

// Merge requires all definitions to be equal.
func (t Unsigned) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	return mergeEqual(loc, t, defs)
}

// Positive is the type ints.positive: a whole number > 0.
type Positive struct{}

// Description returns "positive integer, meaning >0".
func (Positive) Description() string     { return "positive integer, meaning >0" }
func (Positive) descriptionClass() class { return classClause }
func (Positive) check(v cty.Value) bool {
	i, ok := ctyelems.Int64(v)
	return ok && i > 0
}

// Merge requires all definitions to be equal.
func (t Positive) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	return mergeEqual(loc, t, defs)
}

// Enum is the type enum([...]): one of Values (strings, numbers or
// booleans), compared without conversion.
type Enum struct{ Values []cty.Value }

// Description returns `one of "a", "b"`, or NixOS's words for an enum of
// one value or none.
func (t Enum) Description() string {
	show := func(v cty.Value) string {
		switch {
		case !v.IsKnown() || v.IsNull():
			return ShowValue(v)
		case v.Type() == cty.String:
			return `"` + v.AsString() + `"`
		case v.Type() == cty.Number || v.Type() == cty.Bool:
			return ShowValue(v)
		}
		return "<" + v.Type().FriendlyName() + ">"
	}
	switch len(t.Values) {
	case 0:
		return "impossible (empty enum)"
	case 1:
		return "value " + show(t.Values[0]) + " (singular enum)"
	}
	parts := make([]string, len(t.Values))
	for i, v := range t.Values {
		parts[i] = show(v)
	}
	return "one of " + strings.Join(parts, ", ")
}

func (t Enum) descriptionClass() class {
	if len(t.Values) < 2 {
		return classNoun
	}
	return classConjunction
}

func (t Enum) check(v cty.Value) bool {
	if !v.Type().IsPrimitiveType() || v.IsNull() {
		return false
	}
	for _, e := range t.Values {
		if e.IsKnown() && !e.IsNull() && e.Type().Equals(v.Type()) && equalValues(e, v) {
			return true
		}
	}
	return false
}

// Merge requires all definitions to be equal.
func (t Enum) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	return mergeEqual(loc, t, defs)
}

// StrMatching is the type strMatching(Pattern): a string that the regular
// expression (Go RE2 syntax) matches as a whole. Make one with
// NewStrMatching.
type StrMatching struct {
	Pattern string
	// Desc, when set, describes the strings in words instead of the
	// pattern ("a semantic version"): strMatching(RE, DESC).
	Desc string
	re   *pattern
}

// NewStrMatching parses pattern, anchored at both ends, and reports its
// syntax errors; it is compiled when a string is first checked against it.
func NewStrMatching(pattern string) (StrMatching, error) {
	p, err := parsePattern(pattern)
	if err != nil {
		return StrMatching{}, err
	}
	return StrMatching{Pattern: pattern, re: p}, nil
}

// A pattern is the regular expression of a StrMatching, compiled once, when
// first used. Every evaluation declares the library's options anew, and
// most evaluations check a value against few of their patterns, so a
// declaration only parses its pattern: compiling the library's patterns
// that k8s-single never checks (a sha512 is [0-9a-f]{128}, 128 character
// classes) took 0.6 M of its 152 M instructions.
type pattern struct {
	compile func() (*regexp.Regexp, error)
}

// patterns holds the patterns parsed so far by this process, by pattern. A
// *regexp.Regexp is safe for concurrent use, so the evaluations of nodegen
// build share them.
var patterns sync.Map // pattern string -> *pattern

// parsePattern returns the pattern of source, anchored at both ends, once
// a process: it reports the errors that compiling would (regexp.Compile
// fails only when it cannot parse). Patterns that do not parse are not
// kept: their error is made anew.
func parsePattern(source string) (*pattern, error) {
	if p, ok := patterns.Load(source); ok {
		return p.(*pattern), nil
	}
	anchored := `^(?:` + source + `)$`
	if _, err := syntax.Parse(anchored, syntax.Perl); err != nil {
		return nil, err
	}
	p := &pattern{compile: sync.OnceValues(func() (*regexp.Regexp, error) {
		return regexp.Compile(anchored)
	})}
	actual, _ := patterns.LoadOrStore(source, p)
	return actual.(*pattern), nil
}

// Description returns "string matching the pattern PATTERN", or Desc.
func (t StrMatching) Description() string {
	if t.Desc != "" {
		return t.Desc
	}
	return "string matching the pattern " + t.Pattern
}
func (StrMatching) descriptionClass() class { return classNoun }
func (t StrMatching) check(v cty.Value) bool {
	p := t.re
	if p == nil { // a literal StrMatching rather than NewStrMatching's
		var err error
		if p, err = parsePattern(t.Pattern); err != nil {
			return false
		}
	}
	re, err := p.compile()
	return err == nil && isString(v) && re.MatchString(v.AsString())
}

// Merge requires all definitions to be equal.
func (t StrMatching) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	return mergeEqual(loc, t, defs)
}

// NonEmptyStr is the type nonEmptyStr: a string with something else than
// white space in it.
type NonEmptyStr struct{}

// Description returns "non-empty string".
func (NonEmptyStr) Description() string     { return "non-empty string" }
func (NonEmptyStr) descriptionClass() class { return classNoun }
func (NonEmptyStr) check(v cty.Value) bool {
	return isString(v) && strings.TrimSpace(v.AsString()) != ""
}

// Merge requires all definitions to be equal.
func (t NonEmptyStr) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	return mergeEqual(loc, t, defs)
}

// SingleLineStr is the type singleLineStr: a string without line breaks,
// except for one "\n" at its end, which the merge removes (as NixOS does).
type SingleLineStr struct{}

// Description returns "(optionally newline-terminated) single-line string".
func (SingleLineStr) Description() string {
	return "(optionally newline-terminated) single-line string"
}
func (SingleLineStr) descriptionClass() class { return classNoun }
func (SingleLineStr) check(v cty.Value) bool {
	if !isString(v) {
		return false
	}
	s := strings.TrimSuffix(v.AsString(), "\n")
	return !strings.ContainsAny(s, "\n\r")
}

// Merge requires all definitions to be equal and removes a final "\n".
func (t SingleLineStr) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	v, diags := mergeEqual(loc, t, defs)
	if v.IsKnown() {
		v = cty.StringVal(strings.TrimSuffix(v.AsString(), "\n"))
	}
	return v, diags
}

// SeparatedString is the type separatedString(Sep), and lines (Sep "\n")
// and commas (Sep ","): strings, which merge by joining them with Sep in
// definition order.
type SeparatedString struct{ Sep string }

// Description returns `strings concatenated with "SEP"` (SEP as JSON).
func (t SeparatedString) Description() string {
	if t.Sep == "" {
		return "Concatenated string"
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(t.Sep) // a string always encodes
	return "strings concatenated with " + strings.TrimSuffix(b.String(), "\n")
}
func (SeparatedString) descriptionClass() class { return classNoun }
func (SeparatedString) check(v cty.Value) bool  { return isString(v) }

// Merge joins the definitions with Sep.
func (t SeparatedString) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	vals, unknown, diags := checkedValues(loc, t, defs)
	if unknown || diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	parts := make([]string, len(vals))
	for i, d := range vals {
		parts[i] = d.Value.AsString()
	}
	return cty.StringVal(strings.Join(parts, t.Sep)), diags
}

// Package is the type package: a string that is an absolute path (a
// program or a directory on the host) or a container image reference such
// as registry.k8s.io/pause:3.9.
type Package struct{}

// imageRef follows the grammar of distribution/reference: an optional
// registry host (with a port), slash-separated lower-case path components,
// an optional tag and an optional digest. The tag's bound of 128
// characters is checked apart (validImageRef): as a bounded repetition in
// the pattern it made compiling the pattern, at every start of the
// program, take more than twice the time and three times the memory.
var imageRef = func() *regexp.Regexp {
	const (
		domainComponent = `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
		domain          = domainComponent + `(?:\.` + domainComponent + `)*(?::[0-9]+)?`
		pathComponent   = `[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*`
		tag             = `[\w][\w.-]*`
		digest          = `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}`
	)
	return regexp.MustCompile(`^(?:` + domain + `/)?` + pathComponent + `(?:/` + pathComponent + `)*` +
		`(?::` + tag + `)?(?:@` + digest + `)?$`)
}()

// maxImageTag is the longest tag of an image reference.
const maxImageTag = 128

// validImageRef reports whether s is a container image reference.
func validImageRef(s string) bool {
	if !imageRef.MatchString(s) {
		return false
	}
	// The tag is what follows the last colon after the last slash, up to
	// the digest (a registry's port is followed by a slash).
	name, _, _ := strings.Cut(s, "@")
	if colon := strings.LastIndexByte(name, ':'); colon > strings.LastIndexByte(name, '/') {
		return len(name)-colon-1 <= maxImageTag
	}
	return true
}

// Description returns "package".
func (Package) Description() string     { return "package" }
func (Package) descriptionClass() class { return classNoun }
func (Package) check(v cty.Value) bool {
	if !isString(v) {
		return false
	}
	s := v.AsString()
	if strings.HasPrefix(s, "/") {
		return !strings.ContainsAny(s, "\n\r\x00")
	}
	return validImageRef(s)
}

// Merge requires all definitions to be equal.
func (t Package) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	return mergeEqual(loc, t, defs)
}
