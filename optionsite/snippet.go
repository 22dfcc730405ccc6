package optionsite

import (
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/options"
)

// InstanceName is the attribute name a snippet gives an option inside an
// attribute set of submodules (the <name> of its path).
const InstanceName = "example"

// Snippet is a config block that defines the option d, for the user to
// copy into a host and edit:
//
//	config "services.openssh" {
//	  enable = true
//	}
//
// The value is the option's example; else, for a boolean, the opposite
// of its default; else its default when that is a literal (it reads
// nothing); else an empty value of its type ("", [], {}, 0, null). A
// <name> of the path becomes InstanceName, a * an element of a list.
func Snippet(d eval.Declaration) string {
	value := snippetValue(d)
	segs := make([]string, len(d.Path))
	copy(segs, d.Path)
	star := len(segs)
	for i, s := range segs {
		if s == "*" {
			star = i
			break
		}
		if s == "<name>" {
			segs[i] = InstanceName
		}
	}
	if star < len(segs) {
		value = "[" + nested(segs[star+1:], value) + "]"
		segs = segs[:star]
	}
	var b strings.Builder
	label := segs[:len(segs)-1]
	attr := segs[len(segs)-1]
	if len(label) == 0 {
		b.WriteString("config {\n")
	} else {
		b.WriteString("config " + strconv.Quote(options.Path(label).String()) + " {\n")
	}
	b.WriteString("  " + key(attr) + " = " + strings.ReplaceAll(value, "\n", "\n  ") + "\n}\n")
	return b.String()
}

// nested is value inside the objects and lists that segs name.
func nested(segs []string, value string) string {
	if len(segs) == 0 {
		return value
	}
	rest := nested(segs[1:], value)
	switch segs[0] {
	case "*":
		return "[" + rest + "]"
	case "<name>":
		return "{ " + InstanceName + " = " + rest + " }"
	}
	return "{ " + key(segs[0]) + " = " + rest + " }"
}

// key is an attribute name as HCL writes it: bare when it is an
// identifier, else quoted.
func key(name string) string {
	if hclsyntax.ValidIdentifier(name) {
		return name
	}
	return strconv.Quote(name)
}

func snippetValue(d eval.Declaration) string {
	if d.Example != "" {
		return strings.TrimRight(d.Example, "\n")
	}
	if d.Type == "boolean" {
		if d.HasDefault && d.Default == "true" {
			return "false"
		}
		return "true"
	}
	if d.HasDefault && !d.DefaultIsText && isLiteral(d.Default) {
		return strings.TrimRight(d.Default, "\n")
	}
	return emptyOf(d.Type)
}

// isLiteral tells whether src is an expression that reads nothing (no
// variable, no function call), so that it means the same in any module.
func isLiteral(src string) bool {
	expr, diags := hclsyntax.ParseExpression([]byte(src), "", hcl.InitialPos)
	if diags.HasErrors() || len(expr.Variables()) > 0 {
		return false
	}
	calls := false
	_ = hclsyntax.VisitAll(expr, func(n hclsyntax.Node) hcl.Diagnostics {
		if _, ok := n.(*hclsyntax.FunctionCallExpr); ok {
			calls = true
		}
		return nil
	})
	return !calls
}

// emptyOf is an empty value of the type named t (as Declaration.Type
// writes it).
func emptyOf(t string) string {
	switch {
	case strings.HasPrefix(t, "null or "):
		return "null"
	case strings.HasPrefix(t, "list of"):
		return "[]"
	case strings.HasPrefix(t, "attribute set"), strings.HasPrefix(t, "submodule"), strings.HasPrefix(t, "(submodule"):
		return "{}"
	case strings.HasPrefix(t, "one of "):
		first, _, _ := strings.Cut(strings.TrimPrefix(t, "one of "), ",")
		return strings.TrimSpace(first)
	case strings.Contains(t, "integer"):
		return "1"
	}
	return `""`
}
