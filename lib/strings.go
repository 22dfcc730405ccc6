package lib

import (
	"path"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// StartsWithFunc is startswith(str, prefix): whether str begins with prefix.
var StartsWithFunc = native(&function.Spec{
	Description: "Returns true if the given string begins with the given prefix.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "prefix", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.BoolVal(strings.HasPrefix(args[0].AsString(), args[1].AsString())), nil
	},
})

// EndsWithFunc is endswith(str, suffix): whether str ends with suffix.
var EndsWithFunc = native(&function.Spec{
	Description: "Returns true if the given string ends with the given suffix.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "suffix", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.BoolVal(strings.HasSuffix(args[0].AsString(), args[1].AsString())), nil
	},
})

// StrContainsFunc is strcontains(str, substr): whether substr occurs in str.
var StrContainsFunc = native(&function.Spec{
	Description: "Returns true if the given substring occurs in the given string.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "substr", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.BoolVal(strings.Contains(args[0].AsString(), args[1].AsString())), nil
	},
})

// ReplaceFunc is replace(str, substr, replacement), with Terraform's
// semantics: a substr written between slashes, as in "/[0-9]+/", is a
// regular expression (RE2 syntax; the replacement may refer to its groups
// as $1 or ${name}); any other substr is replaced literally, every time it
// occurs.
var ReplaceFunc = native(&function.Spec{
	Description: "Replaces every occurrence of a substring in a string. A substring between slashes is a regular expression.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "substr", Type: cty.String, Description: "The string to replace, or a regular expression between slashes."},
		{Name: "replace", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		str := args[0].AsString()
		substr := args[1].AsString()
		repl := args[2].AsString()
		if len(substr) > 1 && substr[0] == '/' && substr[len(substr)-1] == '/' {
			re, err := compilePattern(substr[1 : len(substr)-1])
			if err != nil {
				return cty.NilVal, function.NewArgErrorf(1, "invalid regular expression: %s", err)
			}
			return cty.StringVal(re.ReplaceAllString(str, repl)), nil
		}
		return cty.StringVal(strings.ReplaceAll(str, substr, repl)), nil
	},
})

// refineNotNull declares that a function's result is never null.
func refineNotNull(b *cty.RefinementBuilder) *cty.RefinementBuilder {
	return b.NotNull()
}

// DirnameFunc is dirname(path), as in Terraform: path without its last
// element. Paths are slash-separated whatever the system nodegen runs on,
// since they name files on the host being configured: dirname("/a/b") is
// "/a", dirname("b") is ".".
var DirnameFunc = native(&function.Spec{
	Description: "Returns the given path without its last element.",
	Params: []function.Parameter{
		{Name: "path", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(path.Dir(args[0].AsString())), nil
	},
})

// BasenameFunc is basename(path), as in Terraform: the last element of
// path, slash-separated (see DirnameFunc).
var BasenameFunc = native(&function.Spec{
	Description: "Returns the last element of the given path.",
	Params: []function.Parameter{
		{Name: "path", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(path.Base(args[0].AsString())), nil
	},
})
