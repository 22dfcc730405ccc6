// Package optiontext writes the explanation of an option (eval.Explain) as
// `nodegen option` prints it: value, type, default, description,
// declaration, and every definition with its state. The language server's
// hover shows the same text.
package optiontext

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/hashicorp/hcl/v2"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/modtest"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// SourceOf returns the source text of a range, or "" when files do not
// hold it.
func SourceOf(files map[string]*hcl.File, r hcl.Range) string {
	f := files[r.Filename]
	if f == nil || r.End.Byte > len(f.Bytes) || r.Start.Byte > r.End.Byte {
		return ""
	}
	return string(r.SliceBytes(f.Bytes))
}

// DefinitionValue is how a definition is shown: its value as far as it was
// evaluated, or, when parts of it were never needed, its source text.
func DefinitionValue(files map[string]*hcl.File, d eval.DefinitionInfo) string {
	if !strings.Contains(d.Value, "<lazy>") {
		return d.Value
	}
	src := SourceOf(files, d.Range)
	if src == "" || strings.Contains(src, "\n") || len(src) > 80 {
		return d.Value
	}
	if _, diags := hclsyntax.ParseExpression([]byte(src), "", hcl.InitialPos); diags.HasErrors() {
		return d.Value
	}
	return src
}

// Write writes the explanation x of an option, with files the
// evaluation's (for the source of lazy definitions and conditions).
func Write(w io.Writer, files map[string]*hcl.File, x *eval.Explanation) {
	section := func(title, body string) {
		fmt.Fprintf(w, "%s:\n%s\n\n", title, indent(body, "  "))
	}
	fmt.Fprintf(w, "%s\n\n", x.Path.String())
	if x.Defined && !x.Value.IsWhollyKnown() {
		section("Value", "(cannot be evaluated: see the errors)")
	} else if x.Defined {
		section("Value", modtest.ShowValue(x.Value))
	} else if x.KeyOf != nil {
		section("Value", "(none: the key is not set)")
	} else {
		section("Value", "(none: no definition and no default)")
	}
	switch {
	case x.KeyOf != nil:
		// The option's default is among the definitions when it sets
		// the key.
		section("Key of", fmt.Sprintf("option %s, of type %s", x.KeyOf.String(), x.Type))
	case x.HasDefault:
		section("Type", x.Type)
		section("Default", x.Default)
	default:
		section("Type", x.Type)
		section("Default", "(none)")
	}
	if x.ReadOnly {
		section("Read-only", "yes: more than one definition (the default counts) is an error")
	}
	if strings.TrimSpace(x.Description) != "" {
		section("Description", strings.TrimSpace(x.Description))
	}
	section("Declared in", options.ShowPos(x.Declared))
	if len(x.Definitions) == 0 {
		fmt.Fprintln(w, "Definitions: none")
		return
	}
	fmt.Fprintln(w, "Definitions (the lowest priority number wins):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, d := range x.Definitions {
		prio := ""
		if d.State != property.Disabled {
			prio = fmt.Sprintf("priority %d", d.Priority)
		}
		val := DefinitionValue(files, d)
		if d.IsDefault {
			val += "  (the default)"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", d.State.String(), prio, options.ShowPos(d.Range), val)
		if d.State == property.Disabled && d.Condition.Filename != "" {
			fmt.Fprintf(tw, "  \t\t\tcondition is false: %s  (%s)\n", SourceOf(files, d.Condition), options.ShowPos(d.Condition))
		}
	}
	tw.Flush()
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}
