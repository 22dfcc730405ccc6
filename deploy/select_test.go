package deploy

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func hostsNamed(names ...string) []Host {
	var hs []Host
	for i, n := range names {
		h := Host{Name: n}
		if i%2 == 0 {
			h.Options.Tags = []string{"even"}
		}
		hs = append(hs, h)
	}
	return hs
}

func TestSelect(t *testing.T) {
	six := hostsNamed("web1", "web2", "db1", "db2", "cache1", "lb1")
	for _, tc := range []struct {
		name      string
		hosts     []Host
		selectors []string
		want      []string
		err       string
	}{
		{"all of a small set", six[:3], nil, []string{"web1", "web2", "db1"}, ""},
		{"a large set needs --on", six, nil, nil, "6 hosts given and no --on: touching more than 5 hosts needs them selected, --on '*' for all"},
		{"star", six, []string{"*"}, []string{"web1", "web2", "db1", "db2", "cache1", "lb1"}, ""},
		{"a name", six, []string{"db2"}, []string{"db2"}, ""},
		{"a glob, in the hosts' order", six, []string{"db*", "web?"}, []string{"web1", "web2", "db1", "db2"}, ""},
		{"a tag", six, []string{"@even"}, []string{"web1", "db1", "cache1"}, ""},
		{"a selector that matches nothing", six, []string{"mail*"}, nil, `--on "mail*" matches none of the 6 hosts`},
		{"a bad glob", six, []string{"[x"}, nil, `--on "[x": syntax error in pattern`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Select(tc.hosts, tc.selectors)
			if fmt.Sprint(err) != fmt.Sprint(errOrNil(tc.err)) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			var names []string
			for _, h := range got {
				names = append(names, h.Name)
			}
			if diff := cmp.Diff(tc.want, names); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func errOrNil(s string) error {
	if s == "" {
		return nil
	}
	return fmt.Errorf("%s", s)
}

func TestWaves(t *testing.T) {
	for _, tc := range []struct {
		list string
		n    int
		want [][2]int
		err  string
	}{
		{"", 4, [][2]int{{0, 4}}, ""},
		{"1,10%,100%", 20, [][2]int{{0, 1}, {1, 2}, {2, 20}}, ""},
		{"1,50%", 10, [][2]int{{0, 1}, {1, 5}, {5, 10}}, ""},
		{"1,10%,100%", 1, [][2]int{{0, 1}}, ""},
		{"5", 3, [][2]int{{0, 3}}, ""},
		{"x", 3, nil, `--waves: "x": want a number of hosts or a percentage (10%)`},
		{"150%", 3, nil, `--waves: "150%": want a percentage from 0% to 100%`},
	} {
		got, err := Waves(tc.list, tc.n)
		if fmt.Sprint(err) != fmt.Sprint(errOrNil(tc.err)) {
			t.Errorf("Waves(%q, %d): error %v, want %q", tc.list, tc.n, err, tc.err)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Waves(%q, %d) (-want +got):\n%s", tc.list, tc.n, diff)
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/run/keys":   "/run/keys",
		"":            "''",
		"a b":         "'a b'",
		"it's":        `'it'\''s'`,
		"$(rm -rf /)": "'$(rm -rf /)'",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestParseJump(t *testing.T) {
	for out, want := range map[string]string{
		"user root\nhostname web1\nport 22\n":                  "",
		"hostname web1\nproxyjump none\n":                      "",
		"hostname web1\nproxyjump bastion.example.org\n":       "bastion.example.org",
		"hostname web1\nproxyjump alice@b1:2222,b2\nport 22\n": "alice@b1:2222",
	} {
		if got := parseJump(out); got != want {
			t.Errorf("parseJump(%q) = %q, want %q", out, got, want)
		}
	}
}

func TestJumpLimits(t *testing.T) {
	l := &jumpLimits{max: 2}
	ctx := context.Background()
	r1, _ := l.acquire(ctx, "b")
	r2, _ := l.acquire(ctx, "b")
	other, _ := l.acquire(ctx, "c")
	other()
	full, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := l.acquire(full, "b"); err == nil {
		t.Fatal("a third slot of b was given while two were taken")
	}
	r1()
	r3, err := l.acquire(ctx, "b")
	if err != nil {
		t.Fatal(err)
	}
	r2()
	r3()
}
