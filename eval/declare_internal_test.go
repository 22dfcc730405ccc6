package eval

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval/internal/declare"
	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/modules"
	"github.com/nodegen/nodegen/property"
)

// TestDecodedOptions checks the option declarations an evaluation copies
// from keptOption (package declare) against reading their blocks
// anew: the library's declared value, its top-level tree and the tree of
// every submodule type, is the same either way, option by option, and the
// Kubernetes fixtures evaluate to the same record (configuration,
// diagnostics, definitions at every node) either way. What is kept, and
// what is not (a declaration a dynamic block made), declare's own
// TestDecodedOptions checks.
func TestDecodedOptions(t *testing.T) {
	for _, dir := range []string{"k8s-worker", "k8s-single", "containerd-kubenet"} {
		t.Run(dir, func(t *testing.T) {
			cfg := Config{Files: []string{filepath.Join("..", "fixtures", dir, "host.hcl")}, Library: modules.FS()}
			fresh := withFlag(&declare.KeepDecoded, false, func() string { return evaluationRecord(cfg) })
			withFlag(&declare.KeepDecoded, true, func() string { return evaluationRecord(cfg) }) // keeps them
			kept := withFlag(&declare.KeepDecoded, true, func() string { return evaluationRecord(cfg) })
			if diff := cmp.Diff(fresh, kept); diff != "" {
				t.Errorf("the evaluation with the kept declarations differs (-read anew +kept):\n%s", diff)
			}
		})
	}

	ev, diags := New(Config{Library: modules.FS()})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	for _, m := range ev.Mods {
		if !m.Shared {
			t.Errorf("library module %s is not shared", m.Src.Display())
		}
	}
	consts := declaringConsts{ev}
	var fresh *declare.Declared
	withFlag(&declare.KeepDecoded, false, func() string {
		fresh = declare.Declare(&ev.Modules, consts)
		return ""
	})
	kept := declare.Declare(&ev.Modules, consts) // from the copies New kept
	read, copied := declaredOptions(ev, fresh), declaredOptions(ev, kept)
	if len(read) < 450 {
		t.Fatalf("the library declares %d options; want the whole library", len(read))
	}
	if len(copied) != len(read) {
		t.Fatalf("%d options declared from the copies, %d read anew", len(copied), len(read))
	}
	for i, want := range read {
		if diff := cmp.Diff(showDecl(ev, want), showDecl(ev, copied[i])); diff != "" {
			t.Errorf("%s: option %s (-read +kept):\n%s", want.Block.DefRange(), want.Path, diff)
		}
	}
}

// declaredOptions are the options of the declared value decl of ev's
// modules: those of its top-level tree, then those of the tree of each
// submodule type, in the order of the names.
func declaredOptions(ev *Evaluator, decl *declare.Declared) []*declare.Option {
	var out []*declare.Option
	var walk func(n *declare.Node)
	walk = func(n *declare.Node) {
		if n.Opt != nil {
			out = append(out, n.Opt)
		}
		for _, name := range n.Names {
			walk(n.Children[name])
		}
	}
	walk(decl.Root)
	for _, name := range slices.Sorted(maps.Keys(ev.Submodules)) {
		if st := decl.SubTypeOf(&ev.Modules, declaringConsts{ev}, []string{name}); st.Root != nil {
			walk(st.Root)
		}
	}
	return out
}

// declRecord is what an option declaration says, comparable.
type declRecord struct {
	Path, Type, Description, DefaultText string
	// The syntax it points to, by identity.
	Block, Mod, Body, Default, Apply, Example string
	NameTexts                                 int
	ReadOnly, Internal                        bool
	Also                                      int
	ConstDefault                              string
}

func showDecl(ev *Evaluator, o *declare.Option) declRecord {
	r := declRecord{
		Path: o.Path.String(), Type: o.Type.Description(), Description: o.Description, DefaultText: o.DefaultText,
		Block: fmt.Sprintf("%p", o.Block), Mod: fmt.Sprintf("%p", o.Mod), Body: fmt.Sprintf("%p", o.Body),
		Default: fmt.Sprintf("%p", o.DefaultExpr), Apply: fmt.Sprintf("%p", o.Apply), Example: fmt.Sprintf("%p", o.Example),
		NameTexts: len(o.NameTexts), ReadOnly: o.ReadOnly, Internal: o.Internal, Also: len(o.Also),
	}
	if o.DefaultExpr != nil {
		// The default's definition, kept or made now.
		d := ev.top.defaultDef(o)
		p, ok := property.AsProperty(d.Value)
		if !ok {
			r.ConstDefault = "not a property"
			return r
		}
		v := cty.DynamicVal
		if _, constant := syntax.ConstantValue(o.DefaultExpr); constant {
			v, _ = property.Deep(p.Content)
		}
		r.ConstDefault = fmt.Sprintf("%s %s %d %#v", d.Range, p.Kind, p.Priority, v)
	}
	return r
}
