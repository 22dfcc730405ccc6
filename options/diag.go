package options

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/property"
)

// ErrorCode classifies the diagnostics of this package, so that callers can
// tell them apart without reading message text.
type ErrorCode uint8

// The error codes, found in a diagnostic's Extra (see DiagExtra).
const (
	// CodeType: a definition is not of the option's type.
	CodeType ErrorCode = iota + 1
	// CodeConflict: definitions at the winning priority cannot be merged.
	CodeConflict
	// CodeMultiple: a uniq option has more than one definition.
	CodeMultiple
	// CodeCondition: an mkIf condition is not a boolean.
	CodeCondition
	// CodeProperty: properties nested in the wrong order, or used where
	// they have no meaning (inside a value that no type merges).
	CodeProperty
	// CodeTypeExpr: an invalid type expression (ParseType).
	CodeTypeExpr
)

// DiagExtra is the Extra of every diagnostic this package makes. Read it
// with hcl.DiagnosticExtra[options.DiagExtra](diag).
type DiagExtra struct {
	Code ErrorCode
	// Option is the path of the option (or of the value inside it) the
	// diagnostic is about; nil for type expressions.
	Option Path
}

func errorAt(code ErrorCode, loc Path, rng hcl.Range, summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   detail,
		Subject:  rng.Ptr(),
		Extra:    DiagExtra{Code: code, Option: loc},
	}
}

// ShowPos renders where a range starts as file:line:col, as every message
// and listing of nodegen shows a place in a file.
func ShowPos(rng hcl.Range) string {
	return fmt.Sprintf("%s:%d:%d", rng.Filename, rng.Start.Line, rng.Start.Column)
}

// listDefs renders definitions one per line, as "- file:line:col: VALUE".
func listDefs(defs []Def) string {
	var b strings.Builder
	for _, d := range defs {
		fmt.Fprintf(&b, "\n- %s: %s", ShowPos(d.Range), showForced(d.Value))
	}
	return b.String()
}

const prioritySuggestion = "Use mkForce(value) or mkDefault(value) to change the priority of one of them."

// priorityAdvice is what to do about conflicting definitions that all
// have priority prio, the advice that fits it: mkForce against plain
// definitions, a lower mkOverride against mkForce.
func priorityAdvice(prio int) string {
	switch {
	case prio == property.PriorityPlain:
		return prioritySuggestion
	case prio == property.PriorityForce:
		return fmt.Sprintf("They are all mkForce (priority %d): give the one that should win a lower number with mkOverride(%d, value), or remove all but one.", prio, prio-10)
	case prio == property.PriorityDefault:
		return "They are all mkDefault: define the one that should win without mkDefault, or remove all but one."
	case prio <= 0:
		return fmt.Sprintf("They all have priority %d, the lowest: remove all but one.", prio)
	}
	return fmt.Sprintf("They all have priority %d: give the one that should win a lower number with mkOverride(%d, value), or remove all but one.", prio, max(prio-10, prio/2))
}

// adviseOnPriority replaces the generic advice of the conflicts at loc
// among diags by the one that fits their priority (see priorityAdvice).
func adviseOnPriority(loc Path, prio int, diags hcl.Diagnostics) {
	if prio == property.PriorityPlain {
		return
	}
	for _, d := range diags {
		x, ok := d.Extra.(DiagExtra)
		if !ok || x.Code != CodeConflict || !slices.Equal(x.Option, loc) || !strings.HasSuffix(d.Detail, prioritySuggestion) {
			continue
		}
		d.Detail = strings.TrimSuffix(d.Detail, prioritySuggestion) + priorityAdvice(prio)
	}
}

// typeError is the "is not of type" error for one definition.
func typeError(loc Path, t Type, d Def) *hcl.Diagnostic {
	return errorAt(CodeType, loc, d.Range,
		fmt.Sprintf("Definition of option \"%s\" is not of type \"%s\"", loc.String(), t.Description()),
		fmt.Sprintf("The option \"%s\" accepts values of type \"%s\", but this definition (%s) is %s.%s",
			loc.String(), t.Description(), ShowPos(d.Range), showForced(d.Value), enumSuggestion(t, d.Value)+wordProblem(t, d.Value)))
}

// wordProblem is " It is refused because ..." when t is (or holds) a Word
// type and v a string that breaks its rule; else "".
func wordProblem(t Type, v cty.Value) string {
	v, _ = property.Shallow(v)
	if p := wordProblemOf(t, v); p != "" {
		return " It is refused because " + p + "."
	}
	return ""
}

