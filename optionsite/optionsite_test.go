package optionsite

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

func decl(path, typ string, mod func(*eval.Declaration)) eval.Declaration {
	p, err := options.ParsePath(path)
	if err != nil {
		panic(err)
	}
	d := eval.Declaration{Path: p, Type: typ, Range: hcl.Range{Filename: "m.hcl", Start: hcl.Pos{Line: 3, Column: 1}}}
	if mod != nil {
		mod(&d)
	}
	return d
}

func withDefault(src string) func(*eval.Declaration) {
	return func(d *eval.Declaration) { d.Default, d.HasDefault = src, true }
}

func TestSnippet(t *testing.T) {
	tests := []struct {
		name string
		decl eval.Declaration
		want string
	}{
		{"enable: the opposite of false", decl("services.openssh.enable", "boolean", withDefault("false")),
			"config \"services.openssh\" {\n  enable = true\n}\n"},
		{"a boolean on by default", decl("services.x.check", "boolean", withDefault("true")),
			"config \"services.x\" {\n  check = false\n}\n"},
		{"the example wins", decl("services.x.ports", "list of 16 bit unsigned integer", func(d *eval.Declaration) {
			d.Default, d.HasDefault, d.Example = "[22]", true, "[\n  22,\n  2222,\n]"
		}), "config \"services.x\" {\n  ports = [\n    22,\n    2222,\n  ]\n}\n"},
		{"a literal default", decl("services.x.port", "16 bit unsigned integer", withDefault("8080")),
			"config \"services.x\" {\n  port = 8080\n}\n"},
		{"a default that reads config is not copied", decl("services.x.name", "string", withDefault("config.networking.hostName")),
			"config \"services.x\" {\n  name = \"\"\n}\n"},
		{"a default that calls a function is not copied", decl("services.x.list", "list of string", withDefault(`concat(["a"], [])`)),
			"config \"services.x\" {\n  list = []\n}\n"},
		{"default_text is not copied", decl("services.x.dir", "null or path", func(d *eval.Declaration) {
			d.Default, d.HasDefault, d.DefaultIsText = "the state directory", true, true
		}), "config \"services.x\" {\n  dir = null\n}\n"},
		{"one of", decl("services.x.mode", `one of "a", "b"`, nil), "config \"services.x\" {\n  mode = \"a\"\n}\n"},
		{"a top-level option", decl("assertions", "list of (submodule)", nil), "config {\n  assertions = []\n}\n"},
		{"<name>", decl("systemd.services.<name>.after", "list of systemd unit name", nil),
			"config \"systemd.services.example\" {\n  after = []\n}\n"},
		{"*", decl("services.openssh.listenAddresses.*.port", "null or 16 bit unsigned integer", nil),
			"config \"services.openssh\" {\n  listenAddresses = [{ port = null }]\n}\n"},
		{"a quoted segment", decl(`boot.kernel.sysctl."net.core.somaxconn"`, "signed integer", nil),
			"config \"boot.kernel.sysctl\" {\n  \"net.core.somaxconn\" = 1\n}\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Snippet(tc.decl)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestSnippetsEvaluate: the snippet of every option of the library that
// is not inside a submodule is a host the evaluator loads (it parses, and
// defines a declared option); a sample of them evaluates to the value
// written.
func TestSnippetsEvaluate(t *testing.T) {
	ev, diags := eval.New(eval.Config{Library: modules.FS()})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	n := 0
	for _, d := range ev.Declarations() {
		if d.Internal || hasPlaceholder(d.Path) {
			continue
		}
		n++
		dir := t.TempDir()
		host := filepath.Join(dir, "host.hcl")
		if err := os.WriteFile(host, []byte(Snippet(d)), 0o644); err != nil {
			t.Fatal(err)
		}
		hev, diags := eval.New(eval.Config{Library: modules.FS(), Files: []string{host}})
		if diags.HasErrors() {
			t.Errorf("the snippet of %s does not load:\n%s\n%s", d.Path, Snippet(d), diags.Error())
			continue
		}
		if d.Path.String() == "services.openssh.enable" {
			v, diags := hev.Get(d.Path)
			if diags.HasErrors() || !v.True() {
				t.Errorf("services.openssh.enable from its snippet is %#v (%s)", v, diags.Error())
			}
		}
	}
	if n < 500 {
		t.Errorf("only %d options checked", n)
	}
}

// TestBuild: a host's values and definitions, the options it sets marked,
// the options inside submodules without a value of their own.
func TestBuild(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("web.hcl", `options "services.web" {
  option "enable" {
    type        = bool
    default     = false
    description = "Whether to run the web server."
  }
  option "port" {
    type    = port
    default = 80
  }
  option "vhosts" {
    type    = attrsOf(submodule.vhost)
    default = {}
  }
}
submodule "vhost" {
  option "root" { type = str }
}
`)
	host := write("host.hcl", `imports = ["web.hcl"]
config "services.web" {
  enable = true
}
`)
	ev, diags := eval.New(eval.Config{Files: []string{host}})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	idx := Build(ev.Declarations(), []NamedEvaluator{{Name: "host.hcl", Eval: ev}})
	var paths []string
	for _, o := range idx.Options {
		paths = append(paths, o.Path)
	}
	if diff := cmp.Diff([]string{"services.web.enable", "services.web.port", "services.web.vhosts", "services.web.vhosts.<name>.root"}, paths); diff != "" {
		t.Fatalf("options (-want +got):\n%s", diff)
	}
	prio := func(n int) *int { return &n }
	def := idx.Options[0]
	if def.Declared != filepath.Join(dir, "web.hcl")+":2" || *def.Default != "false" || def.Snippet != "config \"services.web\" {\n  enable = true\n}\n" {
		t.Errorf("services.web.enable: %+v", def)
	}
	want := []*Value{
		{Text: "true", Defined: true, Set: true, Definitions: []Definition{
			{At: filepath.Join(dir, "web.hcl") + ":4:19", Value: "false", State: "overridden", Priority: prio(1500), Default: true},
			{At: host + ":3:12", Value: "true", State: "won", Priority: prio(100)},
		}},
		{Text: "80", Defined: true, Definitions: []Definition{
			{At: filepath.Join(dir, "web.hcl") + ":9:15", Value: "80", State: "won", Priority: prio(1500), Default: true},
		}},
		{Text: "{}", Defined: true, Definitions: []Definition{
			{At: filepath.Join(dir, "web.hcl") + ":13:15", Value: "{}", State: "won", Priority: prio(1500), Default: true},
		}},
		nil,
	}
	if len(idx.Hosts) != 1 || idx.Hosts[0].Name != "host.hcl" {
		t.Fatalf("hosts: %+v", idx.Hosts)
	}
	if diff := cmp.Diff(want, idx.Hosts[0].Values); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
}

// TestWrite: the files land in the directory, made when missing, the
// same bytes each time, with no temporary file left.
func TestWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "site")
	idx := Index{Options: []Option{{Path: "a.b", Type: "string", Declared: "m.hcl:1", Snippet: "config \"a\" {\n  b = \"\"\n}\n"}}, Hosts: []Host{}}
	for range 2 {
		if err := Write(dir, idx); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{IndexJSFile, IndexJSONFile, PageFile}, names); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	js, _ := os.ReadFile(filepath.Join(dir, IndexJSFile))
	data, _ := os.ReadFile(filepath.Join(dir, IndexJSONFile))
	if string(js) != "window."+IndexGlobal+" = "+strings.TrimSpace(string(data))+";\n" {
		t.Errorf("%s is not the JSON index set to a global:\n%s", IndexJSFile, js)
	}
	var back Index
	if err := json.Unmarshal(data, &back); err != nil || !cmp.Equal(idx, back) {
		t.Errorf("the JSON index does not read back (%v):\n%s", err, data)
	}
	page, _ := os.ReadFile(filepath.Join(dir, PageFile))
	for _, want := range []string{`<script src="` + IndexJSFile + `"></script>`, "function search(q)", "#layout {"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the page has no %q", want)
		}
	}
	for _, marker := range []string{"/*STYLE*/", "/*SCRIPT*/", "http://", "https://"} {
		if bytes.Contains(page, []byte(marker)) {
			t.Errorf("the page has %q (a marker left, or an outside asset)", marker)
		}
	}
	if err := Write(filepath.Join(dir, PageFile, "x"), idx); err == nil {
		t.Error("writing below a file did not fail")
	}
}

// TestDocsPage checks that docs/options.html and its index are what
// `nodegen options --format html -o docs` writes for the built-in library
// (make docs). NODEGEN_UPDATE=1 rewrites them.
func TestDocsPage(t *testing.T) {
	ev, diags := eval.New(eval.Config{Library: modules.FS()})
	if diags.HasErrors() {
		t.Fatalf("the library does not load: %s", diags.Error())
	}
	idx := Build(ev.Declarations(), nil)
	dir := filepath.Join("..", "docs")
	if os.Getenv("NODEGEN_UPDATE") != "" {
		if err := Write(dir, idx); err != nil {
			t.Fatal(err)
		}
		return
	}
	files, err := Files(idx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{PageFile, IndexJSONFile, IndexJSFile} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("docs/%s: %s; generate it with `make docs`", name, err)
			continue
		}
		if !bytes.Equal(got, files[name]) {
			t.Errorf("docs/%s is stale: the library's options or the page changed. Regenerate it with `make docs` (or NODEGEN_UPDATE=1 go test ./optionsite/) and commit it.", name)
		}
	}
}
