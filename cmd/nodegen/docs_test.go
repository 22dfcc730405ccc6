package main

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/diff"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/hclfmt"
	"github.com/nodegen/nodegen/lib"
)

// The documents whose examples TestDocs runs. docs/options.md is left
// out: it is generated from the library (make docs), and its own test
// checks it.
var exampleDocs = []string{"../../docs/language.md", "../../docs/tutorial.md", "../../docs/switching.md", "../../docs/startup-check.md", "../../docs/fleets.md"}

// TestDocs runs the examples of the documentation, so that they cannot
// rot. In a document:
//
//   - A ```hcl block is a file of the example. Its first line may name it
//     ("# roles/web.hcl"); an unnamed block is example.hcl. The files of a
//     document accumulate in one directory, in the order of the document,
//     a later block of the same name replacing the file.
//   - A ```output or ```error block is a transcript: lines starting with
//     "$ nodegen " are commands, run in that directory, each followed by
//     what it prints (its standard output, then its standard error). In an
//     output block every command succeeds; in an error block the last one
//     fails and the ones before it succeed.
//   - Every hcl block that parses is formatted as nodegen fmt formats it
//     (a block may show a syntax error).
//   - Every unnamed hcl block is followed by a transcript before the next
//     hcl block; a named one is used later: a later block mentions its name.
//
// NODEGEN_UPDATE=1 rewrites the transcripts with what the commands print.
func TestDocs(t *testing.T) {
	for _, doc := range exampleDocs {
		t.Run(filepath.Base(doc), func(t *testing.T) {
			doc, err := filepath.Abs(doc)
			if err != nil {
				t.Fatal(err)
			}
			src, err := os.ReadFile(doc)
			if err != nil {
				t.Fatal(err)
			}
			blocks := fencedBlocks(string(src))
			if len(blocks) == 0 {
				t.Fatal("no examples")
			}
			checkExamplesUsed(t, doc, blocks)
			dir := t.TempDir()
			t.Chdir(dir)
			updated := string(src)
			shift := 0
			for _, b := range blocks {
				switch b.lang {
				case "hcl":
					name := b.fileName()
					if out, diags := hclfmt.Format([]byte(b.body), name); !diags.HasErrors() && string(out) != b.body {
						t.Errorf("%s:%d: the hcl block %s is not formatted as nodegen fmt would:\n%s", doc, b.line, name, diff.Diff("doc", []byte(b.body), "fmt", out))
					}
					if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(name, []byte(b.body), 0o644); err != nil {
						t.Fatal(err)
					}
				case "output", "error":
					got := runTranscript(t, doc, b)
					if os.Getenv("NODEGEN_UPDATE") != "" {
						updated = updated[:b.start+shift] + got + updated[b.end+shift:]
						shift += len(got) - (b.end - b.start)
						continue
					}
					if diff := cmp.Diff(b.body, got); diff != "" {
						t.Errorf("%s:%d: the %s block differs from what the commands print (-doc +got):\n%s", doc, b.line, b.lang, diff)
					}
				}
			}
			if updated != string(src) {
				if err := os.WriteFile(doc, []byte(updated), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// fencedBlock is one fenced code block of a Markdown document.
type fencedBlock struct {
	lang string
	body string
	// start and end are the byte offsets of the body in the document, line
	// the line of the opening fence.
	start, end, line int
}

var fileNameLine = regexp.MustCompile(`^# ([\w./-]+\.hcl)\n`)

// fileName is the name of the file an hcl block holds.
func (b fencedBlock) fileName() string {
	if m := fileNameLine.FindStringSubmatch(b.body); m != nil {
		return m[1]
	}
	return "example.hcl"
}

// fencedBlocks lists the fenced code blocks of a Markdown document.
func fencedBlocks(src string) []fencedBlock {
	var out []fencedBlock
	var cur *fencedBlock
	off := 0
	for i, line := range strings.SplitAfter(src, "\n") {
		trimmed := strings.TrimRight(line, "\n")
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			cur = &fencedBlock{lang: strings.TrimSpace(trimmed[3:]), start: off + len(line), line: i + 1}
		case cur != nil && trimmed == "```":
			cur.end = off
			cur.body = src[cur.start:cur.end]
			out = append(out, *cur)
			cur = nil
		}
		off += len(line)
	}
	return out
}

// checkExamplesUsed checks that every hcl block is exercised: an unnamed
// one by the transcript that follows it before the next hcl block, a named
// one by a later transcript, when another block (a command line, an
// import) mentions its name or its directory.
func checkExamplesUsed(t *testing.T, doc string, blocks []fencedBlock) {
	isTranscript := func(b fencedBlock) bool { return b.lang == "output" || b.lang == "error" }
	for i, b := range blocks {
		if b.lang != "hcl" {
			continue
		}
		name := b.fileName()
		used := false
		if name == "example.hcl" {
			for _, later := range blocks[i+1:] {
				if later.lang == "hcl" || isTranscript(later) {
					used = isTranscript(later)
					break
				}
			}
		} else {
			mentioned, run := false, slices.ContainsFunc(blocks[i+1:], isTranscript)
			for j, o := range blocks {
				if j != i && (o.lang == "hcl" || isTranscript(o)) && (strings.Contains(o.body, path.Base(name)) || strings.Contains(o.body, " "+path.Dir(name)+"/")) {
					mentioned = true
				}
			}
			used = mentioned && run
		}
		if !used {
			t.Errorf("%s:%d: the hcl block %s is never run: follow it with an output or error block, or name it and use it later", doc, b.line, name)
		}
	}
}

// runTranscript runs the commands of an output or error block and returns
// the transcript they print.
func runTranscript(t *testing.T, doc string, b fencedBlock) string {
	var cmds [][]string
	for _, line := range strings.Split(b.body, "\n") {
		if rest, ok := strings.CutPrefix(line, "$ nodegen "); ok {
			args, err := shellWords(rest)
			if err != nil {
				t.Fatalf("%s:%d: %s", doc, b.line, err)
			}
			cmds = append(cmds, args)
		}
	}
	if len(cmds) == 0 {
		t.Fatalf("%s:%d: an %s block holds commands: lines that start with \"$ nodegen \"", doc, b.line, b.lang)
	}
	var out strings.Builder
	for i, args := range cmds {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		fmt.Fprintf(&out, "$ nodegen %s\n", quoteWords(args))
		printed := stdout.String() + stderr.String()
		if printed != "" && !strings.HasSuffix(printed, "\n") {
			printed += "\n"
		}
		out.WriteString(printed)
		last := i == len(cmds)-1
		switch {
		case b.lang == "error" && last && code == exitOK:
			t.Errorf("%s:%d: nodegen %s succeeded, but the error block wants it to fail", doc, b.line, quoteWords(args))
		case (b.lang == "output" || !last) && code != exitOK:
			t.Errorf("%s:%d: nodegen %s failed (exit %d):\n%s", doc, b.line, quoteWords(args), code, printed)
		}
	}
	return out.String()
}

// shellWords splits a command line into words: blanks separate them,
// single and double quotes group them (no escapes, no expansions).
func shellWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("unterminated quote in %q", s)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// quoteWords renders words as a command line that shellWords reads back.
func quoteWords(words []string) string {
	out := make([]string, len(words))
	for i, w := range words {
		switch {
		case w == "" || strings.ContainsAny(w, ` "`):
			out[i] = "'" + w + "'"
		case strings.ContainsAny(w, `'`):
			out[i] = `"` + w + `"`
		default:
			out[i] = w
		}
	}
	return strings.Join(out, " ")
}

// TestDocsListFunctions checks that the language reference lists every
// function an expression can call, with its signature.
func TestDocsListFunctions(t *testing.T) {
	src, err := os.ReadFile("../../docs/language.md")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"file", "try", "can", "mkIf", "mkMerge", "mkOverride", "mkDefault", "mkForce", "mkOptionDefault", "mkOrder", "mkBefore", "mkAfter"}
	for n := range lib.Functions() {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if !strings.Contains(string(src), "`"+n+"(") {
			t.Errorf("docs/language.md does not list the function %s: add `%s(...)` with its parameters", n, n)
		}
	}
}

// TestDocsLinks checks that the README and the documents link only to
// files of the repository that exist: a user has nothing else.
func TestDocsLinks(t *testing.T) {
	docs, _ := filepath.Glob("../../docs/*.md")
	docs = append(docs, "../../README.md")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, doc := range docs {
		src, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(src), "../shared") || strings.Contains(string(src), "/work/") {
			t.Errorf("%s mentions a file outside the repository", doc)
		}
		for _, m := range link.FindAllStringSubmatch(string(src), -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" {
				continue
			}
			if strings.Contains(target, "://") {
				t.Errorf("%s links outside the repository: %s", doc, m[1])
				continue
			}
			p := filepath.Join(filepath.Dir(doc), target)
			if rel, err := filepath.Rel("../..", p); err != nil || strings.HasPrefix(rel, "..") {
				t.Errorf("%s links outside the repository: %s", doc, m[1])
			} else if _, err := os.Stat(p); err != nil {
				t.Errorf("%s links to a file that does not exist: %s", doc, m[1])
			}
		}
	}
}

// TestDocsLimits: the limits table of docs/language.md is the one
// `nodegen eval --help` prints (eval.LimitsTable).
func TestDocsLimits(t *testing.T) {
	src, err := os.ReadFile("../../docs/language.md")
	if err != nil {
		t.Fatal(err)
	}
	want := eval.LimitsTable()
	for _, b := range fencedBlocks(string(src)) {
		if b.lang == "text" && strings.HasPrefix(b.body, "NAME ") {
			if diff := cmp.Diff(want, b.body); diff != "" {
				t.Errorf("docs/language.md's limits table differs from eval.LimitsTable (-want +got):\n%s", diff)
			}
			return
		}
	}
	t.Errorf("docs/language.md has no limits table; want a text block of:\n%s", want)
}
