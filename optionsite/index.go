package optionsite

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/docgen"
	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/optiontext"
	"github.com/nodegen/nodegen/modtest"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// Index is what the page searches and shows: the options, sorted by
// path, and the hosts with their values.
type Index struct {
	Options []Option `json:"options"`
	Hosts   []Host   `json:"hosts"`
}

// Option is one documented option.
type Option struct {
	// Path is the option's path as docs/options.md writes it
	// (docgen.DocPath): <name> and * stand for any attribute and any
	// list element.
	Path string `json:"path"`
	Type string `json:"type"`
	// Default is the default's source text, or its default_text, which
	// is prose when DefaultIsText is set; nil when there is none.
	Default       *string `json:"default,omitempty"`
	DefaultIsText bool    `json:"default_is_text,omitempty"`
	Example       *string `json:"example,omitempty"`
	Description   string  `json:"description,omitempty"`
	ReadOnly      bool    `json:"read_only,omitempty"`
	// Declared is where the option is declared, FILE:LINE.
	Declared string `json:"declared"`
	// Snippet is a config block that defines the option (see Snippet).
	Snippet string `json:"snippet"`
}

// Host is one host's values: Values[i] explains Options[i] of the index,
// or is nil when the option has no value and no definition on the host
// (and for the options inside submodules, <name> and *, which have a
// value per instance: see the option holding them).
type Host struct {
	// Name is the host file as given on the command line.
	Name   string   `json:"name"`
	Values []*Value `json:"values"`
}

// Value is an option's value on a host and the definitions that set it,
// as `nodegen option HOST.hcl PATH` explains it.
type Value struct {
	// Text is the value as `nodegen option` shows it, cut after
	// MaxValueText bytes; "" when the option has no value.
	Text    string `json:"text,omitempty"`
	Defined bool   `json:"defined,omitempty"`
	// Set is true when the host defines the option: a definition other
	// than the default is in the host's file or a module it imports (not
	// in the built-in library).
	Set         bool         `json:"set,omitempty"`
	Error       string       `json:"error,omitempty"`
	Definitions []Definition `json:"definitions,omitempty"`
}

// Definition is one definition of an option on a host and its fate.
type Definition struct {
	// At is FILE:LINE:COLUMN.
	At    string `json:"at"`
	Value string `json:"value"`
	// State is won, overridden or disabled (property.State).
	State    string `json:"state"`
	Priority *int   `json:"priority,omitempty"`
	Default  bool   `json:"default,omitempty"`
	// Condition is the false condition of a disabled definition, and
	// where it is.
	Condition string `json:"condition,omitempty"`
}

// MaxValueText is how much of a value or a definition's value the index
// keeps (a host's systemd.services is hundreds of kilobytes); the page
// says that `nodegen option` shows the rest.
const MaxValueText = 4096

// NamedEvaluator is a host: its evaluation and the name the page gives it.
type NamedEvaluator struct {
	Name string
	Eval *eval.Evaluator
}

// Build makes the index of the documented options in decls (sorted by
// path, as Evaluator.Declarations returns them) and of each host's values.
func Build(decls []eval.Declaration, hosts []NamedEvaluator) Index {
	decls = docgen.Documented(decls)
	idx := Index{Options: make([]Option, 0, len(decls)), Hosts: []Host{}}
	for _, d := range decls {
		o := Option{
			Path:        docgen.DocPath(d.Path),
			Type:        d.Type,
			Description: strings.TrimSpace(d.Description),
			ReadOnly:    d.ReadOnly,
			Declared:    fmt.Sprintf("%s:%d", d.Range.Filename, d.Range.Start.Line),
			Snippet:     Snippet(d),
		}
		if d.HasDefault {
			def := d.Default
			o.Default = &def
			o.DefaultIsText = d.DefaultIsText
		}
		if d.Example != "" {
			ex := d.Example
			o.Example = &ex
		}
		idx.Options = append(idx.Options, o)
	}
	for _, h := range hosts {
		host := Host{Name: h.Name, Values: make([]*Value, len(decls))}
		for i, d := range decls {
			if hasPlaceholder(d.Path) {
				continue
			}
			host.Values[i] = explain(h.Eval, d.Path)
		}
		idx.Hosts = append(idx.Hosts, host)
	}
	return idx
}

func hasPlaceholder(p options.Path) bool {
	for _, seg := range p {
		if seg == "<name>" || seg == "*" {
			return true
		}
	}
	return false
}

// explain is the Value of the option at p on the host ev, nil when it has
// neither a value nor a definition.
func explain(ev *eval.Evaluator, p options.Path) *Value {
	x, diags := ev.Explain(p)
	if x == nil {
		if diags.HasErrors() {
			return &Value{Error: firstError(diags)}
		}
		return nil
	}
	files := ev.Files()
	v := &Value{Defined: x.Defined}
	switch {
	case x.Defined && x.Value.IsWhollyKnown():
		v.Text = cut(modtest.ShowValue(x.Value))
	case x.Defined:
		v.Text = "(cannot be evaluated: see the error)"
	}
	if diags.HasErrors() {
		v.Error = firstError(diags)
	}
	for _, d := range x.Definitions {
		def := Definition{
			At:      options.ShowPos(d.Range),
			Value:   cut(optiontext.DefinitionValue(files, d)),
			State:   d.State.String(),
			Default: d.IsDefault,
		}
		if d.State != property.Disabled {
			prio := d.Priority
			def.Priority = &prio
		}
		if d.State == property.Disabled && d.Condition.Filename != "" {
			def.Condition = optiontext.SourceOf(files, d.Condition) + "  (" + options.ShowPos(d.Condition) + ")"
		}
		if !d.IsDefault && eval.OriginOf(d.Range) != eval.Library {
			v.Set = true
		}
		v.Definitions = append(v.Definitions, def)
	}
	if !v.Defined && len(v.Definitions) == 0 && v.Error == "" {
		return nil
	}
	return v
}

// firstError is the first error of diags, located, as one line.
func firstError(diags hcl.Diagnostics) string {
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		s := d.Summary
		if d.Detail != "" {
			s += ": " + d.Detail
		}
		if d.Subject != nil {
			s = options.ShowPos(*d.Subject) + ": " + s
		}
		return cut(s)
	}
	return ""
}

// cut cuts s after MaxValueText bytes (at a rune boundary) and says so.
func cut(s string) string {
	if len(s) <= MaxValueText {
		return s
	}
	n := MaxValueText
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + fmt.Sprintf("\n… (%d more bytes: `nodegen option` shows it all)", len(s)-n)
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// Union is the declarations of several evaluations (hosts that import
// modules of their own) without repeats: the first declaration of each
// path, sorted by path as Evaluator.Declarations sorts them.
func Union(decls []eval.Declaration) []eval.Declaration {
	seen := map[string]bool{}
	var out []eval.Declaration
	for _, d := range decls {
		k := d.Path.String()
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, d)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path.String() < out[j].Path.String() })
	return out
}
