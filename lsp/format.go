package lsp

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/hclfmt"
)

// formatting formats a document as `nodegen fmt` does: one edit that
// replaces the whole text, or none when it is formatted already. A
// document that does not parse is not formatted (the error says where).
func (s *Server) formatting(params json.RawMessage) (any, *responseError) {
	d, rerr := s.openDoc(params)
	if rerr != nil {
		return nil, rerr
	}
	out, diags := hclfmt.Format(d.text.src, s.display(d.name))
	if diags.HasErrors() {
		return nil, &responseError{codeRequestFailed, "cannot format: " + diags.Error()}
	}
	if bytes.Equal(out, d.text.src) {
		return []textEdit{}, nil
	}
	end := d.text.position(len(d.text.src), s.enc)
	return []textEdit{{Range: Range{End: end}, NewText: string(out)}}, nil
}

// documentSymbol is the outline of a module: its option declarations
// (inside options blocks and submodules), config blocks with their
// definitions, locals, submodules, formats, assertions and warnings, and a
// test file's runs.
func (s *Server) documentSymbol(params json.RawMessage) (any, *responseError) {
	d, rerr := s.openDoc(params)
	if rerr != nil {
		return nil, rerr
	}
	out := s.symbols(d, d.body, "")
	if out == nil {
		out = []DocumentSymbol{}
	}
	return out, nil
}

func (s *Server) symbols(d *document, body *hclsyntax.Body, optPrefix string) []DocumentSymbol {
	rng := func(r hcl.Range) Range { return d.text.rangeOf(r, s.enc) }
	var out []DocumentSymbol
	for _, a := range sortedAttrs(body) {
		out = append(out, DocumentSymbol{Name: a.Name, Kind: symbolVariable, Range: rng(a.SrcRange), SelectionRange: rng(a.NameRange)})
	}
	for _, b := range body.Blocks {
		label := strings.Join(b.Labels, " ")
		sel := b.TypeRange
		if len(b.LabelRanges) > 0 {
			sel = b.LabelRanges[0]
		}
		sym := DocumentSymbol{Name: label, Detail: b.Type, Range: rng(b.Range()), SelectionRange: rng(sel)}
		switch b.Type {
		case "option":
			sym.Kind, sym.Name = symbolProperty, joinPath(optPrefix, label)
			if t := b.Body.Attributes["type"]; t != nil {
				sym.Detail = strings.TrimSpace(string(t.Expr.Range().SliceBytes(d.text.src)))
			}
		case "options":
			sym.Kind, sym.Name = symbolNamespace, joinPath(optPrefix, label)
			sym.Children = s.symbols(d, b.Body, sym.Name)
		case "config":
			sym.Kind = symbolObject
			if label == "" {
				sym.Name = "config"
			}
			for _, a := range sortedAttrs(b.Body) {
				sym.Children = append(sym.Children, DocumentSymbol{Name: a.Name, Kind: symbolField, Range: rng(a.SrcRange), SelectionRange: rng(a.NameRange)})
			}
		case "locals":
			sym.Kind, sym.Name = symbolNamespace, "locals"
			for _, a := range sortedAttrs(b.Body) {
				sym.Children = append(sym.Children, DocumentSymbol{Name: "local." + a.Name, Kind: symbolVariable, Range: rng(a.SrcRange), SelectionRange: rng(a.NameRange)})
			}
		case "submodule":
			sym.Kind = symbolModule
			sym.Children = s.symbols(d, b.Body, "")
		case "run":
			sym.Kind = symbolEvent
			sym.Children = s.symbols(d, b.Body, "")
		case "dynamic":
			sym.Kind = symbolNamespace
		case "assert", "warning":
			sym.Kind, sym.Name = symbolEvent, b.Type
		case "renamed_option", "removed_option", "format":
			sym.Kind = symbolProperty
		default:
			sym.Kind = symbolObject
			if sym.Name == "" {
				sym.Name = b.Type
			}
		}
		if sym.Name == "" {
			sym.Name = b.Type
		}
		out = append(out, sym)
	}
	return out
}

func joinPath(prefix, rel string) string {
	if prefix == "" {
		return rel
	}
	return prefix + "." + rel
}

// sortedAttrs returns a body's attributes in source order.
func sortedAttrs(body *hclsyntax.Body) []*hclsyntax.Attribute {
	var out []*hclsyntax.Attribute
	for _, a := range body.Attributes {
		out = append(out, a)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].SrcRange.Start.Byte < out[j-1].SrcRange.Start.Byte; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// openDoc is the open document a request names.
func (s *Server) openDoc(params json.RawMessage) (*document, *responseError) {
	p, rerr := decode[documentParams](params)
	if rerr != nil {
		return nil, rerr
	}
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return nil, &responseError{codeInvalidParams, "the document is not open"}
	}
	return d, nil
}
