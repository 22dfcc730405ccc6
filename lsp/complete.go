package lsp

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/optionpath"
	"github.com/nodegen/nodegen/lib"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// completion proposes, at the cursor: the options and namespaces below the
// path being written (a config block's label, an attribute name or
// object key in a config block, inside submodule instances and freeform
// settings with declared options, a config.PATH reference); the values of
// an enum or a bool option in its value; and in expressions, the
// functions with their signatures. In a test file, it proposes the
// blocks and arguments of machine tests too (testCompletion).
//
// It answers from the document's last evaluation, without evaluating the
// edits since: typing changes the options declared and defined little, and
// completion is asked for at every keystroke.
func (s *Server) completion(params json.RawMessage) (any, *responseError) {
	p, rerr := decode[positionParams](params)
	if rerr != nil {
		return nil, rerr
	}
	d, off := s.docAt(p)
	if d == nil {
		return nil, nil
	}
	ev := s.evalOf(d)
	st := locate(d.body, d.text.src, off)
	edit := func(newText string) *textEdit {
		start := st.wordStart
		if strings.HasPrefix(newText, "[") && start > 0 && d.text.src[start-1] == '.' {
			start-- // an index replaces the dot before it
		}
		return &textEdit{Range: Range{d.text.position(start, s.enc), d.text.position(max(off, st.wordEnd), s.enc)}, NewText: newText}
	}
	items := []CompletionItem{}
	if isTestFile(d.name) {
		tests, handled := testCompletion(d.text.src, d.name, off, func(start, end int, text string) *textEdit {
			return &textEdit{Range: Range{d.text.position(start, s.enc), d.text.position(end, s.enc)}, NewText: text}
		})
		if handled {
			return completionList{Items: append(items, tests...)}, nil
		}
	}
	switch st.kind {
	case siteKey, siteDecl:
		items = append(items, s.pathItems(ev, st, edit)...)
	case siteValue:
		items = append(items, s.valueItems(ev, st.path, edit)...)
	}
	if st.inExpr && st.kind != siteKey {
		// The functions that start with what is typed: the list is long
		// and holds nothing else.
		for _, it := range functionItems(ev, edit) {
			if strings.HasPrefix(strings.ToLower(it.Label), strings.ToLower(st.word)) {
				items = append(items, it)
			}
		}
	}
	return completionList{Items: items}, nil
}

// pathItems are the options and namespaces right below st.prefix.
func (s *Server) pathItems(ev *eval.Evaluator, st site, edit func(string) *textEdit) []CompletionItem {
	seen := map[string]bool{}
	var items []CompletionItem
	for _, decl := range s.declarations(ev) {
		if len(decl.Path) <= len(st.prefix) || !matches(decl.Path, st.prefix) {
			continue
		}
		seg := decl.Path[len(st.prefix)]
		if seg == "<name>" && !seen[seg] {
			seen[seg] = true
			items = append(items, instanceItems(ev, st, edit)...)
		}
		if seg == "<name>" || seg == "*" || seen[seg] {
			continue
		}
		seen[seg] = true
		it := CompletionItem{Label: seg, TextEdit: edit(segmentText(seg, st))}
		if len(decl.Path) == len(st.prefix)+1 {
			it.Kind = kindProperty
			it.Detail = decl.Type
			it.Documentation = &markupContent{Kind: "markdown", Value: declDoc(decl)}
		} else {
			it.Kind = kindModule
			it.Detail = "options below " + st.prefix.Child(seg).String()
		}
		items = append(items, it)
	}
	sort.Slice(items, func(i, j int) bool { return items[i].Label < items[j].Label })
	return items
}

// segmentText is how a path segment is written where the site is: as it
// is when it is an identifier; else quoted, in a label with escaped quotes
// (config "environment.etc.\"ssl/certs/ca.pem\""), and in a reference as
// an index (config.environment.etc["ssl/certs/ca.pem"], which replaces the
// dot before it).
func segmentText(seg string, st site) string {
	switch {
	case optionpath.IsIdentifier(seg):
		return seg
	case st.label:
		q := fmt.Sprintf("%q", seg)
		return `\"` + q[1:len(q)-1] + `\"`
	case st.inExpr:
		return fmt.Sprintf("[%q]", seg)
	}
	return fmt.Sprintf("%q", seg)
}

// instanceItems are the names of the instances of the attribute set of
// submodules at p (systemd.services: the services defined), from its
// value.
func instanceItems(ev *eval.Evaluator, st site, edit func(string) *textEdit) []CompletionItem {
	p := st.prefix
	v, diags := ev.Get(p)
	if diags.HasErrors() || !v.IsKnown() || v.IsNull() || !(v.Type().IsObjectType() || v.Type().IsMapType()) {
		return nil
	}
	var items []CompletionItem
	for it := v.ElementIterator(); it.Next(); {
		k, _ := it.Element()
		name := k.AsString()
		items = append(items, CompletionItem{Label: name, Kind: kindField, Detail: "defined: " + p.Child(name).String(), TextEdit: edit(segmentText(name, st))})
	}
	return items
}