// wordProblemOf is the problem of the Word type in t (itself, or inside
// nullOr, uniq, either and oneOf) with v.
func wordProblemOf(t Type, v cty.Value) string {
	switch t := t.(type) {
	case Word:
		return t.problem(v)
	case AccountID:
		return t.problem(v)
	case NullOr:
		return wordProblemOf(t.Elem, v)
	case Uniq:
		return wordProblemOf(t.Elem, v)
	case Either:
		if p := wordProblemOf(t.A, v); p != "" {
			return p
		}
		return wordProblemOf(t.B, v)
	case OneOf:
		for _, a := range t.Alts {
			if p := wordProblemOf(a, v); p != "" {
				return p
			}
		}
	}
	return ""
}

// enumSuggestion is " Did you mean "X"?" when t is an enum of strings and
// v a string close to one of them (a misspelt taint effect); else "".
func enumSuggestion(t Type, v cty.Value) string {
	e, ok := t.(Enum)
	if !ok {
		return ""
	}
	v, _ = property.Shallow(v)
	if !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return ""
	}
	var names []string
	for _, ev := range e.Values {
		if ev.IsKnown() && !ev.IsNull() && ev.Type() == cty.String {
			names = append(names, ev.AsString())
		}
	}
	if dym := DidYouMean(v.AsString(), names); dym != "" {
		return fmt.Sprintf(" Did you mean %q?", dym)
	}
	return ""
}

// conflictError is the error for definitions that a type cannot merge.
// why, if not empty, is a sentence saying what differs.
func conflictError(loc Path, t Type, defs []Def, why string) *hcl.Diagnostic {
	if why == "" {
		why = "they have different values"
	}
	return errorAt(CodeConflict, loc, defs[0].Range,
		fmt.Sprintf("Conflicting definitions for option \"%s\"", loc.String()),
		fmt.Sprintf("The option \"%s\" of type \"%s\" has %d definitions with the same priority, and %s:%s\n%s",
			loc.String(), t.Description(), len(defs), why, listDefs(defs), prioritySuggestion))
}

// multipleError is the error of uniq for more than one definition.
func multipleError(loc Path, t Type, defs []Def) *hcl.Diagnostic {
	return errorAt(CodeMultiple, loc, defs[0].Range,
		fmt.Sprintf("Option \"%s\" is defined multiple times", loc.String()),
		fmt.Sprintf("The option \"%s\" of type \"%s\" accepts only one definition (it is declared with uniq), but it has %d:%s\nRemove all but one of them, or give one of them a higher priority with mkForce(value).",
			loc.String(), t.Description(), len(defs), listDefs(defs)))
}

// strayPropertyError reports a property left inside a value whose type
// does not merge its parts.
func strayPropertyError(loc Path, t Type, p *property.Property) *hcl.Diagnostic {
	return errorAt(CodeProperty, loc, p.Range,
		fmt.Sprintf("%s inside a value of option \"%s\"", p.Kind, loc.String()),
		fmt.Sprintf("The option \"%s\" is of type \"%s\", which takes the value as it is: %s has no meaning inside it. Properties (mkIf, mkMerge, mkOverride, mkOrder) apply to a whole definition, to the elements of listOf and to the attributes of attrsOf and anything.",
			loc.String(), t.Description(), p.Kind))
}

// nestingError reports a property inside one that must be inside it.
func nestingError(loc Path, inner *property.Property, outer property.Kind) *hcl.Diagnostic {
	return errorAt(CodeProperty, loc, inner.Range,
		fmt.Sprintf("%s cannot be used inside %s", inner.Kind, outer),
		fmt.Sprintf("In this definition of option \"%s\", %s is inside %s. Properties nest in this order, as in NixOS: mkMerge and mkIf outside, then mkOverride (mkForce, mkDefault, mkOptionDefault), then mkOrder (mkBefore, mkAfter), each at most once. Move the %s outside the %s, as in mkIf(c, mkForce(mkBefore(v))).",
			loc.String(), inner.Kind, outer, inner.Kind, outer))
}

// unknownOr returns cty.DynamicVal when the merge failed or saw an unknown
// definition, else v.
func unknownOr(v cty.Value, diags hcl.Diagnostics, unknown bool) cty.Value {
	if unknown || diags.HasErrors() {
		return cty.DynamicVal
	}
	return v
}
