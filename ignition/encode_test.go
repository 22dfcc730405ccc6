package ignition

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEncode(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"empty objects and arrays go", map[string]any{"a": map[string]any{"b": map[string]any{}}, "c": []any{}, "d": 1},
			"{\n  \"d\": 1\n}\n"},
		{"array elements stay, empty or not", map[string]any{"a": []any{map[string]any{}, []any{}, "x"}},
			"{\n  \"a\": [\n    {},\n    [],\n    \"x\"\n  ]\n}\n"},
		{"no HTML escaping; numbers as they are", map[string]any{"s": "a && b <c>", "n": 420, "f": false, "z": nil},
			"{\n  \"f\": false,\n  \"n\": 420,\n  \"s\": \"a && b <c>\",\n  \"z\": null\n}\n"},
		{"all empty", map[string]any{"a": map[string]any{}}, "{}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := encode(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestSysusersFields(t *testing.T) {
	tests := []struct {
		line    string
		want    []string
		wantErr string
	}{
		{`u app`, []string{"u", "app", "-", "-", "-", "-"}, ""},
		{`u app 100:grp "App user" /var/lib/app /bin/sh`, []string{"u", "app", "100:grp", "App user", "/var/lib/app", "/bin/sh"}, ""},
		{"g\tgrp  'a b'", []string{"g", "grp", "a b", "-", "-", "-"}, ""},
		{`u a - x\ y`, []string{"u", "a", "-", "x y", "-", "-"}, ""},
		{`u a - "it's"`, []string{"u", "a", "-", "it's", "-", "-"}, ""},
		{`u`, nil, `a sysusers.d line has 2 to 6 fields, not 1: "u"`},
		{`u a b c d e f`, nil, `a sysusers.d line has 2 to 6 fields, not 7: "u a b c d e f"`},
		{`u a - "open`, nil, `unterminated quote or escape in "u a - \"open"`},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got, err := sysusersFields(tt.line)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
