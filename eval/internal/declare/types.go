package declare

import (
	"fmt"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/options"
)

// This file parses the types of options: type expressions, with the
// names they read (submodule.NAME, format.NAME, types.NAME), and the
// freeform types of submodules.

// sharedTypes holds, by source text, the types parsed so far by this
// process that name no submodule, no format and not path: such a type
// depends on its text alone (submodule and format types are the
// evaluation's own, and path resolves through the evaluation), and types
// are values that nothing changes, so every evaluation of the process (the
// hosts of nodegen build) shares them.
var sharedTypes sync.Map // source text -> options.Type

// parseType parses an option's type expression. Modules repeat the same
// few types (str, listOf(str), an enum), so a type that parsed without
// diagnostics is kept by its source text: for the process when it names
// no submodule, no format and not path (sharedTypes), else in the
// declared tree. own tells whether it names a submodule or path, which
// each evaluation binds to itself (see eval's Evaluator.typeOf).
func (dc *declarer) parseType(m *syntax.Module, expr hclsyntax.Expression) (t options.Type, own bool, diags hcl.Diagnostics) {
	var key string
	if m != nil && m.File != nil {
		r := expr.Range()
		if r.Start.Byte >= 0 && r.End.Byte <= len(m.File.Bytes) && r.Start.Byte <= r.End.Byte {
			key = string(m.File.Bytes[r.Start.Byte:r.End.Byte])
		}
	}
	decl := dc.d
	if key != "" {
		if t, ok := decl.typeCache[key]; ok {
			return t, true, nil
		}
		if t, ok := sharedTypes.Load(key); ok {
			return t.(options.Type), false, nil
		}
	}
	// A type naming a submodule or a format is the evaluation's own, and so
	// is path, which resolves relative paths through this evaluation.
	evaluationOwn := usesPathType(expr)
	t, diags = options.ParseTypeResolving(expr, func(namespace, name string, rng hcl.Range) (options.Type, hcl.Diagnostics) {
		evaluationOwn = true
		return dc.lookupType(namespace, name, rng)
	}, nil)
	if key != "" && t != nil && len(diags) == 0 {
		if !evaluationOwn {
			sharedTypes.Store(key, t)
			return t, false, diags
		}
		if !dc.private {
			if decl.typeCache == nil {
				decl.typeCache = map[string]options.Type{}
			}
			decl.typeCache[key] = t
		}
	}
	return t, evaluationOwn, diags
}

// usesPathType reports whether a type expression names the type path.
func usesPathType(expr hclsyntax.Expression) bool {
	for _, tr := range expr.Variables() {
		if tr.RootName() == "path" {
			return true
		}
	}
	return false
}

// lookupSubmoduleType resolves submodule.NAME inside a type expression.
func (dc *declarer) lookupSubmoduleType(name string, rng hcl.Range) (options.Type, hcl.Diagnostics) {
	if _, ok := dc.d.submodules[name]; !ok {
		return nil, syntax.UnknownName(dc.d.submodules, "submodule", name, "", rng)
	}
	// No Instantiator: the type is the declared tree's; each evaluation
	// binds it to itself (see eval's Evaluator.typeOf).
	return options.Submodule{Names: []string{name}}, nil
}

// lookupType resolves submodule.NAME and format.NAME inside a type
// expression.
func (dc *declarer) lookupType(namespace, name string, rng hcl.Range) (options.Type, hcl.Diagnostics) {
	switch namespace {
	case "submodule":
		return dc.lookupSubmoduleType(name, rng)
	case "types":
		return dc.lookupNamedType(name, rng)
	}
	f, diags := syntax.LookupFormat(dc.Formats, name, rng)
	if diags.HasErrors() {
		return nil, diags
	}
	return options.FormatType(f.Format), nil
}

// freeformType reads the freeform type of one submodule body into st.
func (dc *declarer) freeformType(st *SubType, body *syntax.Submodule) hcl.Diagnostics {
	if body.Freeform == nil {
		return nil
	}
	if st.FreeformAt != nil {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Freeform is declared twice",
			Detail:   fmt.Sprintf("This submodule is also freeform at %s; declare the type of its undeclared names in one place.", options.ShowPos(*st.FreeformAt)),
			Subject:  body.Freeform.Expr.Range().Ptr(),
		}}
	}
	t, _, diags := dc.parseType(body.Mod, body.Freeform.Expr)
	if diags.HasErrors() {
		return diags
	}
	st.Freeform, st.FreeformAt = t, body.Freeform.Expr.Range().Ptr()
	return diags
}

// lookupNamedType resolves types.NAME, referred to at rng: the type its
// type block gives, parsed once for the evaluation. A named type that
// names itself, directly or through others, has no meaning.
func (dc *declarer) lookupNamedType(name string, rng hcl.Range) (options.Type, hcl.Diagnostics) {
	t, ok := dc.NamedTypes[name]
	if !ok {
		return nil, syntax.UnknownName(dc.NamedTypes, "type", name, `: a type "NAME" block names one`, rng)
	}
	if ty, ok := dc.typeByName[t]; ok {
		if ty == nil {
			return nil, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Type defined by itself",
				Detail:   fmt.Sprintf("The type %q (declared at %s) is defined in terms of itself.", name, options.ShowPos(t.Block.DefRange())),
				Subject:  rng.Ptr(),
			}}
		}
		return ty, nil
	}
	if dc.typeByName == nil {
		dc.typeByName = map[*syntax.NamedType]options.Type{}
	}
	dc.typeByName[t] = nil // being parsed
	ty, _, diags := dc.parseType(t.Mod, t.Expr)
	if diags.HasErrors() {
		delete(dc.typeByName, t)
		return nil, diags
	}
	dc.typeByName[t] = ty
	return ty, diags
}

// HoldsSubmodule tells whether eval's walkType descends from t into a
// submodule, as walkSubType does: it follows the same wrapper types as
// they do, and a wrapper added there must be added here (or walkOptions
// and walkSubTypes would skip the submodules below it).
func HoldsSubmodule(t options.Type) bool {
	for {
		switch u := t.(type) {
		case options.AttrsOf:
			t = u.Elem
		case options.ListOf:
			t = u.Elem
		case options.NullOr:
			t = u.Elem
		case options.Uniq:
			t = u.Elem
		case options.Submodule:
			return true
		default:
			return false
		}
	}
}
