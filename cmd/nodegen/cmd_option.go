package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/pflag"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/optiontext"
	"github.com/nodegen/nodegen/internal/runtimetune"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

func init() {
	commands = append(commands, &command{
		name:    "option",
		gc:      runtimetune.OneEvaluation,
		summary: "Explain an option: its value, type, default, declaration and every definition.",
		usage:   "nodegen option [--json] [--bare] [--show-trace] [--fleet FLEET.hcl] [MODULE.hcl...] PATH",
		help: `Evaluates the modules with the library and shows, for the option at
PATH, its value, type, default, description and where it is declared,
then every definition in definition order with its location, its
priority and what became of it:

  won         it has the winning (lowest) priority and is part of the value
  overridden  a definition with a lower priority number won
  disabled    an mkIf condition or a config block's when was false

PATH may lie inside submodule instances: systemd.services.kubelet.after.
It may also be a key inside the value of an option, of an attribute set
or an anything tree: systemd.services.web.serviceConfig.Restart or
boot.kernel.sysctl."net.core.somaxconn"; the definitions are then those
that set the key, with their value and priority there.`,
		example: "nodegen option fixtures/minimal/host.hcl networking.hostName\nnodegen option --json host.hcl systemd.services.kubelet.after",
		args:    argsModulesOption,
		flags: func(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
			var ef evalFlags
			asJSON := fs.Bool("json", false, "print the explanation as JSON")
			ef.add(fs)
			return func(args []string, stdout, stderr io.Writer) int {
				return runOption(args, &ef, *asJSON, stdout, stderr)
			}
		},
	})
}

func runOption(args []string, ef *evalFlags, asJSON bool, stdout, stderr io.Writer) int {
	c := findCommand("option")
	if len(args) == 0 {
		return usageError(stderr, c, "no option path given")
	}
	files, arg := args[:len(args)-1], args[len(args)-1]
	if strings.HasSuffix(arg, ".hcl") {
		return usageError(stderr, c, "the last argument is the option's path, not a module (%s)", arg)
	}
	p, err := options.ParsePath(arg)
	if err != nil || len(p) == 0 {
		if err == nil {
			err = fmt.Errorf("empty path")
		}
		return usageError(stderr, c, "%q: %s", arg, err)
	}
	ev, diags := newEvaluator(ef.config(files))
	if diags.HasErrors() {
		printDiags(stderr, ev.Files(), diags)
		return exitError
	}
	x, d := ev.Explain(p)
	d = commandLineDiags(d)
	if x == nil {
		if s := instanceSuggestion(ev, p); s != nil {
			d = hcl.Diagnostics{s}
		}
		printDiags(stderr, ev.Files(), d)
		return exitError
	}
	if asJSON {
		writeJSON(stdout, explanationJSON(ev, x))
	} else {
		writeExplanation(stdout, ev, x)
	}
	if d.HasErrors() {
		printDiags(stderr, ev.Files(), d)
		return exitError
	}
	return exitOK
}

// commandLineDiags drops the subjects that point at the command line,
// which has no source to show.
func commandLineDiags(diags hcl.Diagnostics) hcl.Diagnostics {
	for _, d := range diags {
		if d.Subject != nil && (d.Subject.Filename == "" || strings.HasPrefix(d.Subject.Filename, "<command")) {
			d.Subject = nil
		}
	}
	return diags
}

