// Package thirdparty holds the tests that tie the copies of other modules
// under third_party to the releases they were taken from.
package thirdparty

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The files of third_party/go-cty that differ from upstream's and the files
// added; NODEGEN.md must name each. Of upstream's files, only those under
// cty/ and goCtyKept are copied.
var (
	goCtyChanged = []string{"cty/ctystrings/normalize.go", "cty/value_init.go", "cty/value_ops.go"}
	goCtyAdded   = []string{"NODEGEN.md", "cty/ctystrings/normalize_nodegen_test.go", "cty/value_nodegen_test.go"}
	goCtyKept    = []string{"LICENSE", "go.mod", "go.sum"}
)

// goCtySum is the hash of go-cty at goCtySumVersion, as go.sum had it.
const (
	goCtySumVersion = "v1.19.0"
	goCtySum        = "h1:IV8WdqYZc2c5rLX9bEoLNXKojBAp0MZPBHMIrCoa/s4="
)

// goCtyVersion returns the version of go-cty that NODEGEN.md says the copy
// was taken from.
func goCtyVersion(t *testing.T) string {
	t.Helper()
	doc, err := os.ReadFile("go-cty/NODEGEN.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("`github.com/zclconf/go-cty` at (v[0-9][^ \\n(]*)").FindSubmatch(doc)
	if m == nil {
		t.Fatal("go-cty/NODEGEN.md does not say which version of go-cty this is a copy of")
	}
	return string(m[1])
}

// TestGoCtyVersion fails when go.mod requires another go-cty than the one
// the copy was taken from, or does not replace go-cty with the copy.
func TestGoCtyVersion(t *testing.T) {
	copied := goCtyVersion(t)
	gomod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	req := regexp.MustCompile(`(?m)^\s*(?:require\s+)?github\.com/zclconf/go-cty (v\S+)`).FindSubmatch(gomod)
	if req == nil {
		t.Fatal("go.mod does not require github.com/zclconf/go-cty")
	}
	if string(req[1]) != copied {
		t.Errorf("go.mod requires go-cty %s, but third_party/go-cty is a copy of %s: copy go-cty %s again and make the changes NODEGEN.md lists", req[1], copied, req[1])
	}
	if !regexp.MustCompile(`(?m)^replace github\.com/zclconf/go-cty => \./third_party/go-cty$`).Match(gomod) {
		t.Error("go.mod does not replace github.com/zclconf/go-cty with ./third_party/go-cty")
	}
}

// TestGoCtyOrigin compares the copy with upstream's release: every file is
// upstream's byte for byte unless NODEGEN.md lists it as changed or added.
func TestGoCtyOrigin(t *testing.T) {
	version := goCtyVersion(t)
	// go mod download prints its error in the JSON too, and exits 1.
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/zclconf/go-cty@"+version).Output()
	var mod struct{ Dir, Sum, Error string }
	if jerr := json.Unmarshal(out, &mod); jerr != nil || mod.Error != "" || err != nil || mod.Dir == "" {
		t.Fatalf("go mod download cannot fetch go-cty %s (%v %s): this test needs the module in the module cache or the module proxy", version, err, mod.Error)
	}
	// go.sum has no line for go-cty, which go.mod replaces: the release
	// compared with is tied to it here.
	if version != goCtySumVersion {
		t.Fatalf("the copy is of go-cty %s, but goCtySum is the hash of %s: set both to the new release's", version, goCtySumVersion)
	}
	if mod.Sum != goCtySum {
		t.Fatalf("go-cty %s downloaded has the hash %s, not %s", version, mod.Sum, goCtySum)
	}
	doc, err := os.ReadFile("go-cty/NODEGEN.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range slices.Concat(goCtyChanged, goCtyAdded) {
		if !bytes.Contains(doc, []byte("`"+name+"`")) {
			t.Errorf("NODEGEN.md does not name `%s`", name)
		}
	}
	up := files(t, mod.Dir)
	ours := files(t, "go-cty")
	for name := range up {
		if !strings.HasPrefix(name, "cty/") && !slices.Contains(goCtyKept, name) {
			delete(up, name) // left out
		}
	}
	for _, name := range sortedUnion(up, ours) {
		a, inUpstream := up[name]
		b, inCopy := ours[name]
		switch {
		case slices.Contains(goCtyAdded, name):
			if inUpstream || !inCopy {
				t.Errorf("%s: listed as added, but upstream has it (%v) or the copy does not (%v)", name, inUpstream, !inCopy)
			}
		case !inCopy:
			t.Errorf("%s: upstream's, missing from the copy", name)
		case !inUpstream:
			t.Errorf("%s: not upstream's, and not listed as added", name)
		case slices.Contains(goCtyChanged, name):
			if bytes.Equal(a, b) {
				t.Errorf("%s: listed as changed, but the same as upstream's", name)
			}
		case !bytes.Equal(a, b):
			t.Errorf("%s: differs from upstream's, and is not listed as changed", name)
		}
	}
}

// files reads every regular file under root, by slash-separated path.
func files(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sortedUnion(a, b map[string][]byte) []string {
	var names []string
	for n := range a {
		names = append(names, n)
	}
	for n := range b {
		if _, ok := a[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}
