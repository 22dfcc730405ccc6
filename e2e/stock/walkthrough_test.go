//go:build linux

package stock

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// walkthroughDoc is the document whose walk-through the test runs, and
// its section.
const (
	walkthroughDoc     = "../../docs/kubernetes.md"
	walkthroughSection = "## A cluster on stock machines"
)

// fileNameLine is the first line of a hcl block of the walk-through that
// names its file, as in the docs whose examples cmd/nodegen's TestDocs
// runs: "# hosts/master01.hcl".
var fileNameLine = regexp.MustCompile(`^# ([\w./-]+\.hcl)\n`)

// TestWalkthroughFiles checks that docs/kubernetes.md's walk-through shows
// the host files TestStockCluster deploys (testdata/walkthrough) as they
// are, each in a hcl block whose first line names it, and every one of
// them; and that its commands name the paths the test uses.
func TestWalkthroughFiles(t *testing.T) {
	src, err := os.ReadFile(walkthroughDoc)
	if err != nil {
		t.Fatal(err)
	}
	section, ok := sectionOf(string(src), walkthroughSection)
	if !ok {
		t.Fatalf("%s has no section %q", walkthroughDoc, walkthroughSection)
	}
	shown := map[string]string{}
	var commands strings.Builder
	for _, b := range fencedBlocks(section) {
		switch b.lang {
		case "hcl":
			m := fileNameLine.FindStringSubmatch(b.body)
			if m == nil {
				t.Errorf("%s: a hcl block of %q names no file in its first line (# hosts/NAME.hcl):\n%s", walkthroughDoc, walkthroughSection, b.body)
				continue
			}
			shown[m[1]] = b.body
		case "sh":
			commands.WriteString(b.body)
		}
	}
	files := map[string]string{}
	err = filepath.WalkDir("testdata/walkthrough", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("testdata/walkthrough", path)
		files[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(files, shown); diff != "" {
		t.Errorf("the walk-through's hcl blocks differ from testdata/walkthrough (-files +doc):\n%s", diff)
	}
	for _, want := range []string{
		"nodegen lock hosts/master01.hcl hosts/worker01.hcl",
		"nodegen deploy hosts/master01.hcl\n",
		"cat " + apiToken + " > hosts/secrets/apitoken.secret",
		"nodegen deploy hosts/master01.hcl hosts/worker01.hcl",
		kubectlPath + " --kubeconfig " + adminKubeconfig + " get nodes",
		"config view --raw --flatten > admin.kubeconfig",
	} {
		if !strings.Contains(commands.String(), want) {
			t.Errorf("the walk-through's commands do not say %q, as the test does:\n%s", want, commands.String())
		}
	}
}

// sectionOf returns the part of the Markdown document src from the
// heading line heading to the next heading of the same level.
func sectionOf(src, heading string) (string, bool) {
	start := strings.Index(src, "\n"+heading+"\n")
	if start < 0 {
		return "", false
	}
	rest := src[start+1:]
	level := heading[:strings.Index(heading, " ")+1]
	if end := strings.Index(rest[len(heading):], "\n"+level); end >= 0 {
		rest = rest[:len(heading)+end+1]
	}
	return rest, true
}

// fencedBlock is one fenced code block of a Markdown document.
type fencedBlock struct{ lang, body string }

// fencedBlocks lists the fenced code blocks of a Markdown text.
func fencedBlocks(src string) []fencedBlock {
	var out []fencedBlock
	var cur *fencedBlock
	for _, line := range strings.SplitAfter(src, "\n") {
		trimmed := strings.TrimRight(line, "\n")
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			cur = &fencedBlock{lang: strings.TrimSpace(trimmed[3:])}
		case cur != nil && trimmed == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.body += line
		}
	}
	return out
}