// instanceSuggestion explains a path that names a submodule instance
// that does not exist (systemd.services.kublet.after): it names the
// instances there are and the closest one. It returns nil when p is not
// such a path.
func instanceSuggestion(ev *eval.Evaluator, p options.Path) *hcl.Diagnostic {
	for _, decl := range ev.Declarations() {
		if len(decl.Path) != len(p) {
			continue
		}
		hole := -1
		ok := true
		for i, seg := range decl.Path {
			switch {
			case seg == "<name>":
				if hole < 0 {
					hole = i
				}
			case seg == "*":
				ok = false
			case seg != p[i]:
				ok = false
			}
		}
		if !ok || hole < 0 {
			continue
		}
		v, diags := ev.Get(p[:hole])
		if diags.HasErrors() || !v.IsKnown() || v.IsNull() || !v.Type().IsObjectType() {
			continue
		}
		if v.Type().HasAttribute(p[hole]) {
			continue
		}
		var names []string
		for n := range v.Type().AttributeTypes() {
			names = append(names, n)
		}
		sort.Strings(names)
		detail := fmt.Sprintf("%s has no attribute %q, so there is no submodule instance %q.", p[:hole].String(), p[hole], p[:hole+1].String())
		switch {
		case len(names) == 0:
			detail += fmt.Sprintf(" %s is empty.", p[:hole].String())
		case options.DidYouMean(p[hole], names) != "":
			detail += fmt.Sprintf(" Did you mean %q?", p[:hole].Child(options.DidYouMean(p[hole], names)).Child(p[hole+1:].String()).String())
		default:
			detail += fmt.Sprintf(" Its attributes are: %s.", strings.Join(quoteAll(names), ", "))
		}
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("No submodule instance %q", p[:hole+1].String()),
			Detail:   detail,
		}
	}
	return nil
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

func writeExplanation(w io.Writer, ev *eval.Evaluator, x *eval.Explanation) {
	optiontext.Write(w, ev.Files(), x)
}

type optionJSON struct {
	Path        string           `json:"path"`
	KeyOf       *string          `json:"key_of,omitempty"`
	Defined     bool             `json:"defined"`
	Value       json.RawMessage  `json:"value"`
	Type        string           `json:"type"`
	Default     *string          `json:"default"`
	ReadOnly    bool             `json:"read_only"`
	Description string           `json:"description"`
	Declared    rangeJSON        `json:"declared"`
	Definitions []definitionJSON `json:"definitions"`
}

type definitionJSON struct {
	Range     rangeJSON      `json:"range"`
	Value     string         `json:"value"`
	Priority  *int           `json:"priority"`
	State     string         `json:"state"`
	IsDefault bool           `json:"is_default"`
	Condition *conditionJSON `json:"condition,omitempty"`
}

type conditionJSON struct {
	Range rangeJSON `json:"range"`
	Text  string    `json:"text"`
}

type rangeJSON struct {
	Filename string  `json:"filename"`
	Start    posJSON `json:"start"`
	End      posJSON `json:"end"`
}

type posJSON struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

func toRangeJSON(r hcl.Range) rangeJSON {
	return rangeJSON{
		Filename: r.Filename,
		Start:    posJSON{r.Start.Line, r.Start.Column, r.Start.Byte},
		End:      posJSON{r.End.Line, r.End.Column, r.End.Byte},
	}
}

func explanationJSON(ev *eval.Evaluator, x *eval.Explanation) optionJSON {
	files := ev.Files()
	out := optionJSON{
		Path:        x.Path.String(),
		Defined:     x.Defined,
		Value:       json.RawMessage("null"),
		Type:        x.Type,
		ReadOnly:    x.ReadOnly,
		Description: x.Description,
		Declared:    toRangeJSON(x.Declared),
		Definitions: []definitionJSON{},
	}
	if x.Defined && x.Value.IsWhollyKnown() {
		if b, err := eval.JSON(x.Value); err == nil {
			out.Value = json.RawMessage(b)
		}
	}
	if x.HasDefault {
		def := x.Default
		out.Default = &def
	}
	if x.KeyOf != nil {
		opt := x.KeyOf.String()
		out.KeyOf = &opt
	}
	for _, d := range x.Definitions {
		dj := definitionJSON{Range: toRangeJSON(d.Range), Value: optiontext.DefinitionValue(files, d), State: d.State.String(), IsDefault: d.IsDefault}
		if d.State != property.Disabled {
			prio := d.Priority
			dj.Priority = &prio
		}
		if d.State == property.Disabled && d.Condition.Filename != "" {
			dj.Condition = &conditionJSON{Range: toRangeJSON(d.Condition), Text: optiontext.SourceOf(files, d.Condition)}
		}
		out.Definitions = append(out.Definitions, dj)
	}
	return out
}

// writeJSON writes v as indented JSON without HTML escaping.
func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}
