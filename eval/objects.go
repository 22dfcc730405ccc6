package eval

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// keyPath reads an object key written as a bare traversal: `a` is one key,
// `a.b` the path a, b. ok is false for any other expression.
func keyPath(e hclsyntax.Expression) ([]string, bool) {
	t, ok := e.(*hclsyntax.ScopeTraversalExpr)
	if !ok {
		return nil, false
	}
	out := []string{t.Traversal.RootName()}
	for _, s := range t.Traversal[1:] {
		a, ok := s.(hcl.TraverseAttr)
		if !ok {
			return nil, false
		}
		out = append(out, a.Name)
	}
	return out, true
}

// objNode builds an object whose keys may be paths.
type objNode struct {
	val   cty.Value // a leaf
	rng   hcl.Range
	attrs map[string]*objNode
}

// insert sets the attribute at path to v, written at rng; leaf is the
// node to use for it, if it is a leaf.
func (n *objNode) insert(path []string, v cty.Value, rng hcl.Range, leaf *objNode) *hcl.Diagnostic {
	cur := n
	for i, k := range path {
		next := cur.attrs[k]
		last := i == len(path)-1
		switch {
		case next == nil && last:
			*leaf = objNode{val: v, rng: rng}
			cur.attrs[k] = leaf
			return nil
		case next == nil:
			next = &objNode{attrs: map[string]*objNode{}, rng: rng}
			cur.attrs[k] = next
		case last || next.attrs == nil:
			return &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate object attribute",
				Detail:   fmt.Sprintf("The attribute %q is already set at %s.", k, options.ShowPos(next.rng)),
				Subject:  rng.Ptr(),
			}
		}
		cur = next
	}
	return nil
}

func (n *objNode) value() cty.Value {
	if n.attrs == nil {
		return n.val
	}
	if len(n.attrs) == 0 {
		return cty.EmptyObjectVal
	}
	m := make(map[string]cty.Value, len(n.attrs))
	for k, c := range n.attrs {
		if c.attrs != nil {
			m[k] = property.ForcedVal(c.value(), c.rng)
		} else {
			m[k] = c.val
		}
	}
	return ctyelems.ObjectVal(m)
}

func (sc *scope) object(e *hclsyntax.ObjectConsExpr) (cty.Value, hcl.Diagnostics) {
	if d := sc.inst.ev.charge(int64(len(e.Items))*allocationPerElement, e.SrcRange); d != nil {
		return cty.DynamicVal, hcl.Diagnostics{d}
	}
	if plainObjects {
		if v, ok := sc.plainObject(e); ok {
			return v, nil
		}
	}
	var diags hcl.Diagnostics
	root := &objNode{attrs: make(map[string]*objNode, len(e.Items))}
	// the leaves, one per item, in one allocation
	leaves := make([]objNode, len(e.Items))
	for i, item := range e.Items {
		var path []string
		var one [1]string // the path of a plain key, not allocated
		kx := item.KeyExpr
		if k, ok := kx.(*hclsyntax.ObjectConsKeyExpr); ok && !k.ForceNonLiteral {
			if kw := hcl.ExprAsKeyword(k.Wrapped); kw != "" {
				one[0] = kw
				path = one[:]
			} else if p, ok := keyPath(k.Wrapped); ok {
				path = p
			} else {
				kx = k.Wrapped
			}
		} else if ok {
			kx = k.Wrapped
		}
		if path == nil {
			kv, d := sc.deep(kx)
			diags = append(diags, d...)
			if d.HasErrors() || !kv.IsKnown() {
				continue
			}
			ks, err := convert.Convert(kv, cty.String)
			if err != nil || ks.IsNull() {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid object key",
					Detail:   fmt.Sprintf("An object key must be a string, not %s.", syntax.DescribeValue(kv)),
					Subject:  kx.Range().Ptr(),
				})
				continue
			}
			one[0] = ks.AsString()
			path = one[:]
		}
		rng := item.ValueExpr.Range()
		if d := root.insert(path, sc.inst.ev.thunk(item.ValueExpr, sc), rng, &leaves[i]); d != nil {
			diags = append(diags, d)
		}
	}
	return root.value(), diags
}

// plainObjects says to build the objects of constructors whose keys are
// all plain with plainObject; the tests turn it off to check it against
// the general construction.
var plainObjects = true

// plainObject builds the object of a constructor whose keys are plain
// (see plainKey), none written twice, straight into the attribute map
// cty.ObjectVal takes, with no tree of objNodes; ok is false for any other
// constructor, which object builds in general. Its values are thunks, and
// its string keys are charged for in order, as there.
func (sc *scope) plainObject(e *hclsyntax.ObjectConsExpr) (v cty.Value, ok bool) {
	if len(e.Items) == 0 {
		return cty.EmptyObjectVal, true
	}
	var buf [16]string
	keys := buf[:0]
	attrs := make(map[string]cty.Value, len(e.Items))
	for _, item := range e.Items {
		k, ok := plainKey(item.KeyExpr)
		if !ok {
			return cty.NilVal, false
		}
		if _, dup := attrs[k]; dup {
			return cty.NilVal, false
		}
		attrs[k] = cty.NilVal
		keys = append(keys, k)
	}
	for _, item := range e.Items {
		// Once the charge fails, the evaluation is exhausted and object
		// charges nothing more: it makes the diagnostics.
		if t, ok := item.KeyExpr.(*hclsyntax.ObjectConsKeyExpr).Wrapped.(*hclsyntax.TemplateExpr); ok {
			if d := sc.inst.ev.charge(int64(templateLen(t)), t.SrcRange); d != nil {
				return cty.NilVal, false
			}
		}
	}
	for i, item := range e.Items {
		attrs[keys[i]] = sc.inst.ev.thunk(item.ValueExpr, sc)
	}
	return ctyelems.ObjectVal(attrs), true
}

// plainKey reads an object key that is a name (a = 1) or a string with
// nothing interpolated ("a-b" = 1) as object reads it: a string key
// normalized as its value would be. ok is false for any other key (a
// path, a computed key).
func plainKey(kx hclsyntax.Expression) (string, bool) {
	k, ok := kx.(*hclsyntax.ObjectConsKeyExpr)
	if !ok {
		return "", false
	}
	if !k.ForceNonLiteral {
		if kw := hcl.ExprAsKeyword(k.Wrapped); kw != "" {
			return kw, true
		}
	}
	t, ok := k.Wrapped.(*hclsyntax.TemplateExpr)
	if !ok {
		return "", false
	}
	str := ""
	for _, part := range t.Parts {
		lit, ok := part.(*hclsyntax.LiteralValueExpr)
		if !ok || lit.Val.Type() != cty.String {
			return "", false
		}
		str += lit.Val.AsString()
	}
	return cty.NormalizeString(str), true
}
