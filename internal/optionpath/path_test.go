package optionpath

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPathRoundTrip(t *testing.T) {
	tests := []struct {
		path Path
		str  string
	}{
		{Path{}, ""},
		{Path{"a"}, "a"},
		{Path{"services", "kubernetes", "kubelet", "port"}, "services.kubernetes.kubelet.port"},
		{Path{"environment", "etc", "a/b.json", "text"}, `environment.etc."a/b.json".text`},
		{Path{"environment", "etc", "kubernetes/manifests/a.json", "text"}, `environment.etc."kubernetes/manifests/a.json".text`},
		{Path{"x", "[definition 1-entry 3]"}, `x."[definition 1-entry 3]"`},
		{Path{"boot", "kernel", "sysctl", "net.ipv4.ip_forward"}, `boot.kernel.sysctl."net.ipv4.ip_forward"`},
		{Path{"a-b", "_c", "d1", "ünï"}, "a-b._c.d1.ünï"},
		{Path{"1a", "-a", ""}, `"1a"."-a".""`},
		{Path{`say "hi"`, `back\slash`}, `"say \"hi\""."back\\slash"`},
		{Path{"two\nlines\tand\r"}, `"two\nlines\tand\r"`},
		{Path{"kubelet@.service"}, `"kubelet@.service"`},
	}
	for _, tt := range tests {
		t.Run(tt.str, func(t *testing.T) {
			if got := tt.path.String(); got != tt.str {
				t.Errorf("String() = %q, want %q", got, tt.str)
			}
			back, err := Parse(tt.str)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.str, err)
			}
			if diff := cmp.Diff(tt.path, back); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tt.str, diff)
			}
			if back.Key() != tt.path.Key() || !back.Equal(tt.path) {
				t.Errorf("Key/Equal disagree for %q", tt.str)
			}
		})
	}
}

func TestParseLenient(t *testing.T) {
	// Bare segments may hold characters String would quote.
	tests := map[string]Path{
		"environment.etc.kubernetes/manifests": {"environment", "etc", "kubernetes/manifests"},
		`a."b.c".d`:                            {"a", "b.c", "d"},
		`"a"`:                                  {"a"},
		"1.2":                                  {"1", "2"},
	}
	for in, want := range tests {
		got, err := Parse(in)
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Parse(%q) (-want +got):\n%s", in, diff)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, in := range []string{
		"a..b", "a.", ".a", ".", `"abc`, `a"b"`, `"a"b`, `"a\q"`, `a."b`, `"a\`,
	} {
		if p, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %q, want an error", in, []string(p))
		}
	}
}

func TestPathChildCopies(t *testing.T) {
	base := make(Path, 2, 10)
	copy(base, []string{"a", "b"})
	x := base.Child("x")
	y := base.Child("y")
	if x.String() != "a.b.x" || y.String() != "a.b.y" {
		t.Errorf("children share storage: %s, %s", x, y)
	}
	if len(base) != 2 {
		t.Errorf("Child changed its receiver: %s", base)
	}
	j := base.Join(Path{"c", "d"})
	if j.String() != "a.b.c.d" || !j.HasPrefix(base) || base.HasPrefix(j) || !base.HasPrefix(nil) {
		t.Errorf("Join/HasPrefix: %s", j)
	}
}

func TestParseAfter(t *testing.T) {
	tests := []struct {
		prefix Path
		in     string
		want   Path
	}{
		{nil, "a.b", Path{"a", "b"}},
		{Path{}, "a", Path{"a"}},
		{Path{"synth", "m0000"}, "enable", Path{"synth", "m0000", "enable"}},
		{Path{"x"}, `a."b.c"`, Path{"x", "a", "b.c"}},
		{Path{"x", "y"}, "", Path{"x", "y"}},
	}
	for _, tt := range tests {
		prefix := slices.Clone(tt.prefix)
		got, err := ParseAfter(prefix, tt.in)
		if err != nil {
			t.Errorf("ParseAfter(%q, %q): %v", tt.prefix, tt.in, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseAfter(%q, %q) (-want +got):\n%s", tt.prefix, tt.in, diff)
		}
		if cap(got) > 0 && cap(prefix) > 0 && &got[:1][0] == &prefix[:1][0] {
			t.Errorf("ParseAfter(%q, %q) shares the prefix's array", tt.prefix, tt.in)
		}
		if !slices.Equal(prefix, tt.prefix) {
			t.Errorf("ParseAfter changed its prefix to %q", prefix)
		}
	}
	for _, in := range []string{"a..b", "a.", `"abc`} {
		if p, err := ParseAfter(Path{"x"}, in); err == nil {
			t.Errorf("ParseAfter(x, %q) = %q, want an error", in, []string(p))
		}
	}
}
