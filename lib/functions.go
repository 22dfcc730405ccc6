package lib

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// Functions returns the functions that every module's expressions may call,
// by name: the go-cty stdlib set under Terraform's names, the functions
// Terraform has and the stdlib lacks (written here in Terraform's style),
// throw, and the encoders yamlencode, tomlencode, iniencode, keyvalueencode
// and formatencode.
//
// The map is new on every call, so the caller may add to it. It does not
// hold "file", which depends on the module (see FileFunc), nor the special
// forms that the evaluator handles itself: try, can, and the definition
// properties of property.Forms (mkIf, mkMerge, mkOverride and the
// others).
func Functions() map[string]function.Function {
	return map[string]function.Function{
		// Numbers.
		"abs":      stdlib.AbsoluteFunc,
		"ceil":     stdlib.CeilFunc,
		"floor":    stdlib.FloorFunc,
		"log":      stdlib.LogFunc,
		"max":      stdlib.MaxFunc,
		"min":      stdlib.MinFunc,
		"parseint": stdlib.ParseIntFunc,
		"pow":      stdlib.PowFunc,
		"signum":   stdlib.SignumFunc,

		// Strings.
		"basename":    BasenameFunc,
		"chomp":       stdlib.ChompFunc,
		"dirname":     DirnameFunc,
		"endswith":    EndsWithFunc,
		"format":      stdlib.FormatFunc,
		"formatlist":  stdlib.FormatListFunc,
		"indent":      stdlib.IndentFunc,
		"join":        stdlib.JoinFunc,
		"lower":       stdlib.LowerFunc,
		"regex":       stdlib.RegexFunc,
		"regexall":    stdlib.RegexAllFunc,
		"replace":     ReplaceFunc,
		"shellquote":  ShellQuoteFunc,
		"split":       stdlib.SplitFunc,
		"startswith":  StartsWithFunc,
		"strcontains": StrContainsFunc,
		"strrev":      stdlib.ReverseFunc,
		"substr":      stdlib.SubstrFunc,
		"title":       stdlib.TitleFunc,
		"trim":        stdlib.TrimFunc,
		"trimprefix":  stdlib.TrimPrefixFunc,
		"trimspace":   stdlib.TrimSpaceFunc,
		"trimsuffix":  stdlib.TrimSuffixFunc,
		"upper":       stdlib.UpperFunc,

		// Networks.
		"cidrcontains": CIDRContainsFunc,

		// Collections.
		"alltrue":         AllTrueFunc,
		"anytrue":         AnyTrueFunc,
		"chunklist":       stdlib.ChunklistFunc,
		"coalesce":        CoalesceFunc,
		"coalescelist":    stdlib.CoalesceListFunc,
		"compact":         stdlib.CompactFunc,
		"concat":          stdlib.ConcatFunc,
		"contains":        stdlib.ContainsFunc,
		"distinct":        stdlib.DistinctFunc,
		"element":         stdlib.ElementFunc,
		"flatten":         stdlib.FlattenFunc,
		"index":           IndexFunc,
		"keys":            stdlib.KeysFunc,
		"length":          LengthFunc,
		"lookup":          stdlib.LookupFunc,
		"merge":           stdlib.MergeFunc,
		"range":           stdlib.RangeFunc,
		"reverse":         stdlib.ReverseListFunc,
		"setintersection": stdlib.SetIntersectionFunc,
		"setproduct":      stdlib.SetProductFunc,
		"setsubtract":     stdlib.SetSubtractFunc,
		"setunion":        stdlib.SetUnionFunc,
		"slice":           stdlib.SliceFunc,
		"sort":            stdlib.SortFunc,
		"sum":             SumFunc,
		"transpose":       TransposeFunc,
		"values":          stdlib.ValuesFunc,
		"zipmap":          stdlib.ZipmapFunc,

		// Encodings and digests.
		"base64decode":   Base64DecodeFunc,
		"base64encode":   Base64EncodeFunc,
		"csvdecode":      stdlib.CSVDecodeFunc,
		"formatencode":   FormatEncodeFunc,
		"iniencode":      INIEncodeFunc,
		"jsondecode":     stdlib.JSONDecodeFunc,
		"jsonencode":     JSONEncodeFunc,
		"keyvalueencode": KeyValueEncodeFunc,
		"md5":            MD5Func,
		"sha1":           SHA1Func,
		"sha256":         SHA256Func,
		"tomlencode":     TOMLEncodeFunc,
		"urlencode":      URLEncodeFunc,
		"yamlencode":     YAMLEncodeFunc,
		"systemdunit":    SystemdUnitFunc,
		"systemdexecarg": SystemdExecArgFunc,

		// Conversions.
		"tobool":   toBoolFunc,
		"tolist":   toListFunc,
		"tomap":    toMapFunc,
		"tonumber": toNumberFunc,
		"toset":    toSetFunc,
		"tostring": toStringFunc,

		// Errors.
		"throw": ThrowFunc,
	}
}

// The conversion functions, made once: stdlib.MakeToFunc makes a new
// function on every call, and Call knows the parameters of a foreign
// function without copying them only for the functions made once
// (foreignParams).
var (
	toBoolFunc   = stdlib.MakeToFunc(cty.Bool)
	toListFunc   = stdlib.MakeToFunc(cty.List(cty.DynamicPseudoType))
	toMapFunc    = stdlib.MakeToFunc(cty.Map(cty.DynamicPseudoType))
	toNumberFunc = stdlib.MakeToFunc(cty.Number)
	toSetFunc    = stdlib.MakeToFunc(cty.Set(cty.DynamicPseudoType))
	toStringFunc = stdlib.MakeToFunc(cty.String)
)

// ThrowError is the error of a call to throw. The evaluator turns it into a
// diagnostic whose summary is Msg.
type ThrowError struct {
	Msg string
}

// Error returns the message given to throw.
func (e *ThrowError) Error() string { return e.Msg }

// ThrowFunc is throw(msg): it always fails, with a *ThrowError holding msg.
// Since the evaluator evaluates only what it needs, the error is raised only
// where the call is evaluated, as in Nix.
var ThrowFunc = native(&function.Spec{
	Description: "Raises an error with the given message.",
	Params: []function.Parameter{
		{
			Name:        "msg",
			Description: "The message of the error.",
			Type:        cty.String,
		},
	},
	Type: function.StaticReturnType(cty.DynamicPseudoType),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.NilVal, &ThrowError{Msg: args[0].AsString()}
	},
})
