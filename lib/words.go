package lib

import (
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/nodegen/nodegen/internal/wordrule"
)

// ShellQuoteFunc is shellquote(str): str as one single-quoted word of a
// POSIX shell script (wordrule.ShellQuote), for the values a generated script
// passes to a command.
var ShellQuoteFunc = native(&function.Spec{
	Description: "Returns the string as one single-quoted word of a POSIX shell script, each ' written '\\''.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(wordrule.ShellQuote(args[0].AsString())), nil
	},
})

// SystemdExecArgFunc is systemdexecarg(str): str as one argument of a
// unit's command line (wordrule.SystemdExecArg), for the values a module puts
// into ExecStart=. A NUL byte, which no argument can hold, is an error.
var SystemdExecArgFunc = native(&function.Spec{
	Description: "Returns the string as one argument of a systemd unit's command line: % and $ doubled, and double-quoted with \\, \" and control characters escaped when it holds white space, a quote, a backslash or a control character.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		s := args[0].AsString()
		if strings.ContainsRune(s, 0) {
			// systemd reads no NUL in an argument: it takes \x00 as
			// the four characters, with a warning.
			return cty.NilVal, function.NewArgErrorf(0, "an argument of a unit's command line cannot hold a NUL byte")
		}
		return cty.StringVal(wordrule.SystemdExecArg(s)), nil
	},
})
