package options

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/internal/ctyelems"
)

// simpleTypes are the types written as a bare name.
var simpleTypes = withWordTypes(map[string]Type{
	"bool":          Bool{},
	"int":           Int{},
	"float":         Float{},
	"number":        Number{},
	"str":           Str{},
	"path":          PathType{},
	"port":          Port{},
	"accountId":     AccountID{},
	"nonEmptyStr":   NonEmptyStr{},
	"singleLineStr": SingleLineStr{},
	"lines":         SeparatedString{Sep: "\n"},
	"commas":        SeparatedString{Sep: ","},
	"anything":      Anything{},
	"attrs":         Attrs{},
	"package":       Package{},
	"systemdOption": SystemdOption{},
})

// intsTypes are the types written ints.NAME.
var intsTypes = map[string]Type{
	"unsigned": Unsigned{},
	"positive": Positive{},
}

// typeFuncs are the type constructors, with how to call them and their
// number of arguments.
var typeFuncs = map[string]struct {
	usage string
	nargs int
	// optional is how many of the last nargs may be left out.
	optional int
}{
	"listOf":          {"listOf(TYPE)", 1, 0},
	"attrsOf":         {"attrsOf(TYPE)", 1, 0},
	"nullOr":          {"nullOr(TYPE)", 1, 0},
	"uniq":            {"uniq(TYPE)", 1, 0},
	"either":          {"either(TYPE, TYPE)", 2, 0},
	"oneOf":           {"oneOf([TYPE, ...])", 1, 0},
	"enum":            {`enum(["a", "b", ...])`, 1, 0},
	"intBetween":      {"intBetween(LOW, HIGH)", 2, 0},
	"strMatching":     {`strMatching("REGEXP") or strMatching("REGEXP", "DESCRIPTION")`, 2, 1},
	"separatedString": {`separatedString("SEPARATOR")`, 1, 0},
}

// typeNames lists every name a type expression can start with, sorted.
var typeNames = func() []string {
	names := []string{"format", "ints", "submodule", "types"}
	for n := range simpleTypes {
		names = append(names, n)
	}
	for n := range typeFuncs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}()

// ParseType reads a type expression (language.md section 3) from its
// hclsyntax syntax tree, without evaluating it: names such as str and
// ints.unsigned, submodule.NAME, format.NAME and types.NAME (a named
// type; each resolved by calling lookup with "submodule", "format" or
// "types", NAME and the range of the reference), and calls such as listOf(T), either(A, B),
// oneOf([A, B]), enum(["a", "b"]), intBetween(1, 10), strMatching("re")
// and separatedString(","), whose value arguments must be constants
// (evaluated with a nil EvalContext). On error the Type is nil and the
// diagnostics say what is wrong, with a did-you-mean for a misspelt name.
func ParseType(expr hcl.Expression, lookup func(namespace, name string, rng hcl.Range) (Type, hcl.Diagnostics)) (Type, hcl.Diagnostics) {
	return typeParser{lookup: lookup}.parse(expr)
}

// ParseTypeResolving is ParseType where the type path accepts a path
// relative to the module that defines it, which paths resolves (see
// PathType).
func ParseTypeResolving(expr hcl.Expression, lookup func(namespace, name string, rng hcl.Range) (Type, hcl.Diagnostics), paths PathResolver) (Type, hcl.Diagnostics) {
	return typeParser{lookup: lookup, paths: paths}.parse(expr)
}

type typeParser struct {
	lookup func(namespace, name string, rng hcl.Range) (Type, hcl.Diagnostics)
	paths  PathResolver
}

func typeExprError(rng hcl.Range, summary, detail string) hcl.Diagnostics {
	return hcl.Diagnostics{errorAt(CodeTypeExpr, nil, rng, summary, detail)}
}

const typeSyntax = `A type is a name such as str or ints.unsigned, a named submodule such as submodule.NAME, or a call such as listOf(str) or enum(["a", "b"]).`

func didYouMean(name string, candidates []string) string {
	if s := DidYouMean(name, candidates); s != "" {
		return fmt.Sprintf(" Did you mean %q?", s)
	}
	return ""
}

func (p typeParser) parse(expr hcl.Expression) (Type, hcl.Diagnostics) {
	switch e := expr.(type) {
	case *hclsyntax.ParenthesesExpr:
		return p.parse(e.Expression)
	case *hclsyntax.ScopeTraversalExpr:
		return p.name(e.Traversal)
	case *hclsyntax.FunctionCallExpr:
		return p.call(e)
	}
	return nil, typeExprError(expr.Range(), "Invalid type expression", typeSyntax)
}

