package modtest

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval"
)

// maxValueLines is how many lines of a value a failure shows.
const maxValueLines = 40

// failureDetail is the detail of a failed assert's diagnostic: the
// error_message, then the values the condition reads.
func failureDetail(f *AssertFailure) string {
	var b strings.Builder
	b.WriteString(f.Message)
	if len(f.Values) > 0 {
		b.WriteString("\n")
	}
	for _, v := range f.Values {
		b.WriteString("\n")
		if v.Error != "" {
			fmt.Fprintf(&b, "%s has no value: %s", v.Expr, v.Error)
			continue
		}
		fmt.Fprintf(&b, "%s is %s", v.Expr, ShowValue(v.Value))
	}
	return b.String()
}

// ShowValue renders a configuration value as HCL: on one line when it is
// short, else indented over several lines; a string of several lines as a
// heredoc. It shows at most 40 lines.
func ShowValue(v cty.Value) string {
	if v.IsKnown() && !v.IsNull() && v.Type() == cty.String && strings.Contains(strings.TrimSuffix(v.AsString(), "\n"), "\n") {
		text := v.AsString()
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		return truncateLines("<<EOT\n" + text + "EOT")
	}
	return truncateLines(render(v, ""))
}

// lineWidth is the width up to which a value is shown on one line.
const lineWidth = 80

// render writes v on one line if it fits in lineWidth after indent, else
// its elements one per line.
func render(v cty.Value, indent string) string {
	one := oneLine(v)
	if len(indent)+len(one) <= lineWidth || !v.IsKnown() || v.IsNull() {
		return one
	}
	ty := v.Type()
	inner := indent + "  "
	var b strings.Builder
	switch {
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		b.WriteString("[\n")
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			b.WriteString(inner + render(e, inner) + ",\n")
		}
		b.WriteString(indent + "]")
	case ty.IsObjectType() || ty.IsMapType():
		b.WriteString("{\n")
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			key := hclKey(k.AsString())
			b.WriteString(inner + key + " = " + render(e, inner) + "\n")
		}
		b.WriteString(indent + "}")
	default:
		return one
	}
	return b.String()
}

// oneLine writes v as HCL on one line.
func oneLine(v cty.Value) string {
	switch {
	case !v.IsKnown():
		return "(not known)"
	case v.IsNull():
		return "null"
	}
	ty := v.Type()
	switch {
	case ty == cty.String || ty == cty.Number || ty == cty.Bool:
		return string(hclwrite.TokensForValue(v).Bytes())
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		var parts []string
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			parts = append(parts, oneLine(e))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case ty.IsObjectType() || ty.IsMapType():
		if v.LengthInt() == 0 {
			return "{}"
		}
		var parts []string
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			parts = append(parts, hclKey(k.AsString())+" = "+oneLine(e))
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	return fmt.Sprintf("%#v", eval.GoValue(v))
}

// hclKey writes an object key: bare when it is an identifier, else quoted.
func hclKey(k string) string {
	if hclsyntax.ValidIdentifier(k) {
		return k
	}
	return string(hclwrite.TokensForValue(cty.StringVal(k)).Bytes())
}

func truncateLines(s string) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= maxValueLines {
		return s
	}
	return strings.Join(lines[:maxValueLines], "\n") + fmt.Sprintf("\n... (%d more lines)", len(lines)-maxValueLines)
}
