package lsp

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/optiontext"
	"github.com/nodegen/nodegen/options"
)

// optionAt is the option path the cursor is on, if any, and the
// evaluation to answer from: that of the document's text, evaluated now
// if it changed since (hover, definition and references show values and
// places, which an edit changes).
func (s *Server) optionAt(p positionParams) (*eval.Evaluator, options.Path) {
	d, off := s.docAt(p)
	if d == nil {
		return nil, nil
	}
	if s.dirty[d.uri] {
		delete(s.dirty, d.uri)
		s.check(d)
	}
	st := locate(d.body, d.text.src, off)
	if st.kind == siteSubDecl {
		// A submodule's option: its path with placeholders
		// (systemd.services.<name>.after), from its declaration.
		ev := s.evalOf(d)
		for _, decl := range s.declarations(ev) {
			if decl.Range.Filename == d.name && decl.Range.Start.Byte == st.declAt {
				return ev, decl.Path
			}
		}
		return nil, nil
	}
	if st.kind == siteNone || len(st.path) == 0 {
		return nil, nil
	}
	return s.evalOf(d), st.path
}

// explainAt explains the option the cursor is on; nil when it is on none.
func (s *Server) explainAt(p positionParams) (*eval.Evaluator, *eval.Explanation) {
	ev, path := s.optionAt(p)
	if path == nil {
		return nil, nil
	}
	x, _ := ev.Explain(path)
	return ev, x
}

// hover shows what `nodegen option` prints for the option under the
// cursor: its value in the document's evaluation (the host's, when a
// host reads it), type, default, description, declaration, and every
// definition with its state.
func (s *Server) hover(params json.RawMessage) (any, *responseError) {
	p, rerr := decode[positionParams](params)
	if rerr != nil {
		return nil, rerr
	}
	if d, off := s.docAt(p); d != nil {
		if sig, ok := functionAt(s.evalOf(d), d.body, off); ok {
			return hover{Contents: markupContent{Kind: "markdown", Value: "```text\n" + sig + "\n```\n"}}, nil
		}
	}
	ev, x := s.explainAt(p)
	if x == nil {
		if ev, path := s.optionAt(p); path != nil {
			if decl, ok := s.declarationOf(ev, path); ok && decl.Path.Equal(path) {
				// A declaration with placeholders: its documentation,
				// and every path it has (a submodule several options
				// hold, as systemd's units share their options).
				doc := declDoc(decl)
				var paths []string
				for _, other := range s.declarations(ev) {
					if other.Range == decl.Range {
						paths = append(paths, "`"+other.Path.String()+"`")
					}
				}
				if len(paths) > 1 {
					doc += "\n\nDeclared for: " + strings.Join(paths, ", ")
				}
				return hover{Contents: markupContent{Kind: "markdown", Value: doc}}, nil
			}
		}
		return s.namespaceHover(p)
	}
	var b strings.Builder
	x, files := s.forDisplay(ev, x)
	optiontext.Write(&b, files, x)
	return hover{Contents: markupContent{Kind: "markdown", Value: "```text\n" + b.String() + "```\n"}}, nil
}

// definition jumps to the declaration of the option under the cursor; one
// of the library's is a read-only file written for the editor to open.
func (s *Server) definition(params json.RawMessage) (any, *responseError) {
	p, rerr := decode[positionParams](params)
	if rerr != nil {
		return nil, rerr
	}
	if loc, ok := s.nameDefinition(p); ok {
		return []Location{loc}, nil
	}
	ev, path := s.optionAt(p)
	if path == nil {
		return nil, nil
	}
	// The declarations answer without evaluating; a key inside an
	// option's value is the option's, which Explain finds.
	declared := hcl.Range{}
	if decl, ok := s.declarationOf(ev, path); ok {
		declared = decl.Range
	} else if x, _ := ev.Explain(path); x != nil {
		declared = x.Declared
	}
	if l, ok := s.location(declared); ok {
		return []Location{l}, nil
	}
	return nil, nil
}

// references lists every definition of the option under the cursor, in
// definition order (the default counts as part of the declaration).
func (s *Server) references(params json.RawMessage) (any, *responseError) {
	p, rerr := decode[referenceParams](params)
	if rerr != nil {
		return nil, rerr
	}
	_, x := s.explainAt(p.positionParams)
	if x == nil {
		return nil, nil
	}
	out := []Location{}
	if p.Context.IncludeDeclaration {
		if l, ok := s.location(x.Declared); ok {
			out = append(out, l)
		}
	}
	for _, def := range x.Definitions {
		if def.IsDefault && !p.Context.IncludeDeclaration {
			continue
		}
		if l, ok := s.location(def.Range); ok {
			out = append(out, l)
		}
	}
	return out, nil
}