// name reads a type written as a name: str, ints.unsigned, submodule.X.
func (p typeParser) name(tr hcl.Traversal) (Type, hcl.Diagnostics) {
	rng := tr.SourceRange()
	names := []string{tr.RootName()}
	for _, step := range tr[1:] {
		a, ok := step.(hcl.TraverseAttr)
		if !ok {
			return nil, typeExprError(rng, "Invalid type expression", typeSyntax)
		}
		names = append(names, a.Name)
	}
	root := names[0]
	switch {
	case len(names) == 1:
		if root == "path" && p.paths != nil {
			return PathType{Resolve: p.paths}, nil
		}
		if t, ok := simpleTypes[root]; ok {
			return t, nil
		}
		if f, ok := typeFuncs[root]; ok {
			return nil, typeExprError(rng, fmt.Sprintf("Type %s needs arguments", root),
				fmt.Sprintf("%s makes a type from its arguments: write %s.", root, f.usage))
		}
		switch root {
		case "ints":
			return nil, typeExprError(rng, "Type ints needs a member",
				"Write ints.unsigned (an integer >= 0) or ints.positive (an integer > 0).")
		case "submodule":
			return nil, typeExprError(rng, "Type submodule needs a name",
				`Write submodule.NAME, where a submodule "NAME" block declares the submodule.`)
		case "format":
			return nil, typeExprError(rng, "Type format needs a name",
				`Write format.NAME, where a format "NAME" "KIND" block declares the format.`)
		case "types":
			return nil, typeExprError(rng, "Types needs a name",
				`Write types.NAME, where a type "NAME" block names the type.`)
		}
		return nil, typeExprError(rng, fmt.Sprintf("Unknown type %q", root),
			fmt.Sprintf("There is no type named %q.%s %s", root, didYouMean(root, typeNames), typeSyntax))
	case len(names) == 2 && root == "ints":
		if t, ok := intsTypes[names[1]]; ok {
			return t, nil
		}
		return nil, typeExprError(rng, fmt.Sprintf("Unknown type \"ints.%s\"", names[1]),
			fmt.Sprintf("There is no type named \"ints.%s\"; the ints types are ints.unsigned and ints.positive.%s",
				names[1], didYouMean(names[1], []string{"unsigned", "positive"})))
	case len(names) == 2 && (root == "submodule" || root == "format" || root == "types"):
		if p.lookup == nil {
			return nil, typeExprError(rng, root+" types are not available here",
				fmt.Sprintf("The %s type %q cannot be used in this type expression.", root, names[1]))
		}
		return p.lookup(root, names[1], rng)
	}
	return nil, typeExprError(rng, fmt.Sprintf("Unknown type %q", Path(names).String()),
		fmt.Sprintf("There is no type named %q.%s %s", Path(names).String(), didYouMean(root, typeNames), typeSyntax))
}

// call reads a type written as a call: listOf(str), enum(["a"]), ...
func (p typeParser) call(e *hclsyntax.FunctionCallExpr) (Type, hcl.Diagnostics) {
	rng := e.Range()
	f, ok := typeFuncs[e.Name]
	if !ok {
		if _, simple := simpleTypes[e.Name]; simple {
			return nil, typeExprError(e.NameRange, fmt.Sprintf("Type %s takes no arguments", e.Name),
				fmt.Sprintf("Write %s without parentheses.", e.Name))
		}
		return nil, typeExprError(e.NameRange, fmt.Sprintf("Unknown type function %q", e.Name),
			fmt.Sprintf("There is no type function named %q.%s %s", e.Name, didYouMean(e.Name, typeNames), typeSyntax))
	}
	if e.ExpandFinal || len(e.Args) > f.nargs || len(e.Args) < f.nargs-f.optional {
		return nil, typeExprError(rng, fmt.Sprintf("Wrong arguments for type %s", e.Name),
			fmt.Sprintf("Write %s.", f.usage))
	}
	switch e.Name {
	case "listOf", "attrsOf", "nullOr", "uniq":
		elem, diags := p.parse(e.Args[0])
		if diags.HasErrors() {
			return nil, diags
		}
		switch e.Name {
		case "listOf":
			return ListOf{Elem: elem}, diags
		case "attrsOf":
			return AttrsOf{Elem: elem}, diags
		case "nullOr":
			return NullOr{Elem: elem}, diags
		}
		return Uniq{Elem: elem}, diags
	case "either":
		a, diags := p.parse(e.Args[0])
		b, bd := p.parse(e.Args[1])
		diags = append(diags, bd...)
		if diags.HasErrors() {
			return nil, diags
		}
		return Either{A: a, B: b}, diags
	case "oneOf":
		tuple, ok := e.Args[0].(*hclsyntax.TupleConsExpr)
		if !ok || len(tuple.Exprs) == 0 {
			return nil, typeExprError(e.Args[0].Range(), "Wrong arguments for type oneOf",
				"oneOf takes a non-empty list of types: write oneOf([TYPE, ...]).")
		}
		var diags hcl.Diagnostics
		alts := make([]Type, len(tuple.Exprs))
		for i, x := range tuple.Exprs {
			var d hcl.Diagnostics
			alts[i], d = p.parse(x)
			diags = append(diags, d...)
		}
		if diags.HasErrors() {
			return nil, diags
		}
		return OneOf{Alts: alts}, diags
	case "enum":
		return parseEnum(e.Args[0])
	case "intBetween":
		return parseIntBetween(e.Args[0], e.Args[1])
	case "strMatching":
		s, diags := constString(e.Args[0], "strMatching")
		if diags.HasErrors() {
			return nil, diags
		}
		t, err := NewStrMatching(s)
		if err != nil {
			return nil, typeExprError(e.Args[0].Range(), "Invalid regular expression",
				fmt.Sprintf("The pattern of strMatching is not a valid regular expression (Go RE2 syntax): %s.", err))
		}
		if len(e.Args) == 2 {
			desc, d := constString(e.Args[1], "strMatching")
			diags = append(diags, d...)
			if d.HasErrors() {
				return nil, diags
			}
			t.Desc = desc
		}
		return t, diags
	case "separatedString":
		s, diags := constString(e.Args[0], "separatedString")
		if diags.HasErrors() {
			return nil, diags
		}
		return SeparatedString{Sep: s}, diags
	}
	panic("options: type function without a parser: " + e.Name)
}

