package hclsyntax

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// This file is nodegen's: it ties the copy to the upstream release it was
// taken from (README.md).

// The files that differ from upstream, those left out and those added;
// README.md must name each. Tests that nodegen adds (*_test.go) need not
// be listed.
var (
	originChanged = []string{"parser.go", "parser_template.go", "parser_test.go", "public.go", "scan_tokens.go", "scan_tokens.rl", "structure.go", "token.go"}
	originLeftOut = []string{".ruby-version", "expression_vars_gen.go", "fuzz", "generate.go", "unicode2ragel.rb"}
	originAdded   = []string{"LICENSE", "README.md", "codec.go", "graphemes.go", "heredoc_test.go", "nesting.go", "nesting_test.go", "origin_test.go"}
)

// upstream returns the version of github.com/hashicorp/hcl/v2 that go.mod
// requires and the directory of its source in the module cache.
func upstream(t *testing.T) (version, dir string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}} {{.Dir}}", "github.com/hashicorp/hcl/v2").Output()
	if err != nil {
		t.Skipf("go list cannot name the hcl module: %v", err)
	}
	version, dir, _ = strings.Cut(strings.TrimSpace(string(out)), " ")
	return version, dir
}

// TestOriginVersion fails when go.mod requires another hcl than the one
// this copy was taken from: the copy must then be taken again from the new
// release and the changes of README.md made again, so that nodegen's
// parser (this copy) and the rest of hcl it uses (hcl.Body, hclwrite,
// which nodegen fmt formats with) stay one version.
func TestOriginVersion(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("`github.com/hashicorp/hcl/v2/hclsyntax` at (v[0-9][^ \\n(]*)").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md does not say which version of hclsyntax this is a copy of")
	}
	copied := string(m[1])
	gomod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	req := regexp.MustCompile(`(?m)^\s*github\.com/hashicorp/hcl/v2 (v\S+)`).FindSubmatch(gomod)
	if req == nil {
		t.Fatal("go.mod does not require github.com/hashicorp/hcl/v2")
	}
	if string(req[1]) != copied {
		t.Fatalf("go.mod requires hcl %s, but internal/hclsyntax is a copy of %s: copy hclsyntax from %s again and make the changes README.md lists", req[1], copied, req[1])
	}
}

// TestOriginFiles compares the copy with upstream's source: every file is
// upstream's byte for byte unless README.md lists it as changed, left out
// or added.
func TestOriginFiles(t *testing.T) {
	version, dir := upstream(t)
	if dir == "" {
		t.Skip("the hcl module is not in the module cache")
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, lists := range [][]string{originChanged, originLeftOut, originAdded} {
		for _, name := range lists {
			if !bytes.Contains(readme, []byte("`"+name+"`")) {
				t.Errorf("README.md does not name `%s`", name)
			}
		}
	}
	listed := map[string]string{}
	for _, n := range originChanged {
		listed[n] = "changed"
	}
	for _, n := range originLeftOut {
		listed[n] = "left out"
	}
	for _, n := range originAdded {
		listed[n] = "added"
	}
	up, err := os.ReadDir(filepath.Join(dir, "hclsyntax"))
	if err != nil {
		t.Fatal(err)
	}
	ours, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, e := range up {
		names[e.Name()] = true
	}
	for _, e := range ours {
		names[e.Name()] = true
	}
	var sorted []string
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	for _, name := range sorted {
		a, aerr := os.ReadFile(filepath.Join(dir, "hclsyntax", name))
		b, berr := os.ReadFile(name)
		_, inUpstream := os.Stat(filepath.Join(dir, "hclsyntax", name))
		_, inCopy := os.Stat(name)
		var got string
		switch {
		case inUpstream != nil && strings.HasSuffix(name, "_test.go"):
			continue // a test of nodegen's
		case inUpstream != nil:
			got = "added"
		case inCopy != nil:
			got = "left out"
		case aerr != nil || berr != nil:
			t.Errorf("%s: a directory in both", name)
			continue
		case !bytes.Equal(a, b):
			got = "changed"
		default:
			got = "upstream's"
		}
		want := listed[name]
		if want == "" {
			want = "upstream's"
		}
		if got != want {
			t.Errorf("%s is %s (against hcl %s), but the list says %s", name, got, version, want)
		}
	}
}
