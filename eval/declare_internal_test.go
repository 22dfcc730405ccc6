package eval

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/modules"
	"github.com/nodegen/nodegen/property"
)

// TestDecodedOptions checks the option declarations an evaluation copies
// from decodedOptions against reading their blocks anew: every option
// block in the library's files (submodules' too) decodes to the same
// declaration, nothing a dynamic block made is kept, and the Kubernetes
// fixtures evaluate to the same record (configuration, diagnostics,
// definitions at every node) either way.
func TestDecodedOptions(t *testing.T) {
	for _, dir := range []string{"k8s-worker", "k8s-single", "containerd-kubenet"} {
		t.Run(dir, func(t *testing.T) {
			cfg := Config{Files: []string{filepath.Join("..", "fixtures", dir, "host.hcl")}, Library: modules.FS()}
			fresh := withFlag(&keepDecodedOptions, false, func() string { return evaluationRecord(cfg) })
			withFlag(&keepDecodedOptions, true, func() string { return evaluationRecord(cfg) }) // keeps them
			kept := withFlag(&keepDecodedOptions, true, func() string { return evaluationRecord(cfg) })
			if diff := cmp.Diff(fresh, kept); diff != "" {
				t.Errorf("the evaluation with the kept declarations differs (-read anew +kept):\n%s", diff)
			}
		})
	}

	ev, diags := New(Config{Library: modules.FS()})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var entries []declEntry
	for _, m := range ev.Mods {
		if !m.Shared {
			t.Errorf("library module %s is not shared", m.Src.Display())
		}
		// A dynamic block's declarations are made by each evaluation,
		// and never kept.
		for _, o := range m.Options {
			if o.InFile {
				entries = append(entries, declEntry{syn: o, mod: m})
			}
		}
		for _, s := range m.Submodules {
			for _, o := range s.Options {
				if o.InFile {
					entries = append(entries, declEntry{syn: o, mod: m, body: s})
				}
			}
		}
	}
	decodedOptions.Range(func(k, _ any) bool {
		if syn := k.(*syntax.OptionDecl); !syn.InFile {
			t.Errorf("%s: a declaration made by an evaluation was kept", syn.Block.DefRange())
		}
		return true
	})
	if len(entries) < 450 {
		t.Fatalf("the library declares %d options; want the whole library", len(entries))
	}
	dc := &declarer{Modules: &ev.Modules, d: ev.decl, consts: ev, private: true}
	for _, e := range entries {
		want, diags := dc.readOption(e, nil)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", e.syn.Block.DefRange(), diags.Error())
		}
		if _, ok := decodedOptions.Load(e.syn); !ok {
			t.Errorf("%s: option %s was not kept", e.syn.Block.DefRange(), want.path)
			continue
		}
		got, diags := dc.decodeOption(e, nil)
		if diags.HasErrors() {
			t.Fatalf("%s: %s", e.syn.Block.DefRange(), diags.Error())
		}
		if diff := cmp.Diff(showDecl(ev, want), showDecl(ev, got)); diff != "" {
			t.Errorf("%s: option %s (-read +kept):\n%s", e.syn.Block.DefRange(), want.path, diff)
		}
	}
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

func showDecl(ev *Evaluator, o *optionDecl) declRecord {
	r := declRecord{
		Path: o.path.String(), Type: o.typ.Description(), Description: o.description, DefaultText: o.defaultText,
		Block: fmt.Sprintf("%p", o.block), Mod: fmt.Sprintf("%p", o.mod), Body: fmt.Sprintf("%p", o.body),
		Default: fmt.Sprintf("%p", o.defaultExpr), Apply: fmt.Sprintf("%p", o.apply), Example: fmt.Sprintf("%p", o.example),
		NameTexts: len(o.nameTexts), ReadOnly: o.readOnly, Internal: o.internal, Also: len(o.also),
	}
	if o.defaultExpr != nil {
		// The default's definition, kept or made now.
		d := ev.top.defaultDef(o)
		p, ok := property.AsProperty(d.Value)
		if !ok {
			r.ConstDefault = "not a property"
			return r
		}
		v := cty.DynamicVal
		if _, constant := syntax.ConstantValue(o.defaultExpr); constant {
			v, _ = property.Deep(p.Content)
		}
		r.ConstDefault = fmt.Sprintf("%s %s %d %#v", d.Range, p.Kind, p.Priority, v)
	}
	return r
}
