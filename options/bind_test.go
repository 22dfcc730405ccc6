package options

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

type bindInst struct{ name string }

func (bindInst) Instantiate([]string, Path, []Def) (cty.Value, hcl.Diagnostics) {
	return cty.NilVal, nil
}

type bindPaths struct{ name string }

func (bindPaths) ResolvePath(string, hcl.Range) (string, *hcl.Diagnostic) { return "", nil }

func TestBind(t *testing.T) {
	inst, paths := bindInst{"ev"}, bindPaths{"ev"}
	sub := Submodule{Names: []string{"a", "b"}}
	boundSub := Submodule{Names: []string{"a", "b"}, Inst: inst}
	boundPath := PathType{Resolve: paths}
	for _, tc := range []struct {
		name     string
		in, want Type
	}{
		{"submodule", sub, boundSub},
		{"path", PathType{}, boundPath},
		{"rebound", Submodule{Names: []string{"a", "b"}, Inst: bindInst{"other"}}, boundSub},
		{"scalar", Str{}, Str{}},
		{"listOf", ListOf{Elem: sub}, ListOf{Elem: boundSub}},
		{"attrsOf nullOr", AttrsOf{Elem: NullOr{Elem: sub}}, AttrsOf{Elem: NullOr{Elem: boundSub}}},
		{"uniq", Uniq{Elem: PathType{}}, Uniq{Elem: boundPath}},
		{"either", Either{A: PathType{}, B: sub}, Either{A: boundPath, B: boundSub}},
		{"oneOf", OneOf{Alts: []Type{Str{}, sub, ListOf{Elem: PathType{}}}}, OneOf{Alts: []Type{Str{}, boundSub, ListOf{Elem: boundPath}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Bind(tc.in, inst, paths)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(bindInst{}, bindPaths{})); diff != "" {
				t.Errorf("Bind (-want +got):\n%s", diff)
			}
		})
	}
	// The type bound is not changed: evaluations share it.
	in := OneOf{Alts: []Type{sub}}
	Bind(in, inst, paths)
	if in.Alts[0].(Submodule).Inst != nil {
		t.Errorf("Bind changed the type it was given: %#v", in)
	}
}
