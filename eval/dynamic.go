package eval

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/nodegen/nodegen/options"
)

// This file reads and expands dynamic blocks, Terraform's, for option
// declarations: a NixOS author's mapAttrs over a table of components.
//
//	dynamic "options" {
//	  for_each = local.components
//	  iterator = component
//	  labels   = ["services.kubernetes.${component.key}"]
//	  content { option "extraOpts" { ... } }
//	}
//
// for_each and labels are read when the options are declared, under the
// rule of computed imports (imports.go): constants, functions and the
// module's locals, never config (checked once, when the module is
// parsed). The iterator (NAME.key, NAME.value) is bound in every
// expression of the declarations made, the lazy ones included: a
// declaration remembers its iterators (optionDeclSyntax.vars).

// dynamicSyntax is a dynamic block making option or options blocks.
type dynamicSyntax struct {
	// kind is the type of the blocks made: option or options.
	kind     string
	forEach  *hclsyntax.Attribute
	iterator string
	labels   *hclsyntax.Attribute
	content  *hclsyntax.Block
	// made is the block each declaration of a dynamic "option" is
	// declared by, for messages and documentation: the dynamic block's
	// header.
	made *hclsyntax.Block
	// inner are the declarations of the content of a dynamic "options",
	// with paths below the label.
	inner []*optionDeclSyntax
	// readsConfig is set when for_each or labels reads the configuration
	// (see checkDynamics): the block declares nothing.
	readsConfig bool
}

// dynamicKinds are the block types a dynamic block makes.
var dynamicKinds = []string{"option", "options"}

var dynamicArgs = []string{"for_each", "iterator", "labels"}

// decodeDynamic reads a dynamic block where option declarations are
// expected; nil with diagnostics when it is malformed.
func decodeDynamic(b *hclsyntax.Block) (*dynamicSyntax, hcl.Diagnostics) {
	if d := wantLabels(b, 1); d != nil {
		return nil, hcl.Diagnostics{d}
	}
	var diags hcl.Diagnostics
	kind := b.Labels[0]
	if kind != "option" && kind != "options" {
		detail := fmt.Sprintf("A dynamic block here makes %s blocks, not %q blocks: only option declarations can be made by a dynamic block.", strings.Join(dynamicKinds, " or "), kind)
		if s := didYouMean(kind, dynamicKinds); s != "" {
			detail += fmt.Sprintf(" Did you mean %q?", s)
		}
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Unsupported dynamic block type",
			Detail:   detail,
			Subject:  b.LabelRanges[0].Ptr(),
		}}
	}
	dyn := &dynamicSyntax{kind: kind, iterator: kind}
	for _, attr := range sortedAttrs(b.Body.Attributes) {
		switch attr.Name {
		case "for_each":
			dyn.forEach = attr
		case "labels":
			dyn.labels = attr
			if t, ok := attr.Expr.(*hclsyntax.TupleConsExpr); ok && len(t.Exprs) != 1 {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Wrong number of labels",
					Detail:   fmt.Sprintf("An %s block takes one label, so labels holds one expression, not %d.", kind, len(t.Exprs)),
					Subject:  attr.Expr.Range().Ptr(),
				})
			}
		case "iterator":
			name, d := iteratorName(attr)
			diags = append(diags, d...)
			dyn.iterator = name
		default:
			diags = append(diags, unsupportedArg(attr, "A dynamic block takes "+strings.Join(dynamicArgs, ", ")+" and a content block", dynamicArgs))
		}
	}
	for _, nb := range b.Body.Blocks {
		switch {
		case nb.Type != "content":
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported block type",
				Detail:   fmt.Sprintf("A dynamic block holds one content block, not %q.", nb.Type),
				Subject:  nb.TypeRange.Ptr(),
			})
		case dyn.content != nil:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate content block",
				Detail:   fmt.Sprintf("A dynamic block holds one content block; the first is at %s.", options.ShowPos(dyn.content.DefRange())),
				Subject:  nb.TypeRange.Ptr(),
			})
		default:
			if d := wantLabels(nb, 0); d != nil {
				diags = append(diags, d)
			}
			dyn.content = nb
		}
	}
	for _, need := range []struct {
		name    string
		missing bool
	}{{"for_each", dyn.forEach == nil}, {"labels", dyn.labels == nil}} {
		if need.missing {
			diags = append(diags, missingArg(b, need.name))
		}
	}
	if dyn.content == nil {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing content block",
			Detail:   fmt.Sprintf("A dynamic block needs a content block: the body of each %s block it makes.", kind),
			Subject:  b.DefRange().Ptr(),
		})
	}
	if diags.HasErrors() {
		return nil, diags
	}
	if kind == "option" {
		diags = append(diags, unsupportedBlocks(dyn.content.Body, "An option declaration takes arguments only, not a %q block.")...)
		dyn.made = &hclsyntax.Block{Type: kind, Labels: b.Labels, Body: dyn.content.Body, TypeRange: b.TypeRange, LabelRanges: b.LabelRanges, OpenBraceRange: b.OpenBraceRange, CloseBraceRange: b.CloseBraceRange}
	} else {
		diags = append(diags, decodeOptionsBody(dyn.content.Body, nil, &dyn.inner)...)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return dyn, diags
}

