package docgen

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/modules"
	"github.com/nodegen/nodegen/options"
)

// TestOptionsDoc checks that docs/options.md is what `nodegen options`
// writes for the built-in library. NODEGEN_UPDATE=1 rewrites it.
func TestOptionsDoc(t *testing.T) {
	ev, diags := eval.New(eval.Config{Library: modules.FS()})
	if diags.HasErrors() {
		t.Fatalf("the library does not load: %s", diags.Error())
	}
	var buf bytes.Buffer
	if err := Markdown(&buf, ev.Declarations()); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join("..", "docs", "options.md")
	if os.Getenv("NODEGEN_UPDATE") != "" {
		if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%s: %s; generate it with `make docs`", file, err)
	}
	if diff := cmp.Diff(string(want), buf.String()); diff != "" {
		t.Errorf("docs/options.md is stale: the library's options changed. Regenerate it with `make docs` (or NODEGEN_UPDATE=1 go test ./docgen/) and commit it.\n(-committed +generated):\n%s", diff)
	}
}

func decl(path string, mod func(*eval.Declaration)) eval.Declaration {
	p, err := options.ParsePath(path)
	if err != nil {
		panic(err)
	}
	d := eval.Declaration{Path: p, Type: "string", Range: hcl.Range{Filename: "m.hcl", Start: hcl.Pos{Line: 3, Column: 1}}}
	if mod != nil {
		mod(&d)
	}
	return d
}

func TestMarkdown(t *testing.T) {
	decls := []eval.Declaration{
		decl("a.x", func(d *eval.Declaration) {
			d.HasDefault, d.Default = true, `"x"`
			d.Description = "  The x.  \n"
		}),
		decl(`a.files."<name>".text`, func(d *eval.Declaration) {
			d.HasDefault, d.Default, d.DefaultIsText = true, "the attribute name", true
			d.Example = "<<-EOT\n  a\nEOT"
		}),
		decl("a.hidden", func(d *eval.Declaration) { d.Internal = true }),
		decl("b", func(d *eval.Declaration) { d.ReadOnly = true }),
	}
	var buf bytes.Buffer
	if err := Markdown(&buf, decls); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	for _, want := range []string{
		"- [a](#a) (2)\n- [b](#b) (1)\n",
		"\n## a\n\n### `a.x`\n\nThe x.\n\n*Type:* string\n\n*Default:* `\"x\"`\n\n*Declared in:* `m.hcl`\n",
		"### `a.files.<name>.text`\n\n*Type:* string\n\n*Default:* the attribute name\n\n*Example:* \n\n```hcl\n<<-EOT\n  a\nEOT\n```\n\n",
		"*Read-only:* more than one definition (the default counts) is an error.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "hidden") {
		t.Errorf("an internal option is documented:\n%s", got)
	}
}

func TestJSON(t *testing.T) {
	decls := []eval.Declaration{
		decl(`a.files."<name>".mode`, func(d *eval.Declaration) { d.HasDefault, d.Default = true, `"0644"` }),
		decl("a.hidden", func(d *eval.Declaration) { d.Internal = true }),
	}
	var buf bytes.Buffer
	if err := JSON(&buf, decls); err != nil {
		t.Fatal(err)
	}
	var got []Option
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	def := `"0644"`
	want := []Option{{Path: "a.files.<name>.mode", Type: "string", Default: &def, Declared: Location{"m.hcl", 3, 1}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JSON (-want +got):\n%s", diff)
	}
}

func TestDocPath(t *testing.T) {
	tests := map[string]options.Path{
		"systemd.services.<name>.after":      {"systemd", "services", "<name>", "after"},
		"assertions.*.message":               {"assertions", "*", "message"},
		`environment.etc."hosts.allow".text`: {"environment", "etc", "hosts.allow", "text"},
	}
	for want, p := range tests {
		if got := DocPath(p); got != want {
			t.Errorf("DocPath(%#v) = %q, want %q", p, got, want)
		}
	}
}