// location converts a range of an evaluated file.
func (s *Server) location(r hcl.Range) (Location, bool) {
	uri, ok := s.nameURI(r.Filename)
	if !ok {
		return Location{}, false
	}
	t := s.fileText(r.Filename)
	if t == nil {
		return Location{}, false
	}
	return Location{URI: uri, Range: t.rangeOf(r, s.enc)}, true
}

// declarations are an evaluation's Declarations, kept for the latest
// evaluations.
func (s *Server) declarations(ev *eval.Evaluator) []eval.Declaration {
	return cached(s.declCache, ev, ev.Declarations)
}

// cached is what list makes for ev, made once for the last few
// evaluations (a cache that keeps more would keep their evaluators).
func cached[T any](cache map[*eval.Evaluator]T, ev *eval.Evaluator, list func() T) T {
	if c, ok := cache[ev]; ok {
		return c
	}
	if len(cache) > 2 {
		clear(cache)
	}
	c := list()
	cache[ev] = c
	return c
}

// declarationOf finds the declaration of the option at p, which may name
// submodule instances (placeholders <name> and * in declarations).
func (s *Server) declarationOf(ev *eval.Evaluator, p options.Path) (eval.Declaration, bool) {
	for _, decl := range s.declarations(ev) {
		if len(decl.Path) == len(p) && matches(decl.Path, p) {
			return decl, true
		}
	}
	return eval.Declaration{}, false
}

// matches tells whether a concrete path p is, segment for segment, the
// declared path pattern (<name> and * match any segment).
func matches(pattern, p options.Path) bool {
	if len(p) > len(pattern) {
		return false
	}
	for i, seg := range p {
		if pattern[i] != seg && pattern[i] != "<name>" && pattern[i] != "*" {
			return false
		}
	}
	return true
}

// forDisplay is an explanation with its user files named as a user reads
// them (see display), and the evaluation's files by those names.
func (s *Server) forDisplay(ev *eval.Evaluator, x *eval.Explanation) (*eval.Explanation, map[string]*hcl.File) {
	name := func(n string) string {
		if n == "" || strings.HasPrefix(n, "<") {
			return n
		}
		return s.display(n)
	}
	files := map[string]*hcl.File{}
	for n, f := range ev.Files() {
		files[name(n)] = f
	}
	y := *x
	y.Declared.Filename = name(y.Declared.Filename)
	y.Definitions = append([]eval.DefinitionInfo(nil), x.Definitions...)
	for i := range y.Definitions {
		d := &y.Definitions[i]
		d.Range.Filename = name(d.Range.Filename)
		d.Condition.Filename = name(d.Condition.Filename)
	}
	return &y, files
}

// nameDefinition is the definition of a name that is not an option's: a
// local's, or the module an imports entry names.
func (s *Server) nameDefinition(p positionParams) (Location, bool) {
	d, off := s.docAt(p)
	if d == nil {
		return Location{}, false
	}
	if a, ok := localAt(d.body, off); ok {
		return Location{URI: d.uri, Range: d.text.rangeOf(a.SrcRange, s.enc)}, true
	}
	if name, ok := s.importAt(d.body, d.name, off); ok {
		if uri, ok := s.nameURI(name); ok {
			return Location{URI: uri}, true
		}
	}
	return Location{}, false
}

// namespaceHover describes a path that is no option but has options below
// it (services.kubernetes): the names right below, options and
// namespaces.
func (s *Server) namespaceHover(p positionParams) (any, *responseError) {
	ev, path := s.optionAt(p)
	if path == nil {
		return nil, nil
	}
	var options, namespaces []string
	seen := map[string]bool{}
	count := 0
	for _, decl := range s.declarations(ev) {
		if len(decl.Path) <= len(path) || !matches(decl.Path, path) {
			continue
		}
		count++
		seg := decl.Path[len(path)]
		if seen[seg] {
			continue
		}
		seen[seg] = true
		if len(decl.Path) == len(path)+1 {
			options = append(options, seg)
		} else {
			namespaces = append(namespaces, seg)
		}
	}
	if count == 0 {
		return nil, nil
	}
	var b strings.Builder
	noun := "options"
	if count == 1 {
		noun = "option"
	}
	fmt.Fprintf(&b, "%s\n\n%d %s below.\n", path.String(), count, noun)
	if len(options) > 0 {
		fmt.Fprintf(&b, "\nOptions:\n  %s\n", strings.Join(options, "\n  "))
	}
	if len(namespaces) > 0 {
		fmt.Fprintf(&b, "\nNamespaces:\n  %s\n", strings.Join(namespaces, "\n  "))
	}
	return hover{Contents: markupContent{Kind: "markdown", Value: "```text\n" + b.String() + "```\n"}}, nil
}