// checkDynamics checks, once when module m is parsed, that the for_each
// and labels of its dynamic blocks read neither config, root, options nor
// name (see configFree): they are read when the options are declared.
func (m *module) checkDynamics() hcl.Diagnostics {
	var diags hcl.Diagnostics
	free := map[string]bool{}
	var walk func(decls []*optionDeclSyntax, vars *binding)
	walk = func(decls []*optionDeclSyntax, vars *binding) {
		for _, o := range decls {
			dyn := o.dyn
			if dyn == nil {
				continue
			}
			// The iterators around the block are bound in for_each, and
			// its own too in labels (placeholder values: only the names
			// count).
			own := &binding{name: dyn.iterator, value: cty.DynamicVal, outer: vars}
			for _, e := range []struct {
				attr  *hclsyntax.Attribute
				bound *binding
			}{{dyn.forEach, vars}, {dyn.labels, own}} {
				if d := configFree(m, e.attr.Name, e.attr.Expr, e.bound, nil, map[string]bool{}, free, whenDeclared); d != nil && !dyn.readsConfig {
					diags = append(diags, d)
					dyn.readsConfig = true
				}
			}
			walk(dyn.inner, own)
		}
	}
	walk(m.options, nil)
	for _, s := range m.submodules {
		walk(s.options, nil)
	}
	return diags
}

// iteratorName reads a dynamic block's iterator argument: a bare name.
func iteratorName(attr *hclsyntax.Attribute) (string, hcl.Diagnostics) {
	tr, d := hcl.AbsTraversalForExpr(attr.Expr)
	if d.HasErrors() || len(tr) != 1 {
		return "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid iterator",
			Detail:   "The iterator of a dynamic block is a name, as in iterator = component.",
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	name := tr.RootName()
	// The variables every expression can read, which an iterator may not
	// hide.
	for _, r := range rootNames {
		if name == r {
			return "", hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid iterator",
				Detail:   fmt.Sprintf("The iterator cannot be named %s, which expressions read for something else (%s).", name, strings.Join(rootNames, ", ")),
				Subject:  attr.Expr.Range().Ptr(),
			}}
		}
	}
	return name, nil
}

// expandDecls returns the declarations decls of module m stands for, with
// their dynamic blocks expanded, in source order; prefix is the path the
// declarations are below and vars the iterators bound around them (nil
// and nil for a module's or a submodule's own declarations).
func (dc *declarer) expandDecls(m *module, decls []*optionDeclSyntax, prefix []string, vars *binding) ([]*optionDeclSyntax, hcl.Diagnostics) {
	if prefix == nil && vars == nil && !hasDynamic(decls) {
		return decls, nil
	}
	var out []*optionDeclSyntax
	var diags hcl.Diagnostics
	for _, o := range decls {
		if o.dyn == nil && prefix == nil && vars == nil {
			// A declaration of the module's own, beside a dynamic block:
			// itself, so that its decoded form is kept (decodedOptions).
			out = append(out, o)
			continue
		}
		full := options.Path(prefix).Join(o.path)
		if o.dyn == nil {
			out = append(out, &optionDeclSyntax{path: full, block: o.block, attrs: o.attrs, vars: vars})
			continue
		}
		made, d := dc.expandDynamic(m, o.dyn, full, vars)
		diags = append(diags, d...)
		out = append(out, made...)
	}
	return out, diags
}

func hasDynamic(decls []*optionDeclSyntax) bool {
	for _, o := range decls {
		if o.dyn != nil {
			return true
		}
	}
	return false
}