// declDoc is an option's documentation in a completion item.
func declDoc(decl eval.Declaration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (%s)\n\n", decl.Path.String(), decl.Type)
	if d := strings.TrimSpace(decl.Description); d != "" {
		b.WriteString(d + "\n\n")
	}
	if decl.HasDefault {
		fmt.Fprintf(&b, "Default: `%s`\n\n", decl.Default)
	}
	fmt.Fprintf(&b, "Declared in %s", options.ShowPos(decl.Range))
	return b.String()
}

// types are an evaluation's TypedDeclarations, kept as declarations are.
func (s *Server) types(ev *eval.Evaluator) []eval.TypedDeclaration {
	return cached(s.typeCache, ev, ev.TypedDeclarations)
}

// valueItems are the values an option's type lists: an enum's, or true
// and false.
func (s *Server) valueItems(ev *eval.Evaluator, p options.Path, edit func(string) *textEdit) []CompletionItem {
	var t options.Type
	for _, td := range s.types(ev) {
		if len(td.Path) == len(p) && matches(td.Path, p) {
			t = td.Type
			break
		}
	}
	for {
		n, ok := t.(options.NullOr)
		if !ok {
			break
		}
		t = n.Elem
	}
	var items []CompletionItem
	switch t := t.(type) {
	case options.Enum:
		for i, v := range t.Values {
			text := options.ShowValue(v)
			if v.Type() == cty.String {
				text = fmt.Sprintf("%q", v.AsString())
			}
			items = append(items, CompletionItem{Label: text, Kind: kindEnumMember, Detail: p.String(), TextEdit: edit(text), SortText: fmt.Sprintf("%04d", i)})
		}
	case options.Bool:
		for _, v := range []string{"false", "true"} {
			items = append(items, CompletionItem{Label: v, Kind: kindValue, Detail: p.String(), TextEdit: edit(v)})
		}
	}
	return items
}

// functionItems are the functions a module calls, with their signatures:
// the library's, the special forms (mkIf, ...), and those the modules of
// the evaluation declare with function blocks (when ev is not nil).
func functionItems(ev *eval.Evaluator, edit func(string) *textEdit) []CompletionItem {
	var items []CompletionItem
	if ev != nil {
		for name, sig := range ev.FunctionSignatures() {
			items = append(items, CompletionItem{Label: name, Kind: kindFunction, Detail: sig + ": a function block of the modules", TextEdit: edit(name)})
		}
	}
	for name, f := range lib.Functions() {
		items = append(items, CompletionItem{Label: name, Kind: kindFunction, Detail: functionSignature(name, f.Params(), f.VarParam()), TextEdit: edit(name)})
	}
	for _, f := range property.Forms {
		items = append(items, CompletionItem{Label: f.Name, Kind: kindFunction, Detail: formSignature(f), TextEdit: edit(f.Name)})
	}
	for _, it := range specialForms {
		it.Kind, it.TextEdit = kindFunction, edit(it.Label)
		items = append(items, it)
	}
	sort.Slice(items, func(i, j int) bool { return items[i].Label < items[j].Label })
	return items
}

// specialForms are the functions the evaluator handles itself, besides
// the definition properties.
var specialForms = []CompletionItem{
	{Label: "file", Detail: "file(path string): the content of a file next to the module"},
	{Label: "try", Detail: "try(expressions...): the first that evaluates without an error"},
	{Label: "can", Detail: "can(expression): whether it evaluates without an error"},
	{Label: "sortOn", Detail: "sortOn(list, fn.key): sorted stably by the key the function gives each element"},
	{Label: "groupBy", Detail: "groupBy(list, fn.key): an object of lists, the elements by the string key the function gives"},
	{Label: "partition", Detail: "partition(list, fn.pred): { right, wrong }, the elements the predicate is true and false for"},
	{Label: "foldl", Detail: "foldl(list, initial, fn.op): op applied from the left, op(acc, x)"},
}

// functionSignature is a function's signature: name(param type, ...).
func functionSignature(name string, params []function.Parameter, varParam *function.Parameter) string {
	var ps []string
	for _, p := range params {
		ps = append(ps, p.Name+" "+p.Type.FriendlyName())
	}
	if varParam != nil {
		ps = append(ps, "..."+varParam.Name+" "+varParam.Type.FriendlyName())
	}
	return name + "(" + strings.Join(ps, ", ") + ")"
}

// formSignature is a special form's signature.
func formSignature(f property.Form) string {
	switch f.Kind {
	case property.KindIf:
		return f.Name + "(condition bool, value)"
	case property.KindMerge:
		return f.Name + "(values list)"
	}
	if f.Number {
		return f.Name + "(priority number, value)"
	}
	return f.Name + "(value)"
}
