package lsp

import (
	"path"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/lib"
	"github.com/nodegen/nodegen/property"
)

// The names a module uses that are not options: local.NAME (defined in
// the module's locals blocks), the modules imports names, the functions it
// calls. Definition and hover answer on them too.

// nodeAt is the innermost expression of kind T whose range holds off.
func nodeAt[T hclsyntax.Node](body *hclsyntax.Body, off int, rangeOf func(T) hcl.Range) (T, bool) {
	var found T
	ok := false
	hclsyntax.VisitAll(body, func(n hclsyntax.Node) hcl.Diagnostics {
		if x, is := n.(T); is && in(rangeOf(x), off) {
			found, ok = x, true
		}
		return nil
	})
	return found, ok
}

// localAt is the definition of the local.NAME the cursor is on.
func localAt(body *hclsyntax.Body, off int) (*hclsyntax.Attribute, bool) {
	ref, ok := nodeAt(body, off, func(x *hclsyntax.ScopeTraversalExpr) hcl.Range { return x.SrcRange })
	if !ok || ref.Traversal.RootName() != "local" || len(ref.Traversal) < 2 {
		return nil, false
	}
	attr, ok := ref.Traversal[1].(hcl.TraverseAttr)
	if !ok {
		return nil, false
	}
	for _, b := range body.Blocks {
		if b.Type != "locals" {
			continue
		}
		if a := b.Body.Attributes[attr.Name]; a != nil {
			return a, true
		}
	}
	return nil, false
}

// importAt is the module an imports or disabled_modules string under the
// cursor names, as evaluations name it: a path inside the overlay,
// relative to the module at name (a directory means its default.hcl), or
// a library module.
func (s *Server) importAt(body *hclsyntax.Body, name string, off int) (string, bool) {
	var bodies []*hclsyntax.Body
	bodies = append(bodies, body)
	for _, b := range body.Blocks {
		if b.Type == "run" {
			bodies = append(bodies, b.Body)
		}
	}
	for _, bd := range bodies {
		for _, attrName := range []string{"imports", "disabled_modules"} {
			a := bd.Attributes[attrName]
			if a == nil || !in(a.Expr.Range(), off) {
				continue
			}
			tup, ok := a.Expr.(*hclsyntax.TupleConsExpr)
			if !ok {
				return "", false
			}
			for _, el := range tup.Exprs {
				rel, ok := objectKey(el)
				if !ok || !in(el.Range(), off) {
					continue
				}
				if attrName == "disabled_modules" && !isPathLike(rel) {
					// A library module, by its path in the library.
					return eval.LibraryFileName(rel), true
				}
				p := path.Join(path.Dir(name), rel)
				if st, err := s.fsys.Stat(p); err == nil && st.IsDir() {
					p = path.Join(p, "default.hcl")
				}
				if _, err := s.fsys.Stat(p); err != nil {
					return "", false
				}
				return p, true
			}
		}
	}
	return "", false
}

// functionAt is the signature of the function whose name the cursor is
// on: the library's, or one the modules of ev declare.
func functionAt(ev *eval.Evaluator, body *hclsyntax.Body, off int) (string, bool) {
	call, ok := nodeAt(body, off, func(x *hclsyntax.FunctionCallExpr) hcl.Range { return x.NameRange })
	if !ok {
		return "", false
	}
	if ev != nil {
		if sig, ok := ev.FunctionSignatures()[call.Name]; ok {
			return sig, true
		}
	}
	if f, ok := lib.Functions()[call.Name]; ok {
		return functionSignature(call.Name, f.Params(), f.VarParam()), true
	}
	if f, ok := property.FormNamed(call.Name); ok {
		return formSignature(*f), true
	}
	for _, it := range specialForms {
		if it.Label == call.Name {
			return it.Detail, true
		}
	}
	return "", false
}

// isPathLike tells whether an imports entry is a relative path (not a
// library module's name in disabled_modules).
func isPathLike(s string) bool { return strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") }