// expandDynamic makes the declarations of one dynamic block below prefix:
// one block for each element of for_each.
func (dc *declarer) expandDynamic(m *module, dyn *dynamicSyntax, prefix []string, vars *binding) ([]*optionDeclSyntax, hcl.Diagnostics) {
	if dyn.readsConfig {
		return nil, nil // reported when the module was parsed
	}
	coll, diags := dc.consts.declValue(m, vars, dyn.forEach.Expr)
	if diags.HasErrors() {
		return nil, diags
	}
	if !coll.IsWhollyKnown() {
		return nil, append(diags, notKnownDiag("for_each", dyn.forEach.Expr.Range()))
	}
	ty := coll.Type()
	if coll.IsNull() || !(ty.IsMapType() || ty.IsObjectType() || ty.IsListType() || ty.IsTupleType() || ty.IsSetType()) {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid for_each",
			Detail:   fmt.Sprintf("for_each must be a map, an object, a list or a set, not %s.", describeValue(coll)),
			Subject:  dyn.forEach.Expr.Range().Ptr(),
		})
	}
	if d := dc.consts.checkElements(coll.LengthInt(), dyn.forEach.Expr.Range()); d != nil {
		return nil, append(diags, d)
	}
	var out []*optionDeclSyntax
	for it := coll.ElementIterator(); it.Next(); {
		k, v := it.Element() // a set's element is its own key
		each := &binding{name: dyn.iterator, value: cty.ObjectVal(map[string]cty.Value{"key": k, "value": v}), outer: vars}
		label, d := dc.dynamicLabel(m, each, dyn)
		diags = append(diags, d...)
		if label == nil {
			continue
		}
		full := options.Path(prefix).Join(label)
		if dyn.kind == "option" {
			out = append(out, &optionDeclSyntax{path: full, block: dyn.made, attrs: dyn.content.Body.Attributes, vars: each})
			continue
		}
		made, d := dc.expandDecls(m, dyn.inner, full, each)
		diags = append(diags, d...)
		out = append(out, made...)
	}
	return out, diags
}

// dynamicLabel evaluates the labels of a dynamic block of module m for one
// element, with the iterators vars binds: one string, an option path.
func (dc *declarer) dynamicLabel(m *module, vars *binding, dyn *dynamicSyntax) ([]string, hcl.Diagnostics) {
	expr := dyn.labels.Expr
	v, diags := dc.consts.declValue(m, vars, expr)
	if diags.HasErrors() {
		return nil, diags
	}
	if !v.IsWhollyKnown() {
		return nil, append(diags, notKnownDiag("labels", expr.Range()))
	}
	ty := v.Type()
	if v.IsNull() || !(ty.IsListType() || ty.IsTupleType()) || v.LengthInt() != 1 {
		n := describeValue(v)
		if !v.IsNull() && (ty.IsListType() || ty.IsTupleType()) {
			n = fmt.Sprintf("%d", v.LengthInt())
		}
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Wrong number of labels",
			Detail:   fmt.Sprintf("An %s block takes one label, so labels must be a list of one string, not %s.", dyn.kind, n),
			Subject:  expr.Range().Ptr(),
		})
	}
	l := v.Index(cty.Zero)
	rng := elemRange(expr, 0)
	if l.IsNull() || l.Type() != cty.String {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid label",
			Detail:   fmt.Sprintf("The label of an %s block must be a string, not %s.", dyn.kind, describeValue(l)),
			Subject:  rng.Ptr(),
		})
	}
	p, d := optionPath(l.AsString(), "The label ", rng)
	return p, append(diags, d...)
}

// values are the variables of a binding and those around it, the
// innermost of each name, for hcl.EvalContext.
func (b *binding) values() map[string]cty.Value {
	if b == nil {
		return nil
	}
	out := map[string]cty.Value{}
	for ; b != nil; b = b.outer {
		if _, ok := out[b.name]; !ok {
			out[b.name] = b.value
		}
	}
	return out
}

// iteratorValue is the value of expr, an expression of declaration o,
// when o was made by a dynamic block and expr reads its iterators and no
// other variable: a constant of the declaration, as the literal that
// would be written by hand is (see constantValue).
func iteratorValue(consts declConsts, o *optionDecl, expr hclsyntax.Expression) (cty.Value, bool) {
	if o.vars == nil {
		return cty.NilVal, false
	}
	vars := hclsyntax.Variables(expr)
	if len(vars) == 0 {
		return cty.NilVal, false
	}
	for _, tr := range vars {
		if o.vars.lookup(tr.RootName()) == cty.NilVal {
			return cty.NilVal, false
		}
	}
	v, diags := consts.declValue(o.mod, o.vars, expr)
	if diags.HasErrors() || !v.IsWhollyKnown() {
		return cty.NilVal, false
	}
	return v, true
}

// notKnownDiag reports that attribute what of a dynamic block, read when
// the options are declared, has no value: a part of it did not parse (as
// "${}"), which the parser has reported.
func notKnownDiag(what string, rng hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid " + what,
		Detail:   fmt.Sprintf("%s has no value: a part of it is not a valid expression.", what),
		Subject:  rng.Ptr(),
	}
}
