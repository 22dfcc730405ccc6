package options

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/internal/wordrule"
)

// Word is a string type with a rule of package wordrule (wordrule.Rules): the
// types userName, unitName, interfaceName, host, word, fileName and
// pathWord, for
// values that a line-oriented format reads as one field. Its description
// says what the values are ("systemd unit name"); a value that breaks the
// rule is a type error that says what breaks it ("it holds a newline")
// and the rule.
type Word struct{ Rule wordrule.Rule }

// Description returns what the values are: "systemd unit name".
func (t Word) Description() string    { return t.Rule.Noun }
func (Word) descriptionClass() class  { return classNoun }
func (t Word) check(v cty.Value) bool { return isString(v) && t.Rule.Problem(v.AsString()) == "" }
func (t Word) problem(v cty.Value) string {
	if !v.IsKnown() || !isString(v) {
		return ""
	}
	if p := t.Rule.Problem(v.AsString()); p != "" {
		return p + "; the rule of a " + t.Rule.Noun + ": " + t.Rule.Rule
	}
	return ""
}

// Merge requires all definitions to be equal.
func (t Word) Merge(loc Path, defs []Def) (cty.Value, hcl.Diagnostics) {
	return mergeEqual(loc, t, defs)
}

// withWordTypes adds the Word types to the simple types.
func withWordTypes(m map[string]Type) map[string]Type {
	for _, r := range wordrule.Rules {
		m[r.Name] = Word{Rule: r}
	}
	return m
}