// constValue evaluates an argument of a type function, which must be a
// constant.
func constValue(expr hcl.Expression, fn string) (cty.Value, hcl.Diagnostics) {
	v, diags := expr.Value(nil)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	if !ctyelems.WhollyKnown(v) {
		return cty.DynamicVal, typeExprError(expr.Range(), fmt.Sprintf("Wrong arguments for type %s", fn),
			fmt.Sprintf("The arguments of %s must be constants.", fn))
	}
	return v, diags
}

func constString(expr hcl.Expression, fn string) (string, hcl.Diagnostics) {
	v, diags := constValue(expr, fn)
	if diags.HasErrors() {
		return "", diags
	}
	if !isString(v) {
		return "", typeExprError(expr.Range(), fmt.Sprintf("Wrong arguments for type %s", fn),
			fmt.Sprintf("%s takes a string: write %s; %s is not a string.", fn, typeFuncs[fn].usage, ShowValue(v)))
	}
	return v.AsString(), diags
}

func parseEnum(expr hcl.Expression) (Type, hcl.Diagnostics) {
	v, diags := constValue(expr, "enum")
	if diags.HasErrors() {
		return nil, diags
	}
	if !isList(v) {
		return nil, typeExprError(expr.Range(), "Wrong arguments for type enum",
			fmt.Sprintf(`enum takes a list of values: write enum(["a", "b", ...]); %s is not a list.`, ShowValue(v)))
	}
	var vals []cty.Value
	for _, e := range ctyelems.Elems(v) {
		if e.IsNull() || !(e.Type() == cty.String || e.Type() == cty.Number || e.Type() == cty.Bool) {
			return nil, typeExprError(expr.Range(), "Wrong arguments for type enum",
				fmt.Sprintf("The values of an enum are strings, numbers or booleans; %s is not one.", ShowValue(e)))
		}
		vals = append(vals, e)
	}
	return Enum{Values: vals}, diags
}

func parseIntBetween(loExpr, hiExpr hcl.Expression) (Type, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	bound := func(expr hcl.Expression) int64 {
		v, d := constValue(expr, "intBetween")
		diags = append(diags, d...)
		if d.HasErrors() {
			return 0
		}
		i, ok := ctyelems.Int64(v)
		if !ok {
			diags = append(diags, typeExprError(expr.Range(), "Wrong arguments for type intBetween",
				fmt.Sprintf("The bounds of intBetween are integers; %s is not one.", ShowValue(v)))...)
		}
		return i
	}
	lo, hi := bound(loExpr), bound(hiExpr)
	if diags.HasErrors() {
		return nil, diags
	}
	if lo > hi {
		return nil, typeExprError(hcl.RangeBetween(loExpr.Range(), hiExpr.Range()), "Wrong arguments for type intBetween",
			fmt.Sprintf("The lower bound %d is greater than the upper bound %d.", lo, hi))
	}
	return IntBetween{Lo: lo, Hi: hi}, diags
}
