package lib

import (
	"fmt"
	"regexp"
	resyntax "regexp/syntax"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/internal/textmemo"
)

// regex and regexall stand in for go-cty's (see standins.go) with the
// pattern compiled once a process (regexPattern), where go-cty's compile
// it twice a call (its Type, then its Impl): with the same few patterns
// called for every service of every host of a fleet, compiling was 7% of
// what a generated worker's evaluation allocated. They compute what
// go-cty's do: the first match (regex: an error when there is none) or
// every non-overlapping one (regexall, a list), each a string without
// capture groups, a tuple with unnamed ones and an object with named ones.
func init() {
	natives[stdlib.RegexFunc] = &function.Spec{
		Description: stdlib.RegexFunc.Description(),
		Params:      stdlib.RegexFunc.Params(),
		Type: func(args []cty.Value) (cty.Type, error) {
			return matchType(args[0])
		},
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			if retType == cty.DynamicPseudoType {
				return cty.DynamicVal, nil
			}
			re, _, err := regexPattern(args[0].AsString())
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			str := args[1].AsString()
			idx := re.FindStringSubmatchIndex(str)
			if idx == nil {
				return cty.NilVal, fmt.Errorf("pattern did not match any part of the given string")
			}
			return regexMatch(re, str, idx, retType), nil
		},
	}
	natives[stdlib.RegexAllFunc] = &function.Spec{
		Description: stdlib.RegexAllFunc.Description(),
		Params:      stdlib.RegexAllFunc.Params(),
		Type: func(args []cty.Value) (cty.Type, error) {
			ty, err := matchType(args[0])
			return cty.List(ty), err
		},
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			ety := retType.ElementType()
			if ety == cty.DynamicPseudoType {
				return cty.DynamicVal, nil
			}
			re, _, err := regexPattern(args[0].AsString())
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			str := args[1].AsString()
			all := re.FindAllStringSubmatchIndex(str, -1)
			if len(all) == 0 {
				return cty.ListValEmpty(ety), nil
			}
			elems := make([]cty.Value, len(all))
			for i, idx := range all {
				elems[i] = regexMatch(re, str, idx, ety)
			}
			return cty.ListVal(elems), nil
		},
	}
}

// matchType is the type of one match of pattern (regexPattern's), or
// cty.DynamicPseudoType while the pattern is unknown.
func matchType(pattern cty.Value) (cty.Type, error) {
	if !pattern.IsKnown() {
		return cty.DynamicPseudoType, nil
	}
	_, ty, err := regexPattern(pattern.AsString())
	if err != nil {
		err = function.NewArgError(0, err)
	}
	return ty, err
}

// regexPattern returns pattern compiled and the type of one match: a
// string without capture groups, a tuple of strings with unnamed ones, an
// object of strings with named ones. Mixing the two is an error, as is a
// pattern that does not parse (go-cty's messages). Both are made once a
// process (patterns).
func regexPattern(pattern string) (*regexp.Regexp, cty.Type, error) {
	c := patterns.Get(pattern)
	return c.re, c.match, c.matchErr
}

// matchOf is the type of one match of re, a compiled pattern (see
// regexPattern).
func matchOf(re *regexp.Regexp) (cty.Type, error) {
	var names []string
	unnamed := 0
	for _, name := range re.SubexpNames()[1:] {
		if name == "" {
			unnamed++
		} else {
			names = append(names, name)
		}
	}
	switch {
	case unnamed == 0 && len(names) == 0:
		return cty.String, nil
	case unnamed > 0 && len(names) > 0:
		return cty.NilType, fmt.Errorf("invalid regexp pattern: cannot mix both named and unnamed capture groups")
	case unnamed > 0:
		etys := make([]cty.Type, unnamed)
		for i := range etys {
			etys[i] = cty.String
		}
		return cty.Tuple(etys), nil
	default:
		atys := make(map[string]cty.Type, len(names))
		for _, name := range names {
			atys[name] = cty.String
		}
		return cty.Object(atys), nil
	}
}

// regexMatch is one match of re in str (idx, its submatch indexes) as a
// value of ty, regexPattern's type: a group that took no part in the
// match is a null string.
func regexMatch(re *regexp.Regexp, str string, idx []int, ty cty.Type) cty.Value {
	if ty == cty.String {
		return cty.StringVal(str[idx[0]:idx[1]])
	}
	group := func(i int) cty.Value {
		start, end := idx[2+2*i], idx[3+2*i]
		if start < 0 || end < 0 {
			return cty.NullVal(cty.String)
		}
		return cty.StringVal(str[start:end])
	}
	if ty.IsTupleType() {
		vals := make([]cty.Value, (len(idx)-2)/2)
		for i := range vals {
			vals[i] = group(i)
		}
		return ctyelems.TupleVal(vals)
	}
	names := re.SubexpNames()[1:]
	vals := make(map[string]cty.Value, len(names))
	for i, name := range names {
		vals[name] = group(i)
	}
	return ctyelems.ObjectVal(vals)
}

// patterns holds the patterns compiled for regex, regexall and replace
// (and the limits' checks of them) for the process, with the type of
// regex's result: a fleet's hosts, and one host's services, call them with
// the same few patterns.
var patterns = textmemo.New(func(pattern string) compiledPattern {
	re, err := regexp.Compile(pattern)
	c := compiledPattern{re: re, err: err}
	switch se, ok := err.(*resyntax.Error); {
	case ok:
		c.matchErr = fmt.Errorf("invalid regexp pattern: %s in %s", se.Code, se.Expr)
	case err != nil:
		c.matchErr = fmt.Errorf("error parsing pattern: %s", err)
	default:
		c.match, c.matchErr = matchOf(re)
	}
	return c
}, 1<<16)

// compiledPattern is what regexp.Compile gives for a pattern, and the type
// of one match of it (regexPattern's). A *regexp.Regexp is safe for
// concurrent use, and nothing changes it.
type compiledPattern struct {
	re       *regexp.Regexp
	err      error
	match    cty.Type
	matchErr error
}

// compilePattern is regexp.Compile(pattern), from patterns.
func compilePattern(pattern string) (*regexp.Regexp, error) {
	c := patterns.Get(pattern)
	return c.re, c.err
}
